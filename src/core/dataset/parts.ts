/**
 * Datasets made of several files (issue 24): a training run dumps one file per step (verl
 * `rollout_data_dir/{step}.jsonl`, TRL `completions_{step}.parquet`). Each file is a *part*; its rows take their step
 * from their own `step` field, else from the file's name (`stepFromName`). Parts are read in step order, then by name.
 */
import type { PackedBatch } from './packed';
import type { ParseIssue, Trajectory } from '../trajectory';

/** At most this many files in one dataset (a run of 10,000 dumped steps is already more than anyone opens). */
export const PART_LIMIT = 10_000;
/** A part's name (its path inside the folder) is at most this many characters. */
export const PART_NAME_LIMIT = 1_000;

/** The extensions of the data files a folder is read for (with an optional `.gz` after them). */
export const DATA_EXTENSIONS = ['jsonl', 'ndjson', 'json', 'csv', 'tsv', 'parquet'] as const;

const DATA_FILE = new RegExp(`\\.(${DATA_EXTENSIONS.join('|')})(\\.gz)?$`, 'i');

/** Whether a file's name ends in a data format's extension (`.jsonl`, `.parquet`, `.csv.gz`, …). */
export function isDataFile(name: string): boolean {
  return DATA_FILE.test(baseOf(name));
}

/** The name without its folders. */
function baseOf(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

/** The step a file's name gives, or why it gives none. */
export type NameStep = { step: number } | { step: null; why: 'no digits' | 'ambiguous' | 'too large' };

/**
 * The step in a file's name. The base name is the name without folders and without its data extensions (`.jsonl`,
 * `.parquet`, `.csv.gz`, …). Then:
 * - digits right after the word `step` (any case, then optionally `_`, `-`, `.` or a space) give the step; the last
 *   such run wins: `global_step_300_rank0.jsonl` → 300, `step-12.jsonl` → 12;
 * - else, a base name with exactly one run of digits gives that run: `123.jsonl` → 123, `completions_7.parquet` → 7;
 * - else none: no digits (`rollouts.jsonl`), or several runs with no `step` before any of them
 *   (`run2_epoch3.jsonl`: ambiguous, so it is flagged, never guessed).
 * Leading zeros are allowed (`0007.jsonl` → 7); a run of more than 15 digits is refused as too large.
 */
export function stepFromName(name: string): NameStep {
  const base = baseOf(name).replace(DATA_FILE, '');
  const runs = base.match(/\d+/g) ?? [];
  if (runs.length === 0) return { step: null, why: 'no digits' };
  const named = [...base.matchAll(/step[_\-. ]?(\d+)/gi)];
  let digits: string;
  if (named.length > 0) digits = named[named.length - 1][1];
  else if (runs.length === 1) digits = runs[0];
  else return { step: null, why: 'ambiguous' };
  if (digits.replace(/^0+(?=\d)/, '').length > 15) return { step: null, why: 'too large' };
  return { step: Number(digits) };
}

/** One file of a multi-file dataset, in reading order. */
export interface PartPlan<F> {
  file: F;
  name: string;
  /** The step its name gives (rows without a `step` field get it), or null. */
  step: number | null;
}

/** Files put in reading order, those that are not data files left out, and what the user should know about names. */
export interface PartsPlan<F> {
  parts: PartPlan<F>[];
  /** Names left out: not a data file's extension. */
  skipped: string[];
  /** Names whose step could not be read (ambiguous, too large) and steps given by two files' names. */
  notes: string[];
}

const collator = new Intl.Collator('en', { numeric: true });

/**
 * The data files among `files` (`nameOf` gives each one's name or path) in reading order: by the step their name
 * gives (files without one after those with one), then by name, digits compared as numbers. Throws when there are
 * more than PART_LIMIT of them or a name is longer than PART_NAME_LIMIT.
 */
export function planParts<F>(files: readonly F[], nameOf: (f: F) => string): PartsPlan<F> {
  const parts: PartPlan<F>[] = [];
  const skipped: string[] = [];
  const notes: string[] = [];
  for (const file of files) {
    const name = nameOf(file);
    if (name.length > PART_NAME_LIMIT) throw new Error(`a file name longer than ${PART_NAME_LIMIT} characters: ${name.slice(0, 80)}…`);
    if (!isDataFile(name)) {
      skipped.push(name);
      continue;
    }
    const s = stepFromName(name);
    if (s.step === null && s.why !== 'no digits')
      notes.push(`${name}: no step read from the name (${s.why === 'ambiguous' ? 'several numbers and none after "step"' : 'the number is too large'})`);
    parts.push({ file, name, step: s.step });
  }
  if (parts.length > PART_LIMIT) throw new Error(`${parts.length} data files: at most ${PART_LIMIT} can be opened as one dataset`);
  parts.sort((a, b) => (a.step ?? Infinity) - (b.step ?? Infinity) || collator.compare(a.name, b.name));
  for (let i = 1; i < parts.length; i++) {
    const s = parts[i].step;
    if (s !== null && s === parts[i - 1].step) notes.push(`${parts[i - 1].name} and ${parts[i].name} both give step ${s}: their rows share that step`);
  }
  return { parts, skipped, notes };
}

/**
 * The key that numbers GRPO groups: a group never spans two training steps, so rows that carry a step are grouped by
 * (step, group key). Rows without a step keep their plain key. The step-scoped form starts with a NUL character, so
 * `plainGroupKey` gives back the file's own key (what is shown: core/dataset/groupLabels.ts).
 */
export function stepGroupKey(step: number, group: string): string {
  return Number.isNaN(step) ? group : `\u0000${step}\u0000${group}`;
}

/** The file's own group key of a `stepGroupKey` (the step-less, per-prompt key: the same prompt across steps). */
export function plainGroupKey(key: string): string {
  if (key.charCodeAt(0) !== 0) return key;
  const end = key.indexOf('\u0000', 1);
  return end < 0 ? key : key.slice(end + 1);
}

/** A part's trajectory with the step of its file when it has none of its own (changed in place). */
export function withPartStep(t: Trajectory, step: number | null): Trajectory {
  if (t.step === undefined && step !== null) t.step = step;
  return t;
}

/**
 * Joins the packed batches of several parts' imports (each numbered on its own) into one dataset's numbering: rows
 * without a step get their part's, groups are renumbered by (step, key) over all parts, pairs are shifted past the
 * previous parts' (a pair never spans two files), and issues name their file.
 */
export class PartsJoiner {
  private groups = new Map<string, number>();
  private pairsBefore = 0;
  /** The current part's own group keys, by its own group index. */
  private local: string[] = [];
  private pairsInPart = 0;
  private part: { name: string; step: number | null } = { name: '', step: null };

  /** Start the next part. */
  startPart(name: string, step: number | null): void {
    this.pairsBefore += this.pairsInPart;
    this.pairsInPart = 0;
    this.local = [];
    this.part = { name, step };
  }

  /** Renumber a batch of the current part (changed in place, and returned). */
  adopt(b: PackedBatch): PackedBatch {
    for (const k of b.newGroups) this.local.push(k);
    const fill = this.part.step ?? Number.NaN;
    const newGroups: string[] = [];
    for (let i = 0; i < b.line.length; i++) {
      if (Number.isNaN(b.step[i])) b.step[i] = fill;
      const key = stepGroupKey(b.step[i], plainGroupKey(this.local[b.groupOf[i]]));
      let g = this.groups.get(key);
      if (g === undefined) {
        g = this.groups.size;
        this.groups.set(key, g);
        newGroups.push(key);
      }
      b.groupOf[i] = g;
      if (b.pairOf[i] >= 0) b.pairOf[i] += this.pairsBefore;
    }
    this.pairsInPart += b.newPairs.length;
    b.newGroups = newGroups;
    b.issues = b.issues.map((i) => nameIssue(i, this.part.name));
    return b;
  }
}

/** An issue of one part, naming its file. */
export function nameIssue(i: ParseIssue, file: string): ParseIssue {
  return { ...i, file };
}

/** The issue of a part that could not be read at all (the browser's import and the workers' and CLI's reads say the same). */
export function unreadablePart(file: string, e: unknown): ParseIssue {
  return { line: 0, reason: `the file could not be read: ${e instanceof Error ? e.message : String(e)}`, file };
}

/**
 * The parts of a dataset of several files as storage gives them back (a saved session's files, IndexedDB): 1 to
 * PART_LIMIT of them, each a Blob with a name of at most PART_NAME_LIMIT characters and a step that is null or a
 * finite number. Null when anything does not fit: the caller says the files cannot be read back.
 */
export function checkStoredParts(v: unknown): { blob: Blob; name: string; step: number | null }[] | null {
  if (!Array.isArray(v) || v.length < 1 || v.length > PART_LIMIT) return null;
  const out: { blob: Blob; name: string; step: number | null }[] = [];
  for (const x of v as unknown[]) {
    if (typeof x !== 'object' || x === null) return null;
    const { blob, name, step } = x as Record<string, unknown>;
    if (!(blob instanceof Blob) || typeof name !== 'string' || name.length > PART_NAME_LIMIT) return null;
    if (step !== null && !(typeof step === 'number' && Number.isFinite(step))) return null;
    out.push({ blob, name, step });
  }
  return out;
}

/** The file holding dataset row `row` (`parts` in row order, each with its first row and row count), or undefined. */
export function partOfRow<P extends { first: number; rows: number }>(parts: readonly P[], row: number): P | undefined {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (parts[mid].first <= row) lo = mid;
    else hi = mid - 1;
  }
  const p = parts[lo];
  return p !== undefined && row >= p.first && row < p.first + p.rows ? p : undefined;
}

/**
 * Groups of the same key across steps ("the same prompt across steps"): groups are per (step, key), and
 * `groupKeys` (Dataset, DatasetMeta) holds each group's step-less key; this numbers those keys densely in first-seen
 * order. `keyOf[g]` is group g's key index; `keys[k]` the key.
 */
export function keysAcrossSteps(groupKeys: readonly string[]): { keyOf: Int32Array; keys: string[] } {
  const index = new Map<string, number>();
  const keys: string[] = [];
  const keyOf = new Int32Array(groupKeys.length);
  groupKeys.forEach((k, g) => {
    let i = index.get(k);
    if (i === undefined) {
      i = keys.length;
      index.set(k, i);
      keys.push(k);
    }
    keyOf[g] = i;
  });
  return { keyOf, keys };
}
