import { describe, expect, it } from 'vitest';
import { compareRuns } from './compare';
import { diff, f64, type Num } from './fixtures/check';
import cases from './fixtures/compare.json';

describe('compareRuns, hand-worked', () => {
  it('binary: flips up and down, changed rows', () => {
    const c = compareRuns([0, 1, 1, 0, NaN], [1, 1, 0, 0, 1]);
    expect(c.n).toBe(4);
    expect(c.binary).toBe(true);
    expect(c.flips).toEqual({ up: 1, down: 1 });
    expect(Array.from(c.changed)).toEqual([0, 2]);
  });

  it('continuous: ordered by |b − a| descending, ties by row index', () => {
    const c = compareRuns([0, 0.5, 1, 2, 3], [1, 0.5, 0, 2.5, 2]);
    expect(c.binary).toBe(false);
    expect(c.flips).toBeNull();
    expect(Array.from(c.changed)).toEqual([0, 2, 4, 3]);
  });
});

describe('compareRuns matches the scipy reference', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(diff(compareRuns(f64(c.a as Num[]), f64(c.b as Num[])), c.expected)).toEqual([]);
    });
  }
});
