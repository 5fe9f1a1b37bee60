/**
 * The group as the user knows it (issue 21, item 4). Groups are numbered densely from 0 for computation
 * (`groupOf`), but what is shown, filtered on and exported is the file's own key: the value of its group column
 * (`group`, `uid`, `group_id`, `prompt_id` or the mapped column), exactly as written ("200", an int64's every digit).
 * Groups made of identical prompt text have no such value: they get a stable label from a hash of the prompt text
 * ("p-…"), the same in every import, session and in the CLI, whatever the order of the rows.
 */
import { GROUP_COLUMNS } from '../formats/group-key';
import type { ColumnMapping, Detection } from '../formats/types';

/** Marks a label made from prompt text rather than a column's value. */
export const PROMPT_LABEL_PREFIX = 'p-';

/** Whether the rows' group keys come from a column (a mapped group column, or a standard one seen in the file). */
export function groupsFromColumn(detection: Pick<Detection, 'columns' | 'format'>, mapping?: Pick<ColumnMapping, 'group'>): boolean {
  if (detection.format === 'mapped') return mapping?.group !== undefined && mapping.group !== '';
  return GROUP_COLUMNS.some((c) => detection.columns.includes(c));
}

/**
 * cyrb53 (bryc, public domain): a 53-bit hash of the string's UTF-16 code units, as 14 hex digits. 53 bits keep
 * collisions among 100,000 prompts below one in 10^5; `groupLabels` still tells colliding prompts apart.
 */
export function promptHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const value = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return value.toString(16).padStart(14, '0');
}

/**
 * One label per group (aligned with `keys`): the key itself when keys come from a column, else "p-" + the prompt
 * hash; a hash already given to another key gets "~2", "~3", … so that every label names one key. The same key at
 * several steps (groups are per step) has the same label. (`hash` is replaced only by tests, to make collisions.)
 */
export function groupLabels(keys: readonly string[], fromColumn: boolean, hash: (text: string) => string = promptHash): string[] {
  const labeler = new GroupLabeler(fromColumn, hash);
  labeler.add(keys);
  return labeler.labels;
}

/**
 * `groupLabels` a few keys at a time, in order (the page labels each import batch's new groups as it arrives, so
 * that hashing 60,000 prompts is not one long task at the end of the import).
 */
export class GroupLabeler {
  readonly labels: string[] = [];
  private seen = new Map<string, number>();
  // The same key (one prompt at several training steps) keeps one label.
  private byKey = new Map<string, string>();

  constructor(
    readonly fromColumn: boolean,
    private readonly hash: (text: string) => string = promptHash,
  ) {}

  add(keys: readonly string[]): void {
    for (const k of keys) this.labels.push(this.fromColumn ? k : this.label(k));
  }

  private label(k: string): string {
    const known = this.byKey.get(k);
    if (known !== undefined) return known;
    const base = PROMPT_LABEL_PREFIX + this.hash(k);
    const n = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, n);
    const label = n === 1 ? base : `${base}~${n}`;
    this.byKey.set(k, label);
    return label;
  }
}

/** Group label → dense group index, for filters typed by the user (labels are unique, see `groupLabels`). */
export function groupIndexByLabel(labels: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (let g = 0; g < labels.length; g++) if (!m.has(labels[g])) m.set(labels[g], g);
  return m;
}

/** Each group's label class: the first group index with the same label (groups of one key at several steps share it). */
export function groupLabelClasses(labels: readonly string[]): Int32Array {
  const first = groupIndexByLabel(labels);
  return Int32Array.from(labels, (l) => first.get(l)!);
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * Each group's rank when groups are sorted by label, digits compared as numbers ("7" < "200" < "9007199254740993",
 * at any length) and text by collation: the table sorts by the file's values, not by first-seen order.
 */
export function groupRanks(labels: readonly string[]): Int32Array {
  const order = Array.from(labels.keys()).sort((a, b) => collator.compare(labels[a], labels[b]) || a - b);
  const rank = new Int32Array(labels.length);
  order.forEach((g, r) => (rank[g] = r));
  return rank;
}
