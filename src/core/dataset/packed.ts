import { PairSide } from '../stats/preference';
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
  /** Per trajectory: the first PREVIEW_CHARS characters of the completion. */
  previews: string[];
  /** Group keys first seen in this batch, in group-index order. */
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

  pack(rows: readonly Trajectory[], issues: ParseIssue[], bytesRead: number, totalBytes: number): PackedBatch {
    const n = rows.length;
    const line = new Int32Array(n);
    const groupOf = new Int32Array(n);
    const charLength = new Int32Array(n);
    const step = new Float64Array(n);
    const previews = new Array<string>(n);
    const newGroups: string[] = [];
    const pairOf = new Int32Array(n).fill(-1);
    const pairSide = new Uint8Array(n);
    const newPairs: (string | null)[] = [];
    const newPairKeys: string[] | undefined = this.opts.pairKeys ? [] : undefined;
    for (let i = 0; i < n; i++) {
      const t = rows[i];
      line[i] = t.line;
      let g = this.groups.get(t.group);
      if (g === undefined) {
        g = this.groups.size;
        this.groups.set(t.group, g);
        newGroups.push(t.group);
      }
      groupOf[i] = g;
      charLength[i] = t.completion.length;
      step[i] = t.step ?? Number.NaN;
      previews[i] = t.completion.length > PREVIEW_CHARS ? t.completion.slice(0, PREVIEW_CHARS) : t.completion;
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
          newPairs.push(typeof subset === 'string' ? subset : null);
          newPairKeys?.push(t.pairId);
        }
        pairOf[i] = p;
        pairSide[i] = side;
      }
    }
    const batch: PackedBatch = { line, groupOf, charLength, step, previews, newGroups, pairOf, pairSide, newPairs, issues, bytesRead, totalBytes };
    if (newPairKeys) batch.newPairKeys = newPairKeys;
    return batch;
  }
}

/** A piece's own group and pair numbers → this import's, filled by `Packer.adopt` batch after batch. */
export interface PieceNumbering {
  groups: number[];
  pairs: number[];
}

/** The typed arrays of a batch, for postMessage's transfer list. */
export function batchTransfer(b: PackedBatch): ArrayBuffer[] {
  return [b.line.buffer, b.groupOf.buffer, b.charLength.buffer, b.step.buffer, b.pairOf.buffer, b.pairSide.buffer] as ArrayBuffer[];
}
