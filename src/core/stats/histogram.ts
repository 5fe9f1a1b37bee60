/**
 * Histogram of finite values with bins chosen for the data:
 * - few distinct values (≤ maxDiscrete, e.g. 0/1 rewards): one bar per value, centred on it;
 * - otherwise equal-width bins, count from the Freedman–Diaconis rule (bin width 2·IQR·n^(−1/3)), clamped to
 *   [minBins, maxBins]; Sturges (⌈log2 n⌉ + 1) when the IQR is 0.
 * NaN entries (null / error / not run) are skipped.
 */
import { sortFloat64 } from './ranks';

export interface HistogramBin {
  /** Inclusive lower edge. */
  x0: number;
  /** Exclusive upper edge (inclusive for the last bin). */
  x1: number;
  count: number;
  /** For discrete histograms: the value this bar stands for. */
  value?: number;
}

export interface Histogram {
  kind: 'discrete' | 'continuous';
  bins: HistogramBin[];
  /** Number of finite values counted. */
  n: number;
}

export interface HistogramOptions {
  maxDiscrete?: number;
  minBins?: number;
  maxBins?: number;
  /** Only these indices of `values` (default: all). */
  indices?: ArrayLike<number>;
}

function finiteSorted(values: ArrayLike<number>, indices?: ArrayLike<number>): Float64Array {
  const n = indices ? indices.length : values.length;
  const out = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const v = values[indices ? indices[i] : i];
    if (Number.isFinite(v)) out[k++] = v;
  }
  return sortFloat64(out.subarray(0, k));
}

/** Linear-interpolated quantile of sorted data (numpy's default "linear" method). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

export function histogram(values: ArrayLike<number>, opts: HistogramOptions = {}): Histogram {
  const { maxDiscrete = 20, minBins = 5, maxBins = 60 } = opts;
  const sorted = finiteSorted(values, opts.indices);
  const n = sorted.length;
  if (n === 0) return { kind: 'continuous', bins: [], n: 0 };
  const distinct: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < n && distinct.length <= maxDiscrete; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) {
      distinct.push(sorted[i]);
      counts.push(1);
    } else counts[counts.length - 1]++;
  }
  if (distinct.length <= maxDiscrete) {
    let gap = Number.POSITIVE_INFINITY;
    for (let i = 1; i < distinct.length; i++) gap = Math.min(gap, distinct[i] - distinct[i - 1]);
    const half = Number.isFinite(gap) ? gap / 2 : 0.5;
    return { kind: 'discrete', n, bins: distinct.map((v, i) => ({ x0: v - half, x1: v + half, count: counts[i], value: v })) };
  }
  const min = sorted[0];
  const max = sorted[n - 1];
  const iqr = quantileSorted(sorted, 0.75) - quantileSorted(sorted, 0.25);
  let k = iqr > 0 ? Math.ceil((max - min) / (2 * iqr * Math.cbrt(1 / n))) : Math.ceil(Math.log2(n)) + 1;
  k = Math.max(minBins, Math.min(maxBins, k));
  const width = (max - min) / k;
  const bins: HistogramBin[] = [];
  for (let b = 0; b < k; b++) bins.push({ x0: min + b * width, x1: b === k - 1 ? max : min + (b + 1) * width, count: 0 });
  const h: Histogram = { kind: 'continuous', n, bins };
  for (let i = 0; i < n; i++) bins[continuousBin(h, sorted[i])].count++;
  return h;
}

/** Bin of v in a continuous histogram: equal widths from the first edge; the last bin includes its upper edge. */
function continuousBin(h: Histogram, v: number): number {
  const k = h.bins.length;
  const min = h.bins[0].x0;
  const max = h.bins[k - 1].x1;
  if (v < min || v > max) return -1;
  // All values equal (maxDiscrete 0): one point-wide range, every value in the first bin rather than bin NaN.
  if (max === min) return 0;
  return Math.min(k - 1, Math.floor(((v - min) / (max - min)) * k));
}

/** Which bin a value falls in (for "open the rollouts behind this bar"); -1 when none. */
export function binOf(h: Histogram, v: number): number {
  if (!Number.isFinite(v)) return -1;
  if (h.kind === 'discrete') return h.bins.findIndex((b) => b.value === v);
  return h.bins.length ? continuousBin(h, v) : -1;
}

/**
 * Bins chosen over several runs' values together, so runs overlaid on one chart share their bars (a value only one
 * run has still gets its bar); the counts of each run per bin, in the order given. NaN entries are skipped.
 */
export function overlayHistogram(
  series: readonly ArrayLike<number>[],
  opts: Omit<HistogramOptions, 'indices'> = {},
): { histogram: Histogram; counts: number[][] } {
  const all = new Float64Array(series.reduce((n, s) => n + s.length, 0));
  let at = 0;
  for (const s of series) {
    all.set(s, at);
    at += s.length;
  }
  const h = histogram(all, opts);
  const counts = series.map((vals) => {
    const c = new Array<number>(h.bins.length).fill(0);
    for (let i = 0; i < vals.length; i++) {
      const b = binOf(h, vals[i]);
      if (b >= 0) c[b]++;
    }
    return c;
  });
  return { histogram: h, counts };
}
