/**
 * Groups whose rewards vary, but barely: population std above 0 and below a floor. A std-normalising estimator divides
 * by that std, so noise in the reward becomes advantages as large as a real difference (TRL's ε = 1e-4 caps them
 * only far below most floors).
 */
import { advantages, type PresetId } from '../stats/advantage';
import { groupStats } from '../stats/collapse';

/** The default floor, as a share of the reward's range (max − min over scored rows). */
export const LOW_STD_RANGE_SHARE = 1e-3;

export interface LowStdGroups {
  /** The floor used: `floor` when given, else LOW_STD_RANGE_SHARE × range (0 when every reward is equal). */
  floor: number;
  /** Groups with a scored row. */
  groups: number;
  /** Indexes of the groups with 0 < std < floor, ascending. */
  lowGroups: Int32Array;
  /** lowGroups.length / groups (NaN without groups). */
  fraction: number;
  /** The largest |advantage| under `preset` of a scored row in those groups (NaN when there are none). */
  maxAbsAdvantage: number;
}

/**
 * Low-std groups of one batch. std is the population std of the group's scored rewards (collapse.ts groupStats), so
 * "above 0" means the rewards are not all equal. Throws RangeError for a floor that is not a finite number ≥ 0.
 */
export function lowStdGroups(rewards: ArrayLike<number>, groupOf: Int32Array, groupCount: number, preset: PresetId, floor: number | null = null): LowStdGroups {
  if (floor !== null && !(floor >= 0 && Number.isFinite(floor))) throw new RangeError(`invalid floor: ${floor}`);
  const s = groupStats(rewards, groupOf, groupCount);
  let lo = Infinity;
  let hi = -Infinity;
  let groups = 0;
  for (let g = 0; g < groupCount; g++) {
    if (s.count[g] === 0) continue;
    groups++;
    if (s.min[g] < lo) lo = s.min[g];
    if (s.max[g] > hi) hi = s.max[g];
  }
  const f = floor ?? (groups ? LOW_STD_RANGE_SHARE * (hi - lo) : 0);
  const low: number[] = [];
  const isLow = new Uint8Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    if (s.count[g] > 0 && s.min[g] !== s.max[g] && s.std[g] < f) {
      low.push(g);
      isLow[g] = 1;
    }
  }
  let maxAbs = NaN;
  if (low.length) {
    const adv = advantages(rewards, groupOf, groupCount, preset);
    maxAbs = 0;
    for (let i = 0; i < rewards.length; i++) {
      const g = groupOf[i];
      if (g < 0 || g >= groupCount || !isLow[g] || !Number.isFinite(rewards[i])) continue;
      const a = Math.abs(adv[i]);
      if (a > maxAbs) maxAbs = a;
    }
  }
  return { floor: f, groups, lowGroups: Int32Array.from(low), fraction: groups ? low.length / groups : NaN, maxAbsAdvantage: maxAbs };
}
