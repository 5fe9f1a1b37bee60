import { describe, expect, it } from 'vitest';
import { figuresOf, jobRows } from './figures';

// Expected values worked by hand (comments show the working); Python's math for the two irrational ones.
const f64 = (xs: number[]) => new Float64Array(xs);
const i32 = (xs: number[]) => new Int32Array(xs);

describe('a tab’s figures as one job', () => {
  it('length: correlations over the scored rows, within-group r, points and binned lengths', () => {
    // Scored rows 0, 1, 3: x = [10, 20, 40], y = [1, 0, 1]; Sxy = 10/3, Sxx = 1400/3, Syy = 2/3 → r = 10/√2800.
    const f = figuresOf({ kind: 'length', values: f64([1, 0, NaN, 1]), lengths: i32([10, 20, 30, 40]), groupOf: i32([0, 0, 1, 1]), groupCount: 2 });
    expect(f.pearson).toBeCloseTo(0.18898223650461363, 12);
    // Ranks x [1, 2, 3], y [2.5, 1, 2.5]: deviations [-1, 0, 1] · [0.5, -1, 0.5] sum to 0.
    expect(f.spearman).toBeCloseTo(0, 12);
    // Group 0: (10, 1), (20, 0) → r = −1; group 1 has one scored row and no correlation.
    expect(f.within).toEqual({ mean: -1, groups: 1 });
    expect(f.points).toEqual([
      { x: 10, y: 1, row: 0 },
      { x: 20, y: 0, row: 1 },
      { x: 40, y: 1, row: 3 },
    ]);
    expect(Array.from(f.scoredLengths)).toEqual([10, 20, NaN, 40]);
    // Mean reward per length bin, over the three scored rows.
    expect(f.bins.reduce((n, b) => n + b.n, 0)).toBe(3);
  });

  it('collapse: group statistics, TRL advantages, the collapse figures and the figures per step', () => {
    // Group 0 = [1, 1] (all max), group 1 = [0, 1]: mean 0.5, Bessel std √0.5 → advantages ∓0.5 / (√0.5 + 1e-4).
    const f = figuresOf({ kind: 'collapse', values: f64([1, 1, 0, 1]), groupOf: i32([0, 0, 1, 1]), groupCount: 2, preset: 'trl', steps: f64([0, 0, 1, 1]) });
    expect(Array.from(f.stats.count)).toEqual([2, 2]);
    expect(Array.from(f.stats.mean)).toEqual([1, 0.5]);
    expect(Array.from(f.stats.std)).toEqual([0, 0.5]);
    expect(f.advantages[0]).toBe(0);
    expect(f.advantages[1]).toBe(0);
    expect(f.advantages[2]).toBeCloseTo(-0.7070067953266834, 12);
    expect(f.advantages[3]).toBeCloseTo(0.7070067953266834, 12);
    expect(f.collapse.groups).toBe(2);
    expect(f.collapse.zeroStdGroupFraction).toBe(0.5);
    expect(f.collapse.allMaxFraction).toBe(0.5);
    expect(Array.from(f.collapse.collapsedGroups)).toEqual([0]);
    expect(f.collapse.zeroAdvantageRolloutFraction).toBe(0.5);
    // Three distinct advantages: −0.707, 0 (twice), 0.707.
    expect(f.advantageHistogram.bins.map((b) => b.count)).toEqual([1, 2, 1]);
    // Step 0 holds group 0 only (collapsed, mean 1); step 1 group 1 (not collapsed, mean 0.5).
    expect(f.perStep).toEqual([
      { step: 0, meanReward: 1, zeroStd: 1, nearZeroStd: 1, zeroAdvantage: 1 },
      { step: 1, meanReward: 0.5, zeroStd: 0, nearZeroStd: 0, zeroAdvantage: 0 },
    ]);
    expect(
      figuresOf({ kind: 'collapse', values: f64([1, 1, 0, 1]), groupOf: i32([0, 0, 1, 1]), groupCount: 2, preset: 'trl', steps: null }).perStep,
    ).toBeNull();
  });

  it('distribution: bins shared with the other runs, counts per run, the description of the current run', () => {
    const f = figuresOf({ kind: 'distribution', values: f64([1, 0, 1]), others: [f64([0, 0, NaN])] });
    expect(f.overlay.histogram.kind).toBe('discrete');
    expect(f.overlay.histogram.bins.map((b) => b.value)).toEqual([0, 1]);
    expect(f.overlay.counts).toEqual([
      [1, 2],
      [2, 0],
    ]);
    expect(f.description.n).toBe(3);
    expect(f.description.mean).toBeCloseTo(2 / 3, 15);
    expect(f.description.min).toBe(0);
    expect(f.description.max).toBe(1);
  });

  it('histogram: bins of the finite values', () => {
    const h = figuresOf({ kind: 'histogram', values: f64([1, 2, 2, NaN]), maxBins: 40 });
    expect(h.bins.map((b) => [b.value, b.count])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(h.n).toBe(3);
  });

  it('component: one bar per value (≤ 20 distinct) and the mean of the finite values', () => {
    // Finite values 1, 2, 2, 5: bars 1 ×1, 2 ×2, 5 ×1; mean 10 / 4 = 2.5.
    const c = figuresOf({ kind: 'component', values: f64([1, 2, NaN, 2, 5]) });
    expect(c.histogram.bins.map((b) => [b.value, b.count])).toEqual([
      [1, 1],
      [2, 2],
      [5, 1],
    ]);
    expect(c.mean).toBe(2.5);
  });

  it('compare: rows scored in both, flips, changed rows largest first, points with the changed rows first', () => {
    // Rows 0–2 scored in both; row 0 went 0 → 1, row 2 went 1 → 0 (|Δ| = 1 each, ties by row).
    const f = figuresOf({ kind: 'compare', a: f64([0, 1, 1, NaN]), b: f64([1, 1, 0, 0]) });
    expect(f.n).toBe(3);
    expect(f.binary).toBe(true);
    expect(f.flips).toEqual({ up: 1, down: 1 });
    expect(Array.from(f.changed)).toEqual([0, 2]);
    expect(f.points).toEqual([
      { x: 0, y: 1, row: 0 },
      { x: 1, y: 0, row: 2 },
      { x: 1, y: 1, row: 1 },
    ]);
    expect(jobRows({ kind: 'compare', a: f64([0, 1, 1, NaN]), b: f64([1, 1, 0, 0]) })).toBe(4);
  });

  it('shaping side: the reward, length and collapse figures of one side', () => {
    // Rewards [1, 1, 0, 1], groups as above: mean 3/4, population std √(3/16) = √3/4, 2 distinct values.
    const s = figuresOf({
      kind: 'shaping-side',
      values: f64([1, 1, 0, 1]),
      groupOf: i32([0, 0, 1, 1]),
      groupCount: 2,
      lengths: i32([10, 20, 30, 40]),
      preset: 'trl',
      truncated: null,
      floor: null,
    });
    expect(s.reward.mean).toBe(0.75);
    expect(s.reward.std).toBeCloseTo(Math.sqrt(3) / 4, 15);
    expect(s.reward.distinct).toBe(2);
    expect(s.collapse.zeroStdGroupFraction).toBe(0.5);
    expect(s.collapse.allMaxFraction).toBe(0.5);
  });
});
