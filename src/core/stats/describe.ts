import { quantileSorted } from './histogram';
import { sortFloat64 } from './ranks';

export interface Quantiles {
  q05: number;
  q25: number;
  q50: number;
  q75: number;
  q95: number;
}

export interface Description {
  /** Number of finite values. */
  n: number;
  mean: number;
  /** Population standard deviation (ddof 0, as `numpy.std`). */
  std: number;
  min: number;
  max: number;
  /** Number of distinct finite values (0 and −0 are one value). */
  distinct: number;
  quantiles: Quantiles;
}

/**
 * Summary of the finite values (NaN / ±Infinity are left out).
 * mean = Σx / n; std = √(Σ(x − mean)² / n) (population, two-pass); quantiles by linear interpolation between order
 * statistics at position (n − 1)·q, which is `numpy.quantile`'s default method.
 * Empty input → n 0, distinct 0, every other field NaN. O(n log n) (one sort).
 */
export function describe(values: ArrayLike<number>): Description {
  const buf = new Float64Array(values.length);
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) {
      buf[n++] = v;
      sum += v;
    }
  }
  if (n === 0) {
    const q = { q05: NaN, q25: NaN, q50: NaN, q75: NaN, q95: NaN };
    return { n: 0, mean: NaN, std: NaN, min: NaN, max: NaN, distinct: 0, quantiles: q };
  }
  const sorted = sortFloat64(buf.subarray(0, n));
  const mean = sum / n;
  let ss = 0;
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const d = sorted[i] - mean;
    ss += d * d;
    if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  }
  const constant = sorted[0] === sorted[n - 1];
  return {
    n,
    mean: constant ? sorted[0] : mean,
    std: constant ? 0 : Math.sqrt(ss / n),
    min: sorted[0],
    max: sorted[n - 1],
    distinct,
    quantiles: {
      q05: quantileSorted(sorted, 0.05),
      q25: quantileSorted(sorted, 0.25),
      q50: quantileSorted(sorted, 0.5),
      q75: quantileSorted(sorted, 0.75),
      q95: quantileSorted(sorted, 0.95),
    },
  };
}
