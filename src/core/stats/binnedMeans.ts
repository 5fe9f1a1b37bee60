import { binOf, histogram, type Histogram } from './histogram';

export interface MeanBin {
  /** Bin centre, and its edges [x0, x1). */
  x: number;
  x0: number;
  x1: number;
  /** Mean of y over the bin's rows, and how many there are. */
  y: number;
  n: number;
  /** Index of the bin in `histogram.bins`. */
  bin: number;
}

/**
 * Mean of y per bin of x over the rows where y is a number (reward per length bin): the x bins are the histogram's
 * (continuous, at most `maxBins`) over those rows; empty bins are left out. `xs` is x with NaN where y is NaN.
 */
export function binnedMeans(x: ArrayLike<number>, y: ArrayLike<number>, maxBins = 30): { bins: MeanBin[]; histogram: Histogram; xs: Float64Array } {
  const n = y.length;
  const xs = new Float64Array(n);
  for (let i = 0; i < n; i++) xs[i] = Number.isNaN(y[i]) ? Number.NaN : x[i];
  const h = histogram(xs, { maxDiscrete: 0, maxBins });
  const sums = new Float64Array(h.bins.length);
  const counts = new Int32Array(h.bins.length);
  for (let i = 0; i < n; i++) {
    const k = binOf(h, xs[i]);
    if (k < 0) continue;
    sums[k] += y[i];
    counts[k]++;
  }
  const bins: MeanBin[] = [];
  h.bins.forEach((b, k) => {
    if (counts[k] > 0) bins.push({ x: (b.x0 + b.x1) / 2, x0: b.x0, x1: b.x1, y: sums[k] / counts[k], n: counts[k], bin: k });
  });
  return { bins, histogram: h, xs };
}
