import { describe, expect, it } from 'vitest';
import { kendallTauB, pearson, spearman, withinGroupPearson } from './correlation';
import { diff, f64, i32, type Num } from './fixtures/check';
import fixture from './fixtures/correlation.json';

describe('correlations, hand-worked', () => {
  it('pearson of a line is 1, of a reversed line −1', () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBe(1);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBe(-1);
  });

  it('kendall: x = [1,2,3], y = [1,3,2] → C 2, D 1 → 1/3', () => {
    expect(kendallTauB([1, 2, 3], [1, 3, 2])).toBeCloseTo(1 / 3, 15);
  });

  it('kendall tau-b with ties: x = [1,1,2], y = [1,2,2] → (C − D)/√((3 − 1)(3 − 1)) = 1/2', () => {
    // pairs: (0,1) tied in x, (0,2) concordant, (1,2) tied in y → C = 1, D = 0, P = 3, Tx = Ty = 1.
    expect(kendallTauB([1, 1, 2], [1, 2, 2])).toBeCloseTo(0.5, 15);
  });

  it('spearman uses average ranks: x = [1,2,2,3] → ranks [1,2.5,2.5,4]', () => {
    // y ranks [1,2,3,4]; pearson([1,2.5,2.5,4],[1,2,3,4]) = 4.5 / √(4.5·5)
    expect(spearman([1, 2, 2, 3], [10, 20, 30, 40])).toBeCloseTo(4.5 / Math.sqrt(4.5 * 5), 15);
  });

  it('NaN when fewer than 2 pairs or a constant side; non-finite pairs dropped', () => {
    for (const f of [pearson, spearman, kendallTauB]) {
      expect(f([1], [1])).toBeNaN();
      expect(f([1, NaN, 3], [2, 5, NaN])).toBeNaN();
      expect(f([2, 2, 2], [1, 2, 3])).toBeNaN();
      expect(f([1, 2, Infinity, 3], [1, 2, 0, 3])).toBeCloseTo(1, 15);
    }
  });

  it('throws on columns of different lengths', () => {
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
  });

  it('withinGroupPearson averages the defined groups only', () => {
    // group 0: perfect +1; group 1: perfect −1; group 2: one row (undefined); group 3: constant x (undefined)
    const r = withinGroupPearson([1, 2, 3, 1, 2, 5, 4, 4], [1, 2, 3, 9, 8, 0, 1, 2], i32([0, 0, 0, 1, 1, 2, 3, 3]), 4);
    expect(r).toEqual({ mean: 0, groups: 2 });
    expect(withinGroupPearson([1], [1], i32([0]), 1)).toEqual({ mean: NaN, groups: 0 });
  });
});

/** Tau-b by the definition, O(n²). */
function bruteTauB(x: number[], y: number[]): number {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const s = Math.sign(x[i] - x[j]) * Math.sign(y[i] - y[j]);
      if (s > 0) c++;
      else if (s < 0) d++;
      else {
        if (x[i] === x[j]) tx++;
        if (y[i] === y[j]) ty++;
      }
    }
  }
  const p = (x.length * (x.length - 1)) / 2;
  // tx / ty count every pair tied in x / y (joint ties in both), as in the tau-b denominator.
  return (c - d) / Math.sqrt((p - tx) * (p - ty));
}

describe('kendallTauB agrees with the O(n²) definition', () => {
  it('on 300 random small samples with heavy ties', () => {
    let s = 12345;
    const rnd = (k: number) => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % k;
    for (let t = 0; t < 300; t++) {
      const n = 2 + rnd(40);
      const x = Array.from({ length: n }, () => rnd(1 + (t % 7)));
      const y = Array.from({ length: n }, () => rnd(1 + (t % 5)) - 1);
      const want = bruteTauB(x, y);
      const got = kendallTauB(x, y);
      if (Number.isNaN(want)) expect(got).toBeNaN();
      else expect(Math.abs(got - want)).toBeLessThan(1e-12);
    }
  });
});

describe('correlations match scipy ' + fixture.scipy, () => {
  for (const c of fixture.pairs) {
    it(c.name, () => {
      const x = f64(c.x as Num[]);
      const y = f64(c.y as Num[]);
      const got = { pearson: pearson(x, y), spearman: spearman(x, y), kendall: kendallTauB(x, y) };
      expect(diff(got, { pearson: c.pearson, spearman: c.spearman, kendall: c.kendall })).toEqual([]);
    });
  }
  for (const c of fixture.within) {
    it(`withinGroupPearson: ${c.name}`, () => {
      const got = withinGroupPearson(f64(c.x as Num[]), f64(c.y as Num[]), i32(c.groupOf), c.groupCount);
      expect(diff(got, c.expected)).toEqual([]);
    });
  }
});
