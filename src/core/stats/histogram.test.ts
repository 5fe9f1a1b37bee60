import { describe, expect, it } from 'vitest';
import { binOf, histogram, overlayHistogram, quantileSorted } from './histogram';
import { rowsInBin } from './rowsInBin';

describe('histogram', () => {
  it('gives one bar per value for a 0/1 reward, skipping NaN', () => {
    const h = histogram([0, 1, 1, Number.NaN, 0, 1]);
    expect(h.kind).toBe('discrete');
    expect(h.n).toBe(5);
    expect(h.bins).toEqual([
      { x0: -0.5, x1: 0.5, count: 2, value: 0 },
      { x0: 0.5, x1: 1.5, count: 3, value: 1 },
    ]);
  });

  it('centres discrete bars on values using half the smallest gap', () => {
    const h = histogram([0, 0.25, 1]);
    expect(h.bins.map((b) => [b.x0, b.x1, b.value])).toEqual([
      [-0.125, 0.125, 0],
      [0.125, 0.375, 0.25],
      [0.875, 1.125, 1],
    ]);
  });

  it('a single distinct value gets a bar of width 1', () => {
    expect(histogram([3, 3, 3]).bins).toEqual([{ x0: 2.5, x1: 3.5, count: 3, value: 3 }]);
  });

  it('uses Freedman–Diaconis for continuous data (0..99: IQR 49.5 → 4.64 → 5 bins of 20)', () => {
    const values = Array.from({ length: 100 }, (_, i) => 99 - i);
    const h = histogram(values);
    expect(h.kind).toBe('continuous');
    expect(h.bins.length).toBe(5);
    expect(h.bins.map((b) => b.count)).toEqual([20, 20, 20, 20, 20]);
    expect(h.bins[0].x0).toBe(0);
    expect(h.bins[1].x0).toBeCloseTo(19.8, 12);
    expect(h.bins[4].x1).toBe(99);
  });

  it('clamps to maxBins', () => {
    // 1000 uniform values, FD gives 2·IQR·n^(-1/3) = 2·499.5·0.1 = 99.9 → ceil(999/99.9) = 10 bins; maxBins 6 caps it.
    const values = Array.from({ length: 1000 }, (_, i) => i);
    expect(histogram(values).bins.length).toBe(10);
    expect(histogram(values, { maxBins: 6 }).bins.length).toBe(6);
  });

  it('returns no bins when nothing is finite', () => {
    expect(histogram([Number.NaN, Number.POSITIVE_INFINITY])).toEqual({ kind: 'continuous', bins: [], n: 0 });
  });

  it('can count only some rows', () => {
    const h = histogram([5, 1, 1, 7], { indices: [1, 2] });
    expect(h.bins).toEqual([{ x0: 0.5, x1: 1.5, count: 2, value: 1 }]);
  });
});

describe('quantileSorted (numpy linear)', () => {
  it('interpolates', () => {
    const s = [1, 2, 3, 4];
    expect(quantileSorted(s, 0)).toBe(1);
    expect(quantileSorted(s, 1)).toBe(4);
    expect(quantileSorted(s, 0.5)).toBe(2.5);
    expect(quantileSorted(s, 0.25)).toBe(1.75);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });
});

describe('binOf / rowsInBin', () => {
  it('finds the rows behind a bar', () => {
    const scores = [1, 0, Number.NaN, 1, 0.5];
    const h = histogram(scores);
    expect(h.bins.map((b) => b.value)).toEqual([0, 0.5, 1]);
    expect(Array.from(rowsInBin(scores, h, 2))).toEqual([0, 3]);
    expect(binOf(h, Number.NaN)).toBe(-1);
    expect(binOf(h, 0.7)).toBe(-1);
  });

  it('puts the maximum in the last continuous bin', () => {
    const values = Array.from({ length: 100 }, (_, i) => i);
    const h = histogram(values);
    expect(binOf(h, 99)).toBe(4);
    expect(binOf(h, 0)).toBe(0);
    expect(binOf(h, 19.79)).toBe(0);
    expect(binOf(h, 19.8)).toBe(1);
    expect(binOf(h, 100)).toBe(-1);
  });
});

describe('overlayHistogram (runs drawn on shared bins)', () => {
  it('bins discrete runs together and counts each; a value only one run has gets its bar', () => {
    // Distinct values over the three runs: −1, 0, 0.5, 1; smallest gap 0.5 → bars ±0.25 around each value.
    // Run A: 0, 1, 1 (NaN skipped) → [0, 1, 0, 2]; run B: 0.5, 1 → [0, 0, 1, 1]; run C: −1 → [1, 0, 0, 0].
    const o = overlayHistogram([[0, 1, Number.NaN, 1], [0.5, 1], [-1]]);
    expect(o.histogram.kind).toBe('discrete');
    expect(o.histogram.bins.map((b) => [b.value, b.x0, b.x1])).toEqual([
      [-1, -1.25, -0.75],
      [0, -0.25, 0.25],
      [0.5, 0.25, 0.75],
      [1, 0.75, 1.25],
    ]);
    expect(o.counts).toEqual([
      [0, 1, 0, 2],
      [0, 0, 1, 1],
      [1, 0, 0, 0],
    ]);
  });

  it('bins continuous runs over their joint range (hand-worked Freedman–Diaconis)', () => {
    // Run A = 0…29, run B = 30…59: together 0…59, n = 60. Quantiles (numpy linear): q25 = 14.75, q75 = 44.25, IQR 29.5.
    // FD width 2·29.5·60^(−1/3) = 15.07 → ⌈59 / 15.07⌉ = 4 bins, raised to minBins 5: width 59/5 = 11.8,
    // edges 0, 11.8, 23.6, 35.4, 47.2, 59. A: 0–11 | 12–23 | 24–29 → 12, 12, 6; B: 30–35 | 36–47 | 48–59 → 6, 12, 12.
    const a = Array.from({ length: 30 }, (_, i) => i);
    const b = Array.from({ length: 30 }, (_, i) => 30 + i);
    const o = overlayHistogram([a, b]);
    expect(o.histogram.kind).toBe('continuous');
    expect(o.histogram.bins.map((x) => x.x0)).toEqual([0, 11.8, 23.6, 35.4, 47.2].map((e, i) => (i === 0 ? 0 : expect.closeTo(e, 12))));
    expect(o.histogram.bins[4].x1).toBe(59);
    expect(o.counts).toEqual([
      [12, 12, 6, 0, 0],
      [0, 0, 6, 12, 12],
    ]);
    // The rows behind the shared middle bar, for each run: A's rows 24…29, B's rows 0…5 (values 30…35).
    expect(Array.from(rowsInBin(a, o.histogram, 2))).toEqual([24, 25, 26, 27, 28, 29]);
    expect(Array.from(rowsInBin(b, o.histogram, 2))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("with one run gives that run's own histogram", () => {
    const values = [3, 1, 2, 2];
    expect(overlayHistogram([values]).histogram).toEqual(histogram(values));
    expect(overlayHistogram([]).counts).toEqual([]);
  });
});

describe('continuous histogram of equal values', () => {
  it('puts every value in the first bin (binnedMeans over rollouts of one length)', () => {
    const h = histogram([10, 10, 10, NaN], { maxDiscrete: 0, maxBins: 30 });
    expect(h.n).toBe(3);
    expect(h.bins[0].count).toBe(3);
    expect(h.bins.slice(1).every((b) => b.count === 0)).toBe(true);
    expect(binOf(h, 10)).toBe(0);
  });
});
