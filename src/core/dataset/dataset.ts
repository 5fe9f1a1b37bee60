import type { ColumnMapping, Detection } from '../formats/types';
import type { PreferencePairs } from '../stats/preference';
import type { ParseIssue } from '../trajectory';
import { GroupLabeler, groupLabels, groupsFromColumn } from './groupLabels';
import { previewAt, type PackedBatch } from './packed';
import { plainGroupKey } from './parts';

/**
 * A loaded dataset as the main thread holds it: the source file (a Blob, from which every worker derives the same
 * trajectories), per-trajectory typed arrays that diagnostics and the table work on, and completion previews
 * (DESIGN.md: big data lives in typed arrays, not in React state or as arrays of objects).
 */
export interface Dataset {
  id: string;
  /** The data worker's key for this dataset's trajectories (see runtime/importClient). */
  key: number;
  name: string;
  /** The source file; workers read it with the same format and mapping to get identical trajectories. */
  blob: Blob;
  /** Number of trajectories. */
  size: number;
  /** Trajectory → 1-based source line / row. */
  lines: Int32Array;
  /**
   * Each group's key in first-seen order: the file's own key, without the step (a group is a (step, key) pair when
   * rows carry steps, so a key repeats across steps: it is the same prompt across steps).
   */
  groupKeys: string[];
  /** What the user sees of each group (aligned with groupKeys): the file's own value, or a prompt hash (groupLabels.ts). */
  groupLabels: string[];
  /** Trajectory → index into groupKeys. */
  groupOf: Int32Array;
  /** Trajectories per group, aligned with groupKeys. */
  groupSizes: Int32Array;
  /** Completion length in characters (UTF-16 code units, as String.length). */
  charLengths: Int32Array;
  /** Training step of each trajectory, NaN where the row has none. */
  steps: Float64Array;
  /** Whether any trajectory has a step. */
  hasSteps: boolean;
  /**
   * Per trajectory: 1 / 0 when its fields say it was / was not cut at the length limit (finish reason or truncated
   * flag: stats/truncation truncatedFromFields), NaN when they say nothing.
   */
  truncatedFields: Float64Array;
  /** Trajectory → dense preference-pair index (first-seen order of pairId), −1 outside a pair. */
  pairOf: Int32Array;
  /** Trajectory → its side in the pair, a PairSide code (0 none, 1 chosen, 2 rejected). */
  pairSide: Uint8Array;
  /** One entry per pair (so its length is the number of pairs): the record's string `subset` (RewardBench), or null. */
  pairSubsets: (string | null)[];
  /** Whether any trajectory is in a preference pair (prompt / chosen / rejected data). */
  hasPairs: boolean;
  /** The first characters of each completion (read one with `previewOf`). */
  previews: Previews;
  issues: ParseIssue[];
  detection: Detection;
  /** The column mapping used (format `mapped`). */
  mapping?: ColumnMapping;
  /**
   * A plain JSONL file: per trajectory, the byte offsets in `blob` of the start and end of its line (start, end).
   * With `lines`, reward workers read a row back from its line (core/dataset/lineRows.ts) instead of the whole file.
   */
  spans?: Float64Array;
  /** A gzip-compressed file's bytes decompressed (core/formats/inflate.ts): the spans point into them, and workers read them. */
  decompressed?: Blob;
  /**
   * A dataset of several files (core/dataset/parts.ts), in reading order: each file's rows are rows
   * [first, first + rows); `lines` are then each file's own line numbers. Absent for one file.
   */
  parts?: DatasetPartInfo[];
}

/** One file of a dataset of several files. */
export interface DatasetPartInfo {
  name: string;
  blob: Blob;
  /** The step its name gives (its rows without a step of their own have it), or null. */
  step: number | null;
  first: number;
  rows: number;
  /** A plain JSONL file: its rows' byte spans in it (as `Dataset.spans` for one file). */
  spans?: Float64Array;
  /** As `Dataset.decompressed`. */
  decompressed?: Blob;
}

/** What workers read a file's rows from: a gzip file's bytes decompressed, else the file. */
export function bytesOf(f: { blob: Blob; decompressed?: Blob }): Blob {
  return f.decompressed ?? f.blob;
}

/**
 * Completion previews as the import's batches brought them (code units, a byte each in Latin-1 batches: see PackedBatch), kept in those
 * pieces: only the table's visible rows are ever read, so they are not joined into one array.
 */
export interface Previews {
  /** The first trajectory of each piece, ascending. */
  firstRow: number[];
  units: (Uint8Array | Uint16Array)[];
  ends: Int32Array[];
}

/** A growable typed array. */
class Column<A extends Int32Array | Float64Array | Uint8Array> {
  private n = 0;
  constructor(
    private arr: A,
    private readonly make: (n: number) => A,
  ) {}
  append(src: ArrayLike<number>): void {
    if (this.n + src.length > this.arr.length) {
      const bigger = this.make(Math.max(1024, (this.n + src.length) * 2));
      bigger.set(this.arr.subarray(0, this.n));
      this.arr = bigger;
    }
    this.arr.set(src, this.n);
    this.n += src.length;
  }
  /** The values; the array itself (a view) when it is at least ¾ full: copying seven columns of a million rows was
   * ~15 ms of the import's last task, on the page's thread. */
  done(): A {
    return (4 * this.n >= 3 * this.arr.length ? this.arr.subarray(0, this.n) : this.arr.slice(0, this.n)) as A;
  }
}
const ints = () => new Column(new Int32Array(1024), (n) => new Int32Array(n));
const floats = () => new Column(new Float64Array(1024), (n) => new Float64Array(n));
const bytes = () => new Column(new Uint8Array(1024), (n) => new Uint8Array(n));

/** Assembles a Dataset from the batches of one import, in order. */
export class DatasetBuilder {
  private lines = ints();
  private groupOf = ints();
  private charLengths = ints();
  private steps = floats();
  private truncated = floats();
  private pairOf = ints();
  private pairSide = bytes();
  private previews: Previews = { firstRow: [], units: [], ends: [] };
  private groupKeys: string[] = [];
  private pairSubsets: (string | null)[] = [];
  private issues: ParseIssue[] = [];
  size = 0;

  append(b: PackedBatch): void {
    this.lines.append(b.line);
    this.groupOf.append(b.groupOf);
    this.charLengths.append(b.charLength);
    this.steps.append(b.step);
    this.truncated.append(b.truncated);
    this.pairOf.append(b.pairOf);
    this.pairSide.append(b.pairSide);
    if (b.line.length > 0) {
      this.previews.firstRow.push(this.size);
      this.previews.units.push(b.previewUnits);
      this.previews.ends.push(b.previewEnds);
    }
    const before = this.groupKeys.length;
    for (const g of b.newGroups) this.groupKeys.push(plainGroupKey(g));
    this.labeler?.add(this.groupKeys.slice(before));
    for (const s of b.newPairs) this.pairSubsets.push(s);
    for (const i of b.issues) this.issues.push(i);
    this.size += b.line.length;
  }

  /** An issue outside any batch (a file of several that could not be read). */
  addIssue(i: ParseIssue): void {
    this.issues.push(i);
  }

  /** Label groups as their batches arrive (`finish` then has nothing left to hash), for groups read this way. */
  labelAsRead(fromColumn: boolean): void {
    this.labeler = new GroupLabeler(fromColumn);
    this.labeler.add(this.groupKeys);
  }
  private labeler: GroupLabeler | null = null;

  get issueCount(): number {
    return this.issues.length;
  }

  /** The groups' labels: those made as the batches arrived when they were labelled the same way, else made now. */
  private labelsFor(fromColumn: boolean): string[] {
    const l = this.labeler;
    return l && l.fromColumn === fromColumn && l.labels.length === this.groupKeys.length ? l.labels.slice() : groupLabels(this.groupKeys, fromColumn);
  }

  finish(init: {
    id: string;
    key: number;
    name: string;
    blob: Blob;
    detection: Detection;
    mapping?: ColumnMapping;
    spans?: Float64Array;
    decompressed?: Blob;
    parts?: DatasetPartInfo[];
  }): Dataset {
    const groupOf = this.groupOf.done();
    const steps = this.steps.done();
    const groupSizes = new Int32Array(this.groupKeys.length);
    for (let i = 0; i < groupOf.length; i++) groupSizes[groupOf[i]]++;
    const { spans, parts, ...rest } = init;
    return {
      ...rest,
      // Each file's spans must fit its rows, or workers would read the wrong lines: that file is then read whole.
      ...(parts ? { parts: parts.map(({ spans: s, ...p }) => (s && s.length === 2 * p.rows ? { ...p, spans: s } : p)) } : {}),
      // Spans for another number of rows would read the wrong lines: none then (workers read the whole file).
      ...(spans && spans.length === 2 * this.size ? { spans } : {}),
      size: this.size,
      lines: this.lines.done(),
      // Copies: a dataset of several files is finished once after its first file, and the builder goes on.
      groupKeys: this.groupKeys.slice(),
      groupLabels: this.labelsFor(groupsFromColumn(init.detection, init.mapping)),
      groupOf,
      groupSizes,
      charLengths: this.charLengths.done(),
      steps,
      hasSteps: steps.some((x) => !Number.isNaN(x)),
      truncatedFields: this.truncated.done(),
      pairOf: this.pairOf.done(),
      pairSide: this.pairSide.done(),
      pairSubsets: this.pairSubsets.slice(),
      hasPairs: this.pairSubsets.length > 0,
      previews: { firstRow: this.previews.firstRow.slice(), units: this.previews.units.slice(), ends: this.previews.ends.slice() },
      issues: this.issues.slice(),
    };
  }
}

/** The first characters of trajectory i's completion. */
export function previewOf(ds: Pick<Dataset, 'previews'>, i: number): string {
  const { firstRow, units, ends } = ds.previews;
  let lo = 0;
  let hi = firstRow.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (firstRow[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return previewAt(units[lo], ends[lo], i - firstRow[lo]);
}

/** The subset name given to pairs without one when other pairs of the data have a subset. */
export const NO_SUBSET = '(no subset)';

/**
 * A dataset's pairs in the shape stats/preference `preferenceAccuracy` takes. `subsetOf` is there only when some
 * pair has a subset; pairs without one are then grouped under NO_SUBSET, so that every pair is in the breakdown.
 */
export function datasetPairs(ds: Pick<Dataset, 'pairOf' | 'pairSide' | 'pairSubsets'>): PreferencePairs {
  const named = ds.pairSubsets.some((s) => s !== null);
  return {
    pairOf: ds.pairOf,
    side: ds.pairSide,
    pairCount: ds.pairSubsets.length,
    subsetOf: named ? ds.pairSubsets.map((s) => s ?? NO_SUBSET) : undefined,
  };
}
