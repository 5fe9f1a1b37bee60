import { describe, expect, it } from 'vitest';
import { sameScores, shapingSide, shapingTruncation } from './compare';
import type { ShapeSpec } from './spec';

const DAPO: ShapeSpec = { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' };

describe('shapingTruncation', () => {
  it('the fields first, then length ≥ the dapo-overlong max, else unknown', () => {
    expect(shapingTruncation([1, 0, NaN], { chars: [500, 500, 500] }, [DAPO])).toEqual({ truncated: Uint8Array.from([1, 0, 1]), source: 'fields' });
    expect(shapingTruncation(null, { chars: [399, 400, 401] }, [DAPO])).toEqual({ truncated: Uint8Array.from([0, 1, 1]), source: 'dapo-max' });
    expect(shapingTruncation([NaN, NaN], { chars: [399, 400] }, [DAPO])).toEqual({ truncated: Uint8Array.from([0, 1]), source: 'dapo-max' });
    expect(shapingTruncation(null, { chars: [1] }, [{ name: 'center', over: 'batch' }])).toEqual({ truncated: null, source: 'unknown' });
    // A dapo-overlong in tokens without token lengths at hand: unknown.
    expect(shapingTruncation(null, { chars: [1] }, [{ ...DAPO, unit: 'tokens' }])).toEqual({ truncated: null, source: 'unknown' });
  });
});

describe('shapingSide', () => {
  it('distribution, length, the zero-std breakdown with truncation, low-std groups', () => {
    // g0: 1, 1 (both truncated) → zero std, truncated cause; g1: 0, 0 → all-min; g2: 0.5, 0.5004 → low std
    // (population std 0.0002 < floor 1e-3 × range 1); g3: 0, 1 → varies.
    const scores = Float64Array.from([1, 1, 0, 0, 0.5, 0.5004, 0, 1]);
    const groupOf = Int32Array.from([0, 0, 1, 1, 2, 2, 3, 3]);
    const lengths = [10, 20, 30, 40, 50, 60, 70, 80];
    const s = shapingSide(scores, { groupOf, groupCount: 4, lengths, preset: 'dr-grpo', truncated: Uint8Array.from([1, 1, 0, 1, 0, 0, 0, 0]) });
    expect(s.reward.mean).toBeCloseTo(4.0004 / 8, 15);
    expect(s.reward.distinct).toBe(4);
    expect(s.collapse).toEqual({
      zeroStdGroupFraction: 0.5,
      allMaxFraction: 0,
      allMinFraction: 0.25,
      truncatedZeroStdFraction: 0.25,
      otherZeroStdFraction: 0,
      nearZeroStdGroupFraction: 0.75,
      zeroAdvantageRolloutFraction: 0.5,
    });
    expect(s.lowStd.floor).toBe(1e-3);
    expect(s.lowStd.fraction).toBe(0.25);
    // Dr. GRPO: |r − mean| = 0.0002
    expect(s.lowStd.maxAbsAdvantage).toBeCloseTo(0.0002, 12);
    // Within groups: g0, g1 constant (no correlation), g2 and g3 +1 each → mean 1.
    expect(s.length.withinGroupPearson).toBeCloseTo(1, 12);
  });
});

describe('sameScores', () => {
  it('equal values and NaN against NaN are the same; any other difference, or another length, is not', () => {
    expect(sameScores(Float64Array.from([1, NaN, -2.5, 0]), Float64Array.from([1, NaN, -2.5, 0]))).toBe(true);
    expect(sameScores(new Float64Array(0), new Float64Array(0))).toBe(true);
    expect(sameScores(Float64Array.from([1, NaN]), Float64Array.from([1, 0]))).toBe(false);
    expect(sameScores(Float64Array.from([1, 2]), Float64Array.from([1, 2.0000001]))).toBe(false);
    expect(sameScores(Float64Array.from([1, 2]), Float64Array.from([1, 2, 3]))).toBe(false);
    // Shaping with no transform unscores rows outside any group: then the shaped side is not the raw one.
    expect(sameScores(Float64Array.from([Infinity]), Float64Array.from([NaN]))).toBe(false);
  });
});
