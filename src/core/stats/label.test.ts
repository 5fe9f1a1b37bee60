import { describe, expect, it } from 'vitest';
import { diff, f64, type Num } from './fixtures/check';
import cases from './fixtures/label.json';
import { labelCheck } from './label';

describe('labelCheck, hand-worked', () => {
  it('binary reward vs binary label: agreement and confusion (positive = 1)', () => {
    const c = labelCheck([1, 1, 0, 0, 1, NaN], [1, 0, 1, 0, 1, 1]);
    expect(c.n).toBe(5);
    expect(c.binary).toBe(true);
    expect(c.agreement).toBe(3 / 5);
    expect(c.confusion).toEqual({ tp: 2, fp: 1, fn: 1, tn: 1 });
    expect(Array.from(c.disagreements)).toEqual([1, 2]);
  });

  it('continuous: largest rank gaps first, ties by row, equal ranks left out', () => {
    // ranks reward [1,2,3,4], label [4,2,3,1] → gaps [3,0,0,3]
    const c = labelCheck([0.1, 0.2, 0.3, 0.4], [9, 5, 6, 1]);
    expect(c.binary).toBe(false);
    expect(c.agreement).toBeNull();
    expect(c.confusion).toBeNull();
    expect(Array.from(c.disagreements)).toEqual([0, 3]);
  });

  it('no overlapping rows: n 0, not binary', () => {
    const c = labelCheck([1, NaN], [NaN, 1]);
    expect(c.n).toBe(0);
    expect(c.binary).toBe(false);
    expect(c.pearson).toBeNaN();
  });
});

describe('labelCheck matches the numpy / scipy reference', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(diff(labelCheck(f64(c.rewards as Num[]), f64(c.labels as Num[])), c.expected)).toEqual([]);
    });
  }
});
