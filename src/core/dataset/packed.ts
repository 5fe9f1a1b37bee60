import { PairSide } from '../stats/preference';
import { truncatedFromFields } from '../stats/truncation';
import { stepGroupKey } from './parts';
import type { ParseIssue, Trajectory } from '../trajectory';

/** Characters of each completion sent to the main thread for the table. */
export const PREVIEW_CHARS = 160;

/**
 * What the import worker sends to the main thread per batch: per-trajectory columns as typed arrays (transferred,
 * not copied) and a short preview of each completion. The trajectories themselves stay in the workers (the import
 * worker answers detail and search queries; each reward worker reads the file itself), so the main thread never
 * deserializes the data set: it would cost it far more than the parse.
 */
export interface PackedBatch {
  /** Per trajectory: 1-based source line / row. */
  line: Int32Array;
  /** Per trajectory: dense group index over the whole import. */
  groupOf: Int32Array;
  /** Per trajectory: completion length in UTF-16 code units. */
  charLength: Int32Array;
  /** Per trajectory: training step, NaN when the row has none. */
  step: Float64Array;
  /** Per trajectory: 1 / 0 when its fields say it was / was not cut at the length limit (stats/truncation), else NaN. */
  truncated: Float64Array;
  /**
   * The first PREVIEW_CHARS characters (UTF-16 code units) of each completion, one after the other: trajectory i's
   * are `previewUnits[previewEnds[i - 1] .. previewEnds[i])` (from 0 for the first). Code units, not strings, so
   * that they travel between threads without being copied (see `previewsOf`).
   */
  previewUnits: Uint16Array;
  previewEnds: Int32Array;
  /** Group keys first seen in this batch, in group-index order (step-scoped for rows with a step: parts.ts `stepGroupKey`). */
  newGroups: string[];
  /**
   * Per trajectory: dense preference-pair index over the whole import (first-seen order of `pairId`, as
   * stats/preference `preferencePairs` numbers them), −1 for a row outside a pair.
   */
  pairOf: Int32Array;
  /** Per trajectory: its side in the pair as a PairSide code (0 none, 1 chosen, 2 rejected). */
  pairSide: Uint8Array;
  /** Pairs first seen in this batch, in pair-index order: the record's `subset` when it is a string (RewardBench), else null. */
  newPairs: (string | null)[];
  /** The pair ids of `newPairs`, only from a Packer made with `{ pairKeys: true }` (a piece of a parallel import). */
  newPairKeys?: string[];
  issues: ParseIssue[];
  bytesRead: number;
  totalBytes: number;
}

/** Packs consecutive batches of one import, numbering groups and preference pairs densely in first-seen order. */
export class Packer {
  private groups = new Map<string, number>();
  private pairs = new Map<string, number>();

  constructor(private readonly opts: { pairKeys?: boolean } = {}) {}

  /**
   * Take in a batch packed by another Packer over a later piece of the same file (its own numbering, lines counted
   * from the piece's start, made with `{ pairKeys: true }`), after every batch before it: renumber its groups and
   * pairs into this import's numbering (first-seen order over the whole file) and shift its lines by `lineOffset`.
   * The batch is changed in place and returned.
   */
  adopt(b: PackedBatch, lineOffset: number, local: PieceNumbering): PackedBatch {
    const newGroups: string[] = [];
    for (const key of b.newGroups) {
      let g = this.groups.get(key);
      if (g === undefined) {
        g = this.groups.size;
        this.groups.set(key, g);
        newGroups.push(key);
      }
      local.groups.push(g);
    }
    const newPairs: (string | null)[] = [];
    const keys = b.newPairKeys ?? [];
    if (keys.length !== b.newPairs.length) throw new Error('Packer.adopt: the batch was packed without pair keys');
    for (let k = 0; k < keys.length; k++) {
      let p = this.pairs.get(keys[k]);
      if (p === undefined) {
        p = this.pairs.size;
        this.pairs.set(keys[k], p);
        newPairs.push(b.newPairs[k]);
      }
      local.pairs.push(p);
    }
    for (let i = 0; i < b.line.length; i++) {
      b.line[i] += lineOffset;
      b.groupOf[i] = local.groups[b.groupOf[i]];
      if (b.pairOf[i] >= 0) b.pairOf[i] = local.pairs[b.pairOf[i]];
    }
    for (const issue of b.issues) issue.line += lineOffset;
    b.newGroups = newGroups;
    b.newPairs = newPairs;
    delete b.newPairKeys;
    return b;
  }

  /** The batch being built (`row`, `trajectory`), handed out by `take`. */
  private n = 0;
  private cap = 0;
  private line = new Int32Array(0);
  private groupOf = new Int32Array(0);
  private charLength = new Int32Array(0);
  private step = new Float64Array(0);
  private truncated = new Float64Array(0);
  private pairOf = new Int32Array(0);
  private pairSide = new Uint8Array(0);
  private previewEnds = new Int32Array(0);
  private units = new Uint16Array(4096);
  private unitsUsed = 0;
  private newGroups: string[] = [];
  private newPairs: (string | null)[] = [];
  private newPairKeys: string[] = [];
  /** The group of the last row added, and its index. */
  private lastGroup: string | null = null;
  private lastGroupIndex = 0;
  /** The step and plain key of the last row added (its step-scoped key is `lastGroup`). */
  private lastStep = Number.NaN;
  private lastPlain: string | null = null;
  /** Preview units given to `rowUnits` and not copied yet: `runSource[runFrom, runEnd)`, to go at `units[runAt]`. */
  private runSource: Uint16Array | null = null;
  private runFrom = 0;
  private runEnd = 0;
  private runAt = 0;

  pack(rows: readonly Trajectory[], issues: ParseIssue[], bytesRead: number, totalBytes: number): PackedBatch {
    this.reserve(rows.length);
    for (let i = 0; i < rows.length; i++) this.trajectory(rows[i]);
    return this.take(issues, bytesRead, totalBytes);
  }

  /** Add a trajectory to the batch being built. */
  trajectory(t: Trajectory): void {
    const i = this.row(t.line, t.group, t.completion.length, t.step ?? Number.NaN, t.completion, truncatedFromFields(t.fields));
    // A row is in a pair only with both a pair id and a side (the rule of preferencePairs): the pairs of one
    // record always arrive in the same batch, but a pair id repeated on a later line joins the earlier pair.
    const side = t.preference === 'chosen' ? PairSide.Chosen : t.preference === 'rejected' ? PairSide.Rejected : PairSide.None;
    if (t.pairId !== undefined && side !== PairSide.None) {
      let p = this.pairs.get(t.pairId);
      if (p === undefined) {
        p = this.pairs.size;
        this.pairs.set(t.pairId, p);
        // The subset of the pair's first record names the pair (RewardBench: every row of a pair has the same).
        const subset = t.fields.subset;
        this.newPairs.push(typeof subset === 'string' ? subset : null);
        this.newPairKeys.push(t.pairId);
      }
      this.pairOf[i] = p;
      this.pairSide[i] = side;
    }
  }

  /**
   * Add a row outside any preference pair to the batch being built, from its columns (`preview`: the first
   * PREVIEW_CHARS characters of the completion); returns its index in the batch.
   */
  row(line: number, group: string, charLength: number, step: number, preview: string, truncated = Number.NaN): number {
    this.copyUnits();
    const n = Math.min(preview.length, PREVIEW_CHARS);
    const at = this.room(n);
    for (let k = 0; k < n; k++) this.units[at + k] = preview.charCodeAt(k);
    return this.start(line, group, charLength, step, n, truncated);
  }

  /**
   * `row`, with the preview given as UTF-16 code units: `count` of them from `units[from]`. They are copied later,
   * in one piece with those of the rows before it that follow each other in `units` (a scanner writes the previews
   * of consecutive rows one after the other): call `copyUnits` before `units` changes.
   */
  rowUnits(line: number, group: string, charLength: number, step: number, units: Uint16Array, from: number, count: number, truncated = Number.NaN): number {
    if (this.runSource !== units || this.runEnd !== from) {
      this.copyUnits();
      this.runSource = units;
      this.runFrom = from;
      this.runAt = this.unitsUsed;
    }
    this.runEnd = from + count;
    this.room(count);
    return this.start(line, group, charLength, step, count, truncated);
  }

  /** Copy the preview units `rowUnits` has not copied yet. */
  copyUnits(): void {
    if (this.runSource === null) return;
    this.units.set(this.runSource.subarray(this.runFrom, this.runEnd), this.runAt);
    this.runSource = null;
  }

  /** Room for `n` more preview units: where they go. */
  private room(n: number): number {
    if (this.unitsUsed + n > this.units.length) {
      const bigger = new Uint16Array(Math.max(this.unitsUsed + n, 2 * this.units.length));
      bigger.set(this.units.subarray(0, this.unitsUsed));
      this.units = bigger;
    }
    return this.unitsUsed;
  }

  private start(line: number, plain: string, charLength: number, step: number, previewUnits: number, truncated: number): number {
    if (this.n === this.cap) this.reserve(Math.max(1024, this.cap));
    const i = this.n++;
    this.line[i] = line;
    // A GRPO group never spans two steps: rows with a step are grouped by (step, key) (parts.ts).
    const same = step === this.lastStep && plain === this.lastPlain && this.lastGroup !== null;
    const group = Number.isNaN(step) ? plain : same ? (this.lastGroup as string) : stepGroupKey(step, plain);
    this.lastStep = step;
    this.lastPlain = plain;
    // Rows of a group usually follow each other, often with the very same key string.
    let g = group === this.lastGroup ? this.lastGroupIndex : this.groups.get(group);
    if (g === undefined) {
      g = this.groups.size;
      this.groups.set(group, g);
      this.newGroups.push(group);
    }
    this.lastGroup = group;
    this.lastGroupIndex = g;
    this.groupOf[i] = g;
    this.charLength[i] = charLength;
    this.step[i] = step;
    this.truncated[i] = truncated;
    this.unitsUsed += previewUnits;
    this.previewEnds[i] = this.unitsUsed;
    this.pairOf[i] = -1;
    this.pairSide[i] = PairSide.None;
    return i;
  }

  /** Rows in the batch being built. */
  get rows(): number {
    return this.n;
  }

  /** The batch built since the last `take` (or `pack`), with these issues and progress. */
  take(issues: ParseIssue[], bytesRead: number, totalBytes: number): PackedBatch {
    this.copyUnits();
    const n = this.n;
    // Arrays at least 3/4 full are handed out as they are (they are transferred to the page, not copied); the next
    // batch gets new ones of the size this one needed (batches are usually alike).
    const handOver = 4 * n >= 3 * this.cap;
    const unitsOver = 4 * this.unitsUsed >= 3 * this.units.length;
    const out = <A extends Int32Array | Float64Array | Uint8Array | Uint16Array>(a: A, used: number, whole: boolean): A =>
      (whole ? a.subarray(0, used) : a.slice(0, used)) as A;
    const batch: PackedBatch = {
      line: out(this.line, n, handOver),
      groupOf: out(this.groupOf, n, handOver),
      charLength: out(this.charLength, n, handOver),
      step: out(this.step, n, handOver),
      truncated: out(this.truncated, n, handOver),
      previewUnits: out(this.units, this.unitsUsed, unitsOver),
      previewEnds: out(this.previewEnds, n, handOver),
      newGroups: this.newGroups,
      pairOf: out(this.pairOf, n, handOver),
      pairSide: out(this.pairSide, n, handOver),
      newPairs: this.newPairs,
      issues,
      bytesRead,
      totalBytes,
    };
    if (this.opts.pairKeys) batch.newPairKeys = this.newPairKeys;
    this.n = 0;
    if (handOver) {
      this.cap = 0;
      this.reserve(Math.max(1024, n));
    }
    const unitsNext = Math.max(4096, Math.ceil(this.unitsUsed * 1.1));
    if (unitsOver || 3 * this.units.length > 4 * unitsNext) this.units = new Uint16Array(unitsNext);
    this.unitsUsed = 0;
    this.newGroups = [];
    this.newPairs = [];
    this.newPairKeys = [];
    return batch;
  }

  /** Room for `more` rows beyond those in the batch being built. */
  private reserve(more: number): void {
    const need = this.n + more;
    if (need <= this.cap) return;
    const cap = Math.max(need, 2 * this.cap);
    const grow = <A extends Int32Array | Float64Array | Uint8Array>(a: A, make: (n: number) => A): A => {
      const b = make(cap);
      b.set(a.subarray(0, this.n) as never);
      return b;
    };
    this.line = grow(this.line, (k) => new Int32Array(k));
    this.groupOf = grow(this.groupOf, (k) => new Int32Array(k));
    this.charLength = grow(this.charLength, (k) => new Int32Array(k));
    this.step = grow(this.step, (k) => new Float64Array(k));
    this.truncated = grow(this.truncated, (k) => new Float64Array(k));
    this.pairOf = grow(this.pairOf, (k) => new Int32Array(k));
    this.pairSide = grow(this.pairSide, (k) => new Uint8Array(k));
    this.previewEnds = grow(this.previewEnds, (k) => new Int32Array(k));
    this.cap = cap;
  }
}

/**
 * Preview `i` of UTF-16 code units laid out as in a PackedBatch (`ends[i]` is where preview i ends); or of the same
 * units kept one byte each where all are below 256 (`narrowPreviewUnits`).
 */
export function previewAt(units: Uint16Array | Uint8Array, ends: Int32Array, i: number): string {
  const start = i === 0 ? 0 : ends[i - 1];
  return String.fromCharCode.apply(null, units.subarray(start, ends[i]) as unknown as number[]);
}

/** A batch's previews as strings (tests, and anywhere all of them are wanted). */
export function previewsOf(b: Pick<PackedBatch, 'previewUnits' | 'previewEnds'>): string[] {
  return Array.from({ length: b.previewEnds.length }, (_, i) => previewAt(b.previewUnits, b.previewEnds, i));
}

/** A piece's own group and pair numbers → this import's, filled by `Packer.adopt` batch after batch. */
export interface PieceNumbering {
  groups: number[];
  pairs: number[];
}

/** The typed arrays of a batch, for postMessage's transfer list. */
export function batchTransfer(b: PackedBatch): ArrayBuffer[] {
  return [
    b.line.buffer,
    b.groupOf.buffer,
    b.charLength.buffer,
    b.step.buffer,
    b.truncated.buffer,
    b.pairOf.buffer,
    b.pairSide.buffer,
    b.previewUnits.buffer,
    b.previewEnds.buffer,
  ] as ArrayBuffer[];
}
