/** Comparing two reward runs over the same rows (e.g. before and after an edit to the reward). */
import { kendallFinite, pearsonFinite, spearmanFinite } from './correlation';
import { argsort, finitePairs, rank } from './ranks';

export interface RunComparison {
  /** Rows where both a and b are finite. */
  n: number;
  spearman: number;
  kendall: number;
  pearson: number;
  /** n > 0 and every finite value of a and of b is 0 or 1. */
  binary: boolean;
  /** Binary only: rows that went 0 → 1 (up) and 1 → 0 (down). */
  flips: { up: number; down: number } | null;
  /** Rows with both finite and a !== b, ordered by |b − a| descending, ties by row index ascending. */
  changed: Int32Array;
}

/**
 * Agreement between two runs: Spearman ρ, Kendall τ-b and Pearson r over the rows where both are finite (as in
 * correlation.ts), 0→1 / 1→0 flips for binary rewards, and the rows that changed, largest change first. O(n log n).
 */
export function compareRuns(a: ArrayLike<number>, b: ArrayLike<number>): RunComparison {
  const p = finitePairs(a, b, 'compareRuns');
  const n = p.rows.length;
  let binary = n > 0;
  for (let i = 0; i < a.length && binary; i++) if (Number.isFinite(a[i]) && a[i] !== 0 && a[i] !== 1) binary = false;
  for (let i = 0; i < b.length && binary; i++) if (Number.isFinite(b[i]) && b[i] !== 0 && b[i] !== 1) binary = false;
  let flips: { up: number; down: number } | null = null;
  if (binary) {
    let up = 0;
    let down = 0;
    for (let i = 0; i < n; i++) {
      if (p.x[i] === 0 && p.y[i] === 1) up++;
      else if (p.x[i] === 1 && p.y[i] === 0) down++;
    }
    flips = { up, down };
  }
  // Changed rows in row order with key −|b − a|; a stable ascending sort gives largest change first, ties by row.
  const rows = new Int32Array(n);
  const key = new Float64Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    if (p.x[i] !== p.y[i]) {
      rows[m] = p.rows[i];
      key[m++] = -Math.abs(p.y[i] - p.x[i]);
    }
  }
  const order = argsort(key.subarray(0, m));
  const rx = rank(p.x);
  const ry = rank(p.y);
  return {
    n,
    spearman: spearmanFinite(p.x, p.y, rx, ry),
    kendall: n < 2 ? NaN : kendallFinite(p.x, p.y, rx, ry),
    pearson: pearsonFinite(p.x, p.y),
    binary,
    flips,
    changed: Int32Array.from(order, (k) => rows[k]),
  };
}
