/**
 * Reward vs a trusted label column (e.g. `is_correct_openai`): labels as numbers, booleans as 0/1, NaN where missing.
 */
import { pearsonFinite, spearmanFinite } from './correlation';
import { finitePairs, rank, sortedCopy } from './ranks';

export interface LabelCheck {
  /** Rows with a finite reward and a finite label. */
  n: number;
  /** n > 0 and every such reward and every such label is 0 or 1. */
  binary: boolean;
  /** Binary: share of the n rows where reward === label; otherwise null. */
  agreement: number | null;
  /** Binary only; positive = 1. tp: reward 1 & label 1, fp: reward 1 & label 0, fn: reward 0 & label 1, tn: both 0. */
  confusion: { tp: number; fp: number; fn: number; tn: number } | null;
  pearson: number;
  spearman: number;
  /**
   * Binary: every row index where reward !== label, ascending. Otherwise: the rows whose ranks differ most,
   * |rank(reward) − rank(label)| descending (average ranks among the n rows), ties by row index, rows with a
   * difference of 0 left out, at most MAX_DISAGREEMENTS.
   */
  disagreements: Int32Array;
}

export const MAX_DISAGREEMENTS = 1000;

/** Compare a reward column with a label column over the rows where both are finite. O(n) after two radix sorts. */
export function labelCheck(rewards: ArrayLike<number>, labels: ArrayLike<number>): LabelCheck {
  const p = finitePairs(rewards, labels, 'labelCheck');
  const n = p.rows.length;
  const binary = isBinary(p.x, p.y);
  const rx = rank(p.x);
  const ry = rank(p.y);
  const pearson = pearsonFinite(p.x, p.y);
  const spearman = spearmanFinite(p.x, p.y, rx, ry);
  if (binary) {
    const confusion = confusionOf(p.x, p.y);
    const dis: number[] = [];
    for (let i = 0; i < n; i++) if (p.x[i] !== p.y[i]) dis.push(p.rows[i]);
    return { n, binary, agreement: (confusion.tp + confusion.tn) / n, confusion, pearson, spearman, disagreements: Int32Array.from(dis) };
  }
  return { n, binary, agreement: null, confusion: null, pearson, spearman, disagreements: largestRankGaps(p.rows, rx.average, ry.average, MAX_DISAGREEMENTS) };
}

/** labelCheck(rewards, labels).agreement without the correlations (for summaries). O(n). */
export function labelAgreement(rewards: ArrayLike<number>, labels: ArrayLike<number>): number | null {
  const p = finitePairs(rewards, labels, 'labelAgreement');
  if (!isBinary(p.x, p.y)) return null;
  const c = confusionOf(p.x, p.y);
  return (c.tp + c.tn) / p.rows.length;
}

/** n > 0 and every value on both sides is 0 or 1. */
function isBinary(x: Float64Array, y: Float64Array): boolean {
  if (x.length === 0) return false;
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    if ((a !== 0 && a !== 1) || (b !== 0 && b !== 1)) return false;
  }
  return true;
}

function confusionOf(x: Float64Array, y: Float64Array): { tp: number; fp: number; fn: number; tn: number } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (let i = 0; i < x.length; i++) {
    if (x[i] === 1 && y[i] === 1) tp++;
    else if (x[i] === 1) fp++;
    else if (y[i] === 1) fn++;
    else tn++;
  }
  return { tp, fp, fn, tn };
}

/** Rows with the largest |rx − ry| (> 0), descending, ties by row index; at most `limit`. */
function largestRankGaps(rows: Int32Array, rx: Float64Array, ry: Float64Array, limit: number): Int32Array {
  const n = rows.length;
  if (n === 0) return new Int32Array(0);
  const gap = new Float64Array(n);
  for (let i = 0; i < n; i++) gap[i] = Math.abs(rx[i] - ry[i]);
  // Threshold = the limit-th largest gap (native sort), then sort only the rows at or above it.
  const s = sortedCopy(gap);
  const threshold = Math.max(s[Math.max(0, n - limit)], Number.MIN_VALUE);
  const picked: number[] = [];
  for (let i = 0; i < n; i++) if (gap[i] >= threshold) picked.push(i);
  picked.sort((a, b) => gap[b] - gap[a] || rows[a] - rows[b]);
  return Int32Array.from(picked.slice(0, limit), (i) => rows[i]);
}
