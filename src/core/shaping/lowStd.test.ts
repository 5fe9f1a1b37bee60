import { describe, expect, it } from 'vitest';
import { lowStdGroups } from './lowStd';

// g0: 1, 1.0005 (population std 0.00025); g1: 0, 1 (std 0.5); g2: 0.3, 0.3 (std 0); g3: only an unscored row.
const R = [1, 1.0005, 0, 1, 0.3, 0.3, NaN];
const G = Int32Array.from([0, 0, 1, 1, 2, 2, 3]);

describe('lowStdGroups', () => {
  it('floor = 1e-3 × range; std above 0 and below it; the largest |advantage| there', () => {
    const r = lowStdGroups(R, G, 4, 'trl');
    // range = 1.0005 − 0 → floor 1.0005e-3; g0's 0.00025 is below it, g2's 0 is not "above 0".
    expect(r.floor).toBeCloseTo(1.0005e-3, 15);
    expect(r.groups).toBe(3);
    expect([...r.lowGroups]).toEqual([0]);
    expect(r.fraction).toBeCloseTo(1 / 3, 15);
    // TRL: |r − mean| / (std_unbiased + 1e-4) = 0.00025 / (0.0005/√2 + 1e-4); 0.0005/√2 = 3.5355339059327376e-4
    expect(r.maxAbsAdvantage).toBeCloseTo(0.00025 / (3.5355339059327376e-4 + 1e-4), 6);
    expect(r.maxAbsAdvantage).toBeCloseTo(0.5512, 4);
  });
  it('the estimator decides how large the advantages get', () => {
    // verl: ε = 1e-6 → 0.00025 / 3.5455339e-4 ≈ 0.70510; Dr. GRPO (no std): 0.00025
    expect(lowStdGroups(R, G, 4, 'verl').maxAbsAdvantage).toBeCloseTo(0.00025 / (3.5355339059327376e-4 + 1e-6), 6);
    expect(lowStdGroups(R, G, 4, 'dr-grpo').maxAbsAdvantage).toBeCloseTo(0.00025, 12);
  });
  it('a floor given is used as it is; none below it → NaN advantage', () => {
    const r = lowStdGroups(R, G, 4, 'trl', 1e-4);
    expect(r.floor).toBe(1e-4);
    expect(r.lowGroups.length).toBe(0);
    expect(r.fraction).toBe(0);
    expect(r.maxAbsAdvantage).toBeNaN();
    expect(() => lowStdGroups(R, G, 4, 'trl', -1)).toThrow('invalid floor: -1');
  });
  it('no scored row: no groups', () => {
    const r = lowStdGroups([NaN], Int32Array.from([0]), 1, 'trl');
    expect(r.groups).toBe(0);
    expect(r.fraction).toBeNaN();
  });
});
