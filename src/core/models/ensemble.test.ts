import { describe, expect, it } from 'vitest';
import { conservativeReward, ensembleColumns, ensembleOfRow, ensembleSummary } from './ensemble';
import { diff, f64, i32, type Num } from '../stats/fixtures/check';
import fixture from './fixtures/ensemble.json';

// Worked by hand: a = [1, 2, NaN, 4], b = [3, 2, 5, 0].
// Row 0: mean 2, min 1, std √((1+1)/2) = 1. Row 1: 2, 2, 0. Row 2: a not scored → NaN. Row 3: mean 2, min 0, std 2.
const a = Float64Array.of(1, 2, NaN, 4);
const b = Float64Array.of(3, 2, 5, 0);

describe('ensembleOfRow', () => {
  it('mean, min and population std across models', () => {
    expect(ensembleOfRow([1, 3])).toEqual({ mean: 2, min: 1, std: 1 });
    // [1, 2, 6]: mean 3, deviations −2, −1, 3 → std √(14/3).
    const e = ensembleOfRow([1, 2, 6]);
    expect(e.mean).toBe(3);
    expect(e.min).toBe(1);
    expect(e.std).toBeCloseTo(Math.sqrt(14 / 3), 14);
  });
  it('is NaN when a model did not score the row, or with fewer than 2 models', () => {
    expect(ensembleOfRow([1, NaN]).mean).toBeNaN();
    expect(ensembleOfRow([1, Infinity]).std).toBeNaN();
    expect(ensembleOfRow([1]).min).toBeNaN();
  });
  it('std is exactly 0 for equal scores', () => {
    expect(ensembleOfRow([0.1, 0.1, 0.1]).std).toBe(0);
  });
});

describe('ensembleColumns and conservative rewards (Coste et al. 2023)', () => {
  it('hand-worked columns', () => {
    const e = ensembleColumns([a, b]);
    expect(Array.from(e.mean)).toEqual([2, 2, NaN, 2]);
    expect(Array.from(e.min)).toEqual([1, 2, NaN, 0]);
    expect(Array.from(e.std)).toEqual([1, 0, NaN, 2]);
    expect(e.scored).toBe(3);
    expect(Array.from(conservativeReward(e, 'mean'))).toEqual([2, 2, NaN, 2]);
    expect(Array.from(conservativeReward(e, 'worst'))).toEqual([1, 2, NaN, 0]);
    // mean − 0.5·std
    expect(Array.from(conservativeReward(e, 'uwo', 0.5))).toEqual([1.5, 2, NaN, 1]);
  });
  it('refuses bad input', () => {
    expect(() => ensembleColumns([a])).toThrow(/invalid ensemble columns/);
    expect(() => ensembleColumns([a, Float64Array.of(1)])).toThrow(/invalid ensemble column 1: length 1, expected 4/);
    expect(() => ensembleColumns([a, [1, 2, 3, 4] as unknown as Float64Array])).toThrow(/not a Float64Array/);
    const e = ensembleColumns([a, b]);
    expect(() => conservativeReward(e, 'uwo', -1)).toThrow('invalid lambda: -1');
    expect(() => conservativeReward(e, 'uwo', NaN)).toThrow('invalid lambda: NaN');
    expect(() => conservativeReward(e, 'best' as 'mean')).toThrow('invalid conservative kind: best');
  });
});

describe('ensembleSummary', () => {
  it('hand-worked summary', () => {
    const s = ensembleSummary(['a', 'b'], [a, b], { groupOf: Int32Array.of(0, 0, 1, 1), groupCount: 2, lengths: [10, 20, 30, 40], maxBins: 3 });
    expect(s.scored).toBe(3);
    expect(s.meanStd).toBe(1); // (1 + 0 + 2) / 3
    // sorted std [0, 1, 2]: q90 at position 1.8 → 1.8; q99 at 1.98 → 1.98
    expect(s.stdQuantiles.q50).toBe(1);
    expect(s.stdQuantiles.q90).toBeCloseTo(1.8, 14);
    expect(s.stdQuantiles.q99).toBeCloseTo(1.98, 14);
    expect(s.stdQuantiles.max).toBe(2);
    expect(s.top.map((r) => r.index)).toEqual([3, 0, 1]);
    expect(s.top[0]).toEqual({ index: 3, std: 2, mean: 2, min: 0 });
    // rows 0, 1, 3: a = [1, 2, 4], b = [3, 2, 0]; b − 5/3 = −(a − 7/3) → r = ρ = −1
    expect(s.pairs).toEqual([{ a: 'a', b: 'b', pearson: -1, spearman: -1 }]);
    // group 0: rows 0, 1 → (1 + 0)/2; group 1: row 3 only (row 2 unscored)
    expect(s.byGroup).toEqual([
      { group: 1, meanStd: 2, n: 1 },
      { group: 0, meanStd: 0.5, n: 2 },
    ]);
    // three bins over [10, 40], one scored row each (row 2 at length 30 is unscored): std 1, 0, 2
    expect(s.byLength.map((x) => [x.n, x.y])).toEqual([
      [1, 1],
      [1, 0],
      [1, 2],
    ]);
  });
  it('matches numpy/scipy (scripts/ensemble-fixtures.py)', () => {
    const cols = fixture.columns.map((c) => f64(c as Num[]));
    const e = ensembleColumns(cols);
    expect(diff(e.mean, fixture.mean)).toEqual([]);
    expect(diff(e.min, fixture.min)).toEqual([]);
    expect(diff(e.std, fixture.std)).toEqual([]);
    expect(e.scored).toBe(fixture.scored);
    expect(diff(conservativeReward(e, 'uwo', fixture.lambda), fixture.uwo)).toEqual([]);
    const s = ensembleSummary(fixture.names, cols, { groupOf: i32(fixture.groupOf), groupCount: fixture.groupCount, topN: 7 });
    expect(diff(s.meanStd, fixture.meanStd)).toEqual([]);
    expect(diff(s.stdQuantiles, fixture.stdQuantiles)).toEqual([]);
    expect(diff(s.top, fixture.top)).toEqual([]);
    expect(diff(s.pairs, fixture.pairs)).toEqual([]);
    expect(diff(s.byGroup, fixture.byGroup)).toEqual([]);
  });
  it('disagreement by length: bins cover every scored row and average to the mean std', () => {
    const cols = fixture.columns.map((c) => f64(c as Num[]));
    const lengths = Array.from({ length: cols[0].length }, (_, i) => 10 + ((i * 37) % 400));
    const s = ensembleSummary(fixture.names, cols, { lengths, maxBins: 8 });
    expect(s.byLength.length).toBeLessThanOrEqual(8);
    expect(s.byLength.reduce((t, x) => t + x.n, 0)).toBe(fixture.scored);
    expect(s.byLength.reduce((t, x) => t + x.n * x.y, 0) / fixture.scored).toBeCloseTo(fixture.meanStd, 12);
  });
  it('refuses bad options', () => {
    expect(() => ensembleSummary(['a', 'a'], [a, b])).toThrow('invalid ensemble names');
    expect(() => ensembleSummary(['a'], [a, b])).toThrow('invalid ensemble names');
    expect(() => ensembleSummary(['a', 'b'], [a, b], { topN: 0 })).toThrow('invalid topN: 0');
    expect(() => ensembleSummary(['a', 'b'], [a, b], { topN: 1e9 })).toThrow('invalid topN');
    expect(() => ensembleSummary(['a', 'b'], [a, b], { lengths: [1] })).toThrow('invalid lengths');
    expect(() => ensembleSummary(['a', 'b'], [a, b], { groupOf: Int32Array.of(0), groupCount: 1 })).toThrow('invalid groups');
  });
});
