import { describe, expect, it } from 'vitest';
import { advantages, PRESET_IDS } from './advantage';
import { collapse, collapseByStep, groupStats } from './collapse';
import { diff, f64, i32, type Num } from './fixtures/check';
import fixture from './fixtures/collapse.json';

describe('collapse, hand-worked', () => {
  it('binary groups: all-1, all-0, mixed', () => {
    // groups: [1,1] all-max, [0,0] all-min, [1,0] mixed
    const c = collapse([1, 1, 0, 0, 1, 0], i32([0, 0, 1, 1, 2, 2]), 3);
    expect(c.groups).toBe(3);
    expect(c.sizeHistogram).toEqual([{ size: 2, groups: 3 }]);
    expect(c.zeroStdGroupFraction).toBe(2 / 3);
    expect(c.allMaxFraction).toBe(1 / 3);
    expect(c.allMinFraction).toBe(1 / 3);
    expect(c.otherZeroStdFraction).toBe(0);
    expect(c.nearZeroStdGroupFraction).toBe(2 / 3);
    expect(c.zeroAdvantageRolloutFraction).toBe(4 / 6);
    expect(Array.from(c.collapsedGroups)).toEqual([0, 1]);
  });

  it('a group of one counts as collapsed; under verl it still carries advantage r/(1+1e-6)', () => {
    const c = collapse([1, 0, 1], i32([0, 0, 1]), 2, 'verl');
    expect(c.zeroStdGroupFraction).toBe(0.5);
    expect(c.sizeHistogram).toEqual([
      { size: 1, groups: 1 },
      { size: 2, groups: 1 },
    ]);
    expect(c.zeroAdvantageRolloutFraction).toBe(0);
    expect(collapse([1, 0, 1], i32([0, 0, 1]), 2, 'trl').zeroAdvantageRolloutFraction).toBe(1 / 3);
  });

  it('given the group statistics and advantages (as the tab has them), the same figures; mismatched ones are refused', () => {
    const r = [1, 1, 0, 0, 1, 0, 0.5, NaN, 2];
    const g = i32([0, 0, 1, 1, 2, 2, 3, 3, 4]);
    for (const preset of PRESET_IDS) {
      const known = { stats: groupStats(r, g, 5), advantages: advantages(r, g, 5, preset) };
      expect(collapse(r, g, 5, preset, null, known)).toEqual(collapse(r, g, 5, preset));
    }
    const known = { stats: groupStats(r, g, 5), advantages: advantages(r, g, 5, 'trl') };
    expect(() => collapse(r, g, 6, 'trl', null, known)).toThrow(RangeError);
    expect(() => collapse(r.slice(1), g.slice(1), 5, 'trl', null, known)).toThrow(RangeError);
  });

  it('near-zero std: population std 2.5e-4 < 1e-3 but not zero', () => {
    const c = collapse([0.5, 0.5005, 0.2, 0.9], i32([0, 0, 1, 1]), 2);
    expect(c.zeroStdGroupFraction).toBe(0);
    expect(c.nearZeroStdGroupFraction).toBe(0.5);
  });

  it('no scored row: fractions NaN, no groups', () => {
    const c = collapse([NaN], i32([0]), 1);
    expect(c.groups).toBe(0);
    expect(c.zeroStdGroupFraction).toBeNaN();
    expect(c.zeroAdvantageRolloutFraction).toBeNaN();
  });

  it('groupStats: population std, NaN for an empty group', () => {
    const s = groupStats([1, 0, NaN, 3], i32([0, 0, 0, 2]), 3);
    expect(Array.from(s.count)).toEqual([2, 0, 1]);
    expect(Array.from(s.mean)).toEqual([0.5, NaN, 3]);
    expect(Array.from(s.std)).toEqual([0.5, NaN, 0]);
    expect(Array.from(s.min)).toEqual([0, NaN, 3]);
    expect(Array.from(s.max)).toEqual([1, NaN, 3]);
  });

  it('collapseByStep splits groups by step and keeps original group indexes', () => {
    // group 0 is [1,1] at step 1 and [1,0] at step 2; group 1 is [0,0] at step 2.
    const r = collapseByStep([1, 1, 1, 0, 0, 0, 5], i32([0, 0, 0, 0, 1, 1, 1]), 2, [1, 1, 2, 2, 2, 2, NaN]);
    expect(r.map((s) => [s.step, s.rows, s.meanReward])).toEqual([
      [1, 2, 1],
      [2, 4, 0.25],
    ]);
    expect(Array.from(r[0].collapse.collapsedGroups)).toEqual([0]);
    expect(Array.from(r[1].collapse.collapsedGroups)).toEqual([1]);
    expect(r[1].collapse.allMinFraction).toBe(0.5);
  });
});

describe('collapse matches the numpy reference', () => {
  for (const c of fixture.cases) {
    const rewards = f64(c.rewards as Num[]);
    const groupOf = i32(c.groupOf);
    it(`groupStats: ${c.name}`, () => {
      expect(diff(groupStats(rewards, groupOf, c.groupCount), c.groupStats)).toEqual([]);
    });
    for (const p of PRESET_IDS) {
      it(`collapse: ${c.name} · ${p}`, () => {
        expect(diff(collapse(rewards, groupOf, c.groupCount, p), (c.collapse as Record<string, unknown>)[p])).toEqual([]);
      });
    }
  }
  for (const c of fixture.byStep) {
    for (const [p, expected] of Object.entries(c.expected)) {
      it(`collapseByStep: ${c.name} · ${p}`, () => {
        const got = collapseByStep(f64(c.rewards as Num[]), i32(c.groupOf), c.groupCount, f64(c.steps as Num[]), p as never);
        expect(diff(got, expected)).toEqual([]);
      });
    }
  }
});
