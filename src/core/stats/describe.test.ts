import { describe as suite, expect, it } from 'vitest';
import { describe, moments } from './describe';
import { diff, f64, type Num } from './fixtures/check';
import cases from './fixtures/describe.json';

suite('describe', () => {
  it('hand-worked: [3, 1, 2, 4]', () => {
    const d = describe([3, 1, 2, 4]);
    expect(d).toEqual({
      n: 4,
      mean: 2.5,
      std: Math.sqrt(1.25), // population: (2.25 + 0.25 + 0.25 + 2.25) / 4
      min: 1,
      max: 4,
      distinct: 4,
      // numpy linear: position (n − 1)·q = 3q; 3·0.95 rounds to 2.8499999999999996, so numpy too gives 3.8499999999999996
      quantiles: { q05: 1.15, q25: 1.75, q50: 2.5, q75: 3.25, q95: 3.8499999999999996 },
    });
  });

  it('empty → n 0, distinct 0, the rest NaN', () => {
    const d = describe([NaN, Infinity]);
    expect(d.n).toBe(0);
    expect(d.distinct).toBe(0);
    for (const v of [d.mean, d.std, d.min, d.max, ...Object.values(d.quantiles)]) expect(v).toBeNaN();
  });

  it('constant values: std exactly 0, mean exactly the value', () => {
    const d = describe([0.1, 0.1, 0.1]);
    expect(d.std).toBe(0);
    expect(d.mean).toBe(0.1);
    expect(d.distinct).toBe(1);
  });

  for (const c of cases) {
    it(`matches numpy: ${c.name}`, () => {
      expect(diff(describe(f64(c.values as Num[])), c.expected)).toEqual([]);
    });
  }
});

suite('moments', () => {
  it('mean and population std of the finite values (hand-worked: 2 4 4 4 5 5 7 9 → 5, 2)', () => {
    expect(moments([2, 4, NaN, 4, 4, 5, Infinity, 5, 7, 9, -Infinity])).toEqual({ n: 8, mean: 5, std: 2 });
  });

  it('equal values give that value and std 0 exactly; none give NaN', () => {
    // 0.1 × 3 / 3 is 0.10000000000000002 in floating point: the value itself is returned.
    expect(moments([0.1, NaN, 0.1, 0.1])).toEqual({ n: 3, mean: 0.1, std: 0 });
    expect(moments([NaN, Infinity])).toEqual({ n: 0, mean: NaN, std: NaN });
  });

  it('does not depend on the order: 67 ones among 100,000 zeros, spread or sorted, give the exact std', () => {
    // √(p(1 − p)) with p = 67/100000, by Python's fractions and decimal: 0.025875685498166034094… → this double.
    // Summed plainly in row order the std was 0.025875685498196823 (the CLI's bench file).
    const spread = new Float64Array(100_000);
    for (let k = 0; k < 67; k++) spread[(k * 1493 + 7) % 100_000] = 1;
    const sorted = spread.slice().sort();
    for (const v of [spread, sorted]) expect(moments(v)).toEqual({ n: 100_000, mean: 0.00067, std: 0.025875685498166035 });
    expect(describe(spread).std).toBe(0.025875685498166035);
  });

  it('agrees with describe()', () => {
    const v = [0.25, -3, 1e-9, 7.5, 7.5, NaN, 2];
    const d = describe(v);
    expect(moments(v)).toEqual({ n: d.n, mean: d.mean, std: d.std });
  });
});
