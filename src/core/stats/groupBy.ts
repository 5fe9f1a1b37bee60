import { RowStatus } from '../reward/contract';

/** The reward over the rows that share one value of a column. */
export interface GroupByValue {
  value: string;
  /** Rows with this value, scored or not. */
  rows: number;
  /** Mean of the scored rows' rewards; NaN when none was scored. */
  mean: number;
  /** Population std (ddof 0, as `numpy.std` and the rest of the studio) of the scored rows' rewards; NaN when none. */
  std: number;
}

/**
 * Rows, mean and std of the reward per value of a column (`codes[i]` indexes `values`, −1: the row has no value and
 * is left out), in the order of `values`. Rows that were not scored (null, error, timed out) count in `rows` only.
 * Two passes per value (mean, then squared deviations) keep the std exact for rewards with a large offset.
 */
export function groupByStats(scores: ArrayLike<number>, status: ArrayLike<number>, codes: Int32Array, values: readonly string[]): GroupByValue[] {
  const k = values.length;
  const rows = new Float64Array(k);
  const n = new Float64Array(k);
  const sum = new Float64Array(k);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < 0 || c >= k) continue;
    rows[c]++;
    // A row counts when it scored and its value is a number (a shaping transform can leave an ok row without one).
    if (status[i] !== RowStatus.Ok || !Number.isFinite(scores[i])) continue;
    n[c]++;
    sum[c] += scores[i];
  }
  const mean = new Float64Array(k);
  for (let c = 0; c < k; c++) mean[c] = n[c] > 0 ? sum[c] / n[c] : Number.NaN;
  const sq = new Float64Array(k);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    if (c < 0 || c >= k || status[i] !== RowStatus.Ok || !Number.isFinite(scores[i])) continue;
    const d = scores[i] - mean[c];
    sq[c] += d * d;
  }
  return values.map((value, c) => ({ value, rows: rows[c], mean: mean[c], std: n[c] > 0 ? Math.sqrt(sq[c] / n[c]) : Number.NaN }));
}
