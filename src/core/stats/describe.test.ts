import { describe as suite, expect, it } from 'vitest';
import { describe } from './describe';
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
