/**
 * Advantage collapse: how many groups carry no learning signal because their rewards are all equal.
 * A row is scored when its reward is finite and its group index is in [0, groupCount); other rows are ignored.
 */
import { advantages, type PresetId } from './advantage';
import { stepRows, type StepRows } from './stepRows';

export interface GroupStats {
  count: Int32Array;
  mean: Float64Array;
  std: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

/**
 * Per group, over its scored rows: count, mean (Σ/n; exactly the common value when all are equal), population std
 * (ddof 0, two-pass; exactly 0 when all are equal), min, max. Groups without a scored row: count 0, the rest NaN. O(n).
 */
export function groupStats(rewards: ArrayLike<number>, groupOf: Int32Array, groupCount: number): GroupStats {
  if (rewards.length !== groupOf.length) {
    throw new RangeError(`groupStats: columns differ in length (${rewards.length} vs ${groupOf.length})`);
  }
  const n = rewards.length;
  const count = new Int32Array(groupCount);
  const mean = new Float64Array(groupCount);
  const std = new Float64Array(groupCount);
  const min = new Float64Array(groupCount).fill(Infinity);
  const max = new Float64Array(groupCount).fill(-Infinity);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    const r = rewards[i];
    if (g < 0 || g >= groupCount || !Number.isFinite(r)) continue;
    count[g]++;
    mean[g] += r;
    if (r < min[g]) min[g] = r;
    if (r > max[g]) max[g] = r;
  }
  for (let g = 0; g < groupCount; g++) {
    if (count[g] === 0) mean[g] = min[g] = max[g] = NaN;
    else mean[g] = min[g] === max[g] ? min[g] : mean[g] / count[g];
  }
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    const r = rewards[i];
    if (g < 0 || g >= groupCount || !Number.isFinite(r)) continue;
    const d = r - mean[g];
    std[g] += d * d;
  }
  for (let g = 0; g < groupCount; g++) {
    const c = count[g];
    std[g] = c === 0 ? NaN : min[g] === max[g] ? 0 : Math.sqrt(std[g] / c);
  }
  return { count, mean, std, min, max };
}

export interface Collapse {
  /** Groups with at least one scored row (the denominator of every group fraction below). */
  groups: number;
  /** Scored rows per group → number of groups, ascending size (groups with no scored row are not listed). */
  sizeHistogram: { size: number; groups: number }[];
  /** Groups whose scored rewards are all equal (a group of one counts: it carries no signal) / groups. */
  zeroStdGroupFraction: number;
  /** Zero-std groups whose common value is the maximum reward over all scored rows (also when max = min) / groups. */
  allMaxFraction: number;
  /** Zero-std groups whose common value is the minimum reward over all scored rows (and not the maximum) / groups. */
  allMinFraction: number;
  /** The remaining zero-std groups / groups; with truncatedZeroStdFraction the four sum to zeroStdGroupFraction. */
  otherZeroStdFraction: number;
  /**
   * Zero-std groups in which every scored rollout was truncated (TRL #5697: cut at the length limit, so equal rewards
   * say nothing about the policy) / groups. Counted as its own cause, before all-max / all-min / other; 0 without a
   * truncation column.
   */
  truncatedZeroStdFraction: number;
  /** Groups with population std < 1e-3 (zero included) / groups. */
  nearZeroStdGroupFraction: number;
  /** Scored rows whose advantage under the preset is exactly 0 or NaN (degenerate group) / scored rows. */
  zeroAdvantageRolloutFraction: number;
  /** Indexes of the zero-std groups, ascending. */
  collapsedGroups: Int32Array;
}

/** Population std below this counts as "near zero" (advantages divided by it blow up). */
export const NEAR_ZERO_STD = 1e-3;

/**
 * Collapse metrics of one batch (see the Collapse fields). Fractions are NaN when their denominator is 0
 * (no scored row). `preset` (default 'trl') only affects zeroAdvantageRolloutFraction; note that under 'verl',
 * 'dr-grpo' and 'rloo' a group of one keeps a nonzero advantage when its reward is nonzero. O(n + groupCount).
 * `known`: groupStats and advantages of these same columns and preset, when the caller has them already (a tab that
 * shows them too), so they are not computed again.
 */
export function collapse(
  rewards: ArrayLike<number>,
  groupOf: Int32Array,
  groupCount: number,
  preset: PresetId = 'trl',
  truncated: ArrayLike<number> | null = null,
  known: { stats: GroupStats; advantages: Float64Array } | null = null,
): Collapse {
  if (truncated && truncated.length !== rewards.length) {
    throw new RangeError(`collapse: columns differ in length (${rewards.length} vs ${truncated.length})`);
  }
  if (known && (known.stats.count.length !== groupCount || known.advantages.length !== rewards.length)) {
    throw new RangeError('collapse: the group statistics or advantages given are not of these columns');
  }
  const s = known?.stats ?? groupStats(rewards, groupOf, groupCount);
  const allCut = truncated ? groupsAllTruncated(rewards, groupOf, groupCount, truncated) : null;
  let groups = 0;
  let globalMin = Infinity;
  let globalMax = -Infinity;
  let maxSize = 0;
  for (let g = 0; g < groupCount; g++) {
    if (s.count[g] === 0) continue;
    groups++;
    if (s.min[g] < globalMin) globalMin = s.min[g];
    if (s.max[g] > globalMax) globalMax = s.max[g];
    if (s.count[g] > maxSize) maxSize = s.count[g];
  }
  const bySize = new Int32Array(maxSize + 1);
  let zero = 0;
  let allMax = 0;
  let allMin = 0;
  let cut = 0;
  let near = 0;
  const collapsed: number[] = [];
  for (let g = 0; g < groupCount; g++) {
    const c = s.count[g];
    if (c === 0) continue;
    bySize[c]++;
    if (s.std[g] < NEAR_ZERO_STD) near++;
    if (s.min[g] === s.max[g]) {
      zero++;
      collapsed.push(g);
      if (allCut?.[g]) cut++;
      else if (s.min[g] === globalMax) allMax++;
      else if (s.min[g] === globalMin) allMin++;
    }
  }
  const sizeHistogram: { size: number; groups: number }[] = [];
  for (let k = 1; k <= maxSize; k++) if (bySize[k]) sizeHistogram.push({ size: k, groups: bySize[k] });
  const adv = known?.advantages ?? advantages(rewards, groupOf, groupCount, preset);
  let scoredRows = 0;
  let zeroAdv = 0;
  for (let i = 0; i < rewards.length; i++) {
    const g = groupOf[i];
    if (g < 0 || g >= groupCount || !Number.isFinite(rewards[i])) continue;
    scoredRows++;
    if (adv[i] === 0 || Number.isNaN(adv[i])) zeroAdv++;
  }
  return {
    groups,
    sizeHistogram,
    zeroStdGroupFraction: zero / groups,
    allMaxFraction: allMax / groups,
    allMinFraction: allMin / groups,
    otherZeroStdFraction: (zero - allMax - allMin - cut) / groups,
    truncatedZeroStdFraction: cut / groups,
    nearZeroStdGroupFraction: near / groups,
    zeroAdvantageRolloutFraction: zeroAdv / scoredRows,
    collapsedGroups: Int32Array.from(collapsed),
  };
}

/** Per group: 1 when every scored row of it is truncated (truncated[i] === 1), else 0. */
function groupsAllTruncated(rewards: ArrayLike<number>, groupOf: Int32Array, groupCount: number, truncated: ArrayLike<number>): Uint8Array {
  const seen = new Uint8Array(groupCount);
  const all = new Uint8Array(groupCount).fill(1);
  for (let i = 0; i < rewards.length; i++) {
    const g = groupOf[i];
    if (g < 0 || g >= groupCount || !Number.isFinite(rewards[i])) continue;
    seen[g] = 1;
    if (truncated[i] !== 1) all[g] = 0;
  }
  for (let g = 0; g < groupCount; g++) all[g] &= seen[g];
  return all;
}

export interface StepCollapse {
  step: number;
  /** Rows carrying this step (scored or not). */
  rows: number;
  /** Mean of the finite rewards of those rows (NaN when none). */
  meanReward: number;
  /** collapse() over this step's rows alone; collapsedGroups holds the original group indexes. */
  collapse: Collapse;
}

/**
 * collapse() per training step: one entry per distinct finite value of `steps`, ascending. Rows with a non-finite
 * step are left out. Groups are split by step (group g at step s and at step t are two groups), and the
 * preset's batch statistics (trl-batch) are over the step's rows, as a trainer sees one step's batch.
 * O(n log n) overall, however many steps.
 */
export function collapseByStep(
  rewards: ArrayLike<number>,
  groupOf: Int32Array,
  groupCount: number,
  steps: ArrayLike<number>,
  preset: PresetId = 'trl',
  truncated: ArrayLike<number> | null = null,
  byStep?: StepRows,
): StepCollapse[] {
  const n = rewards.length;
  if (groupOf.length !== n || steps.length !== n) {
    throw new RangeError(`collapseByStep: columns differ in length (${n}, ${groupOf.length}, ${steps.length})`);
  }
  // Distinct finite steps, ascending, and the rows of each (a hash of the few steps: a sort of a million steps was
  // ~40 ms of Over steps), unless the caller has them (`byStep`, from these steps).
  const { values: uniq, start, order } = byStep ?? stepRows(steps);
  const d = uniq.length;

  const localOf = new Int32Array(groupCount).fill(-1);
  const out: StepCollapse[] = [];
  for (let s = 0; s < d; s++) {
    const lo = start[s];
    const m = start[s + 1] - lo;
    const r = new Float64Array(m);
    const gl = new Int32Array(m);
    const cut = truncated ? new Uint8Array(m) : null;
    const globalOf: number[] = [];
    let sum = 0;
    let scored = 0;
    for (let j = 0; j < m; j++) {
      const i = order[lo + j];
      r[j] = rewards[i];
      if (cut && truncated) cut[j] = truncated[i] === 1 ? 1 : 0;
      if (Number.isFinite(r[j])) {
        sum += r[j];
        scored++;
      }
      const g = groupOf[i];
      if (g < 0 || g >= groupCount) {
        gl[j] = -1;
        continue;
      }
      if (localOf[g] < 0) {
        localOf[g] = globalOf.length;
        globalOf.push(g);
      }
      gl[j] = localOf[g];
    }
    for (const g of globalOf) localOf[g] = -1;
    const c = collapse(r, gl, globalOf.length, preset, cut);
    c.collapsedGroups = Int32Array.from(c.collapsedGroups, (l) => globalOf[l]).sort();
    out.push({ step: uniq[s], rows: m, meanReward: scored ? sum / scored : NaN, collapse: c });
  }
  return out;
}
