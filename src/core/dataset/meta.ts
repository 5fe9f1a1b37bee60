import type { Detection } from '../formats/types';
import { truncatedFromFields } from '../stats/truncation';
import { fieldOf, type ParseIssue, type Trajectory } from '../trajectory';
import { categories, type Categories } from './categories';
import { stepGroupKey } from './parts';
import type { PackedBatch } from './packed';
import { concat } from './concat';

/** Per-row facts the diagnostics need besides the scores, from rows read without the browser's import (the CLI). */
export interface DatasetMeta {
  rows: number;
  issues: ParseIssue[];
  detection: Detection;
  /** Group index per row, groups numbered in first-seen order. */
  groupOf: Int32Array;
  /** Group key (Trajectory.group, without the step: groups are per (step, key) when rows carry steps) per group index. */
  groupKeys: string[];
  /** Completion length in UTF-16 code units (String.length). */
  lengths: Float64Array;
  /** Training step per row, NaN where the row has none. */
  steps: Float64Array;
  /** Per row 1 / 0 when its fields say it was / was not cut at the length limit (stats/truncation), else NaN. */
  truncated: Float64Array;
  /** Label per row (NaN when missing or not a label); null when no label column was asked for. */
  labels: Float64Array | null;
  /** Rows where the label column is present at all. */
  labelPresent: number;
  /** The categories of the column asked for with `groupBy` (null when none was). */
  groupBy: Categories | null;
}

/** A label cell as a number: booleans 0/1, numbers, numeric or true/false strings; anything else NaN. */
export function labelValue(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? v : Number.NaN;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    const s = v.trim();
    const lower = s.toLowerCase();
    if (lower === 'true') return 1;
    if (lower === 'false') return 0;
    if (s === '') return Number.NaN;
    const n = Number(s);
    return Number.isFinite(n) ? n : Number.NaN;
  }
  return Number.NaN;
}

/** Group indexes (first-seen order), completion lengths, labels and the categories of column `groupBy` of the rows. */
export function datasetMeta(rows: Trajectory[], issues: ParseIssue[], detection: Detection, label: string | null, groupBy: string | null = null): DatasetMeta {
  const n = rows.length;
  const groupOf = new Int32Array(n);
  const groupKeys: string[] = [];
  const lengths = new Float64Array(n);
  const steps = new Float64Array(n);
  const truncated = new Float64Array(n);
  const labels = label === null ? null : new Float64Array(n);
  let labelPresent = 0;
  // A group is its step and the file's key (a GRPO group never spans two steps: parts.ts `stepGroupKey`, whose keys
  // these are): maps by step, then by key, rather than a key string built per row (~30 ms of a worker's 100,000).
  // No step and NaN are one (Map keys compare NaN equal, and −0 equal to +0, as stepGroupKey's text does).
  const byStep = new Map<number, Map<string, number>>();
  let lastGroup: string | null = null;
  let lastStep = Number.NaN;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const t = rows[i];
    const step = t.step ?? Number.NaN;
    // A group's rows usually come one after another (−0 after 0 only costs a look-up: the maps take them as one).
    if (t.group !== lastGroup || !Object.is(step, lastStep)) {
      let keys = byStep.get(step);
      if (keys === undefined) byStep.set(step, (keys = new Map()));
      let g = keys.get(t.group);
      if (g === undefined) {
        g = groupKeys.length;
        keys.set(t.group, g);
        groupKeys.push(t.group);
      }
      lastGroup = t.group;
      lastStep = step;
      last = g;
    }
    groupOf[i] = last;
    lengths[i] = t.completion.length;
    steps[i] = step;
    truncated[i] = truncatedFromFields(t.fields);
    if (labels && label !== null) {
      const v = fieldOf(t.fields, label);
      if (v !== undefined) labelPresent++;
      labels[i] = labelValue(v);
    }
  }
  return {
    rows: n,
    issues,
    detection,
    groupOf,
    groupKeys,
    lengths,
    steps,
    truncated,
    labels,
    labelPresent,
    groupBy: groupBy === null ? null : categories(rows, groupBy),
  };
}

/**
 * The facts of a file read in pieces (the CLI: one worker per piece), from each piece's `datasetMeta` in file order:
 * equal to `datasetMeta` of all their rows at once. Groups and groupBy values keep their first-seen order over the
 * whole file; the issues are the pieces' in order; `detection` is the file's (the pieces' own are not used).
 */
export function joinMetas(pieces: readonly DatasetMeta[], detection: Detection): DatasetMeta {
  let n = 0;
  for (const p of pieces) n += p.rows;
  const groupOf = new Int32Array(n);
  const index = new Map<string, number>();
  const groupKeys: string[] = [];
  const lengths = new Float64Array(n);
  const steps = new Float64Array(n);
  const truncated = new Float64Array(n);
  const withLabels = pieces.length > 0 && pieces[0].labels !== null;
  const labels = withLabels ? new Float64Array(n) : null;
  const withGroupBy = pieces.length > 0 && pieces[0].groupBy !== null;
  const codes = withGroupBy ? new Int32Array(n) : null;
  const valueIndex = new Map<string, number>();
  const values: string[] = [];
  const issues: ParseIssue[] = [];
  let labelPresent = 0;
  let present = 0;
  let at = 0;
  for (const p of pieces) {
    // A piece's group g is keyed as datasetMeta keys it: by the step of its first row (the rows of a key share it).
    const first = new Int32Array(p.groupKeys.length).fill(-1);
    for (let i = 0; i < p.rows; i++) if (first[p.groupOf[i]] < 0) first[p.groupOf[i]] = i;
    const global = new Int32Array(p.groupKeys.length);
    for (let g = 0; g < p.groupKeys.length; g++) {
      const key = stepGroupKey(first[g] < 0 ? Number.NaN : p.steps[first[g]], p.groupKeys[g]);
      let k = index.get(key);
      if (k === undefined) {
        k = groupKeys.length;
        index.set(key, k);
        groupKeys.push(p.groupKeys[g]);
      }
      global[g] = k;
    }
    for (let i = 0; i < p.rows; i++) groupOf[at + i] = global[p.groupOf[i]];
    lengths.set(p.lengths, at);
    steps.set(p.steps, at);
    truncated.set(p.truncated, at);
    if (labels) {
      if (!p.labels) throw new Error('joinMetas: a piece without the label column the others have');
      labels.set(p.labels, at);
      labelPresent += p.labelPresent;
    }
    if (codes) {
      if (!p.groupBy) throw new Error('joinMetas: a piece without the groupBy column the others have');
      const map = p.groupBy.values.map((v) => {
        let k = valueIndex.get(v);
        if (k === undefined) {
          k = values.length;
          valueIndex.set(v, k);
          values.push(v);
        }
        return k;
      });
      for (let i = 0; i < p.rows; i++) codes[at + i] = p.groupBy.codes[i] < 0 ? -1 : map[p.groupBy.codes[i]];
      present += p.groupBy.present;
    }
    for (const issue of p.issues) issues.push(issue);
    at += p.rows;
  }
  return {
    rows: n,
    issues,
    detection,
    groupOf,
    groupKeys,
    lengths,
    steps,
    truncated,
    labels,
    labelPresent,
    groupBy: codes ? { codes, values, present } : null,
  };
}

/**
 * The facts `datasetMeta` gives (no label, no groupBy column), from the browser's import instead of trajectories:
 * its packed batches of one read in order (groups numbered over all of them, `Packer`), lines shifted by `lineOffset`.
 * The CLI's lean piece reads use it: the scanner builds no row, where trajectories cost ~3× the time.
 */
export class PackedFacts {
  private readonly line: Int32Array[] = [];
  private readonly groupOf: Int32Array[] = [];
  private readonly charLength: Int32Array[] = [];
  private readonly step: Float64Array[] = [];
  private readonly truncated: Float64Array[] = [];
  private readonly groupKeys: string[] = [];
  private readonly issues: ParseIssue[] = [];

  constructor(private readonly lineOffset = 0) {}

  /** Take a batch's facts (not its preview texts or pairs). */
  add(b: PackedBatch): void {
    // Each new group's key without its step: `stepGroupKey` put the step of the group's rows in front of it.
    const first = this.groupKeys.length;
    const stepOf = new Float64Array(b.newGroups.length).fill(Number.NaN);
    const seen = new Uint8Array(b.newGroups.length);
    for (let i = 0; i < b.line.length; i++) {
      const k = b.groupOf[i] - first;
      if (k >= 0 && seen[k] === 0) {
        seen[k] = 1;
        stepOf[k] = b.step[i];
      }
    }
    for (let k = 0; k < b.newGroups.length; k++) {
      const key = b.newGroups[k];
      const prefix = Number.isNaN(stepOf[k]) ? '' : stepGroupKey(stepOf[k], '');
      if (!key.startsWith(prefix)) throw new Error(`PackedFacts: group key ${JSON.stringify(key.slice(0, 40))} does not start with its step`);
      this.groupKeys.push(key.slice(prefix.length));
    }
    for (const issue of b.issues) this.issues.push({ ...issue, line: issue.line + this.lineOffset });
    this.line.push(b.line);
    this.groupOf.push(b.groupOf);
    this.charLength.push(b.charLength);
    this.step.push(b.step);
    this.truncated.push(b.truncated);
  }

  /** The rows' lines, shifted. */
  lines(): Int32Array {
    const out = concat(this.line, Int32Array);
    for (let i = 0; i < out.length; i++) out[i] += this.lineOffset;
    return out;
  }

  finish(detection: Detection): DatasetMeta {
    const groupOf = concat(this.groupOf, Int32Array);
    return {
      rows: groupOf.length,
      issues: this.issues,
      detection,
      groupOf,
      groupKeys: this.groupKeys,
      lengths: concat(this.charLength, Float64Array),
      steps: concat(this.step, Float64Array),
      truncated: concat(this.truncated, Float64Array),
      labels: null,
      labelPresent: 0,
      groupBy: null,
    };
  }
}
