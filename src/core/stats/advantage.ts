/**
 * Outcome-reward advantage estimators, transcribed from the frameworks' source so the numbers match training logs
 * (sources, line numbers and shared conventions: docs/diagnostics.md).
 */

/** The advantage-estimator presets: the one list the UI, the CLI (`--preset`), sessions and tests use. */
export const PRESET_IDS = ['trl', 'trl-batch', 'trl-none', 'verl', 'dr-grpo', 'rloo', 'openrlhf', 'openrlhf-rloo', 'openrlhf-dr-grpo'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

/** UI label, framework, and a one-line formula (n = scored rows in the group, μ / σ its mean / Bessel std). */
export const PRESETS: Record<PresetId, { label: string; framework: 'TRL' | 'verl' | 'OpenRLHF'; formula: string }> = {
  trl: { label: 'TRL GRPO · scale_rewards=group', framework: 'TRL', formula: '(r − μ_group) / (σ_group + 1e-4); a group of one → 0' },
  'trl-batch': { label: 'TRL GRPO · scale_rewards=batch', framework: 'TRL', formula: '(r − μ_group) / (σ_batch + 1e-4)' },
  'trl-none': { label: 'TRL GRPO · scale_rewards=none', framework: 'TRL', formula: 'r − μ_group' },
  verl: { label: 'verl GRPO · adv_estimator=grpo', framework: 'verl', formula: '(r − μ_group) / (σ_group + 1e-6); a group of one: μ = 0, σ = 1' },
  'dr-grpo': { label: 'verl Dr. GRPO · norm_adv_by_std_in_grpo=False', framework: 'verl', formula: 'r − μ_group; a group of one: μ = 0' },
  rloo: { label: 'verl RLOO · adv_estimator=rloo', framework: 'verl', formula: 'r·n/(n−1) − μ_group·n/(n−1) = r − mean(others); a group of one keeps r' },
  openrlhf: { label: 'OpenRLHF · advantage estimator=group_norm', framework: 'OpenRLHF', formula: 'clamp((r − μ_group) / (σ_group + 1e-9), −10, 10)' },
  'openrlhf-rloo': { label: 'OpenRLHF · advantage estimator=rloo', framework: 'OpenRLHF', formula: 'clamp(r − (Σ_group − r)/(n − 1), −10, 10)' },
  'openrlhf-dr-grpo': { label: 'OpenRLHF · advantage estimator=dr_grpo', framework: 'OpenRLHF', formula: 'clamp(r − μ_group, −10, 10)' },
};

export function isPresetId(x: unknown): x is PresetId {
  return typeof x === 'string' && (PRESET_IDS as readonly string[]).includes(x);
}

/** OpenRLHF `--reward.clip_range` default, applied by `compute_reward` after the baseline. */
const OPENRLHF_CLIP = 10;

function clampOpenRLHF(v: number): number {
  // torch.clamp keeps NaN; Math.min/max do too.
  return Math.min(OPENRLHF_CLIP, Math.max(-OPENRLHF_CLIP, v));
}

interface Groups {
  scored: Uint8Array;
  count: Int32Array;
  sum: Float64Array;
  mean: Float64Array;
  /** Σ (r − mean)² over the group's scored rows. */
  ss: Float64Array;
  /** 1 when the group's scored rewards are not all equal. */
  varies: Uint8Array;
}

function groupSums(rewards: ArrayLike<number>, groupOf: Int32Array, groupCount: number): Groups {
  const n = rewards.length;
  const scored = new Uint8Array(n);
  const count = new Int32Array(groupCount);
  const sum = new Float64Array(groupCount);
  const first = new Float64Array(groupCount);
  const varies = new Uint8Array(groupCount);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    const r = rewards[i];
    if (g >= 0 && g < groupCount && Number.isFinite(r)) {
      scored[i] = 1;
      if (count[g] === 0) first[g] = r;
      else if (r !== first[g]) varies[g] = 1;
      count[g]++;
      sum[g] += r;
    }
  }
  // A group whose rewards are all equal gets that value as its mean exactly (Σ/n can leave a 1e-17 crumb, e.g.
  // 0.1·3/3), so its advantages are exactly 0 and it counts as collapsed.
  const mean = new Float64Array(groupCount);
  for (let g = 0; g < groupCount; g++) mean[g] = varies[g] ? sum[g] / count[g] : count[g] ? first[g] : NaN;
  const ss = new Float64Array(groupCount);
  for (let i = 0; i < n; i++) {
    if (!scored[i]) continue;
    const d = rewards[i] - mean[groupOf[i]];
    ss[groupOf[i]] += d * d;
  }
  return { scored, count, sum, mean, ss, varies };
}

/**
 * TRL `nanstd` (trl/trainer/utils.py 857–882): variance = nanmean((x − mean)²) · count/(count − 1), NaN when count ≤ 1.
 * This is torch.std (Bessel) over the non-NaN values, written in TRL's order of operations.
 */
function trlNanstd(ss: number, count: number): number {
  if (count <= 1) return NaN;
  return Math.sqrt((ss / count) * (count / (count - 1)));
}

/**
 * One advantage per row under `preset` (see PRESETS and the source notes at the top of this file).
 * NaN for unscored rows (non-finite reward, or group index outside [0, groupCount)). For a scored row the result is
 * NaN only where the framework itself yields NaN: OpenRLHF `group_norm` and `rloo` on a group with one scored row
 * (torch.std of one element is NaN; rloo divides 0 by n − 1 = 0). Per preset, for a group of n scored rows:
 *
 * - `trl`: (r − μ) / (σ + 1e-4), μ = nanmean, σ = TRL nanstd (Bessel). n = 1 → σ = NaN → advantage NaN, which TRL's
 *   `torch.nan_to_num(advantages, nan=0.0)` (line 2730) turns into 0: we return 0.
 * - `trl-batch`: (r − μ_group) / (σ_batch + 1e-4), σ_batch = nanstd over every scored row (lines 2694–2699; with
 *   a single row in the batch TRL uses σ = 0; both paths give 0 for that row, as r − μ = 0). NaN → 0 likewise.
 * - `trl-none`: r − μ_group (line 2705; the std is only used for logging).
 * - `verl`: n = 1 → μ = 0, σ = 1 (so the advantage is r / (1 + 1e-6), NOT 0); n ≥ 2 → μ = torch.mean,
 *   σ = torch.std (unbiased); advantage (r − μ) / (σ + 1e-6).
 * - `dr-grpo`: verl GRPO with norm_adv_by_std_in_grpo=False: r − μ, with μ = 0 for n = 1 (advantage = r).
 * - `rloo`: verl `compute_rloo_outcome_advantage`: n ≥ 2 → r·n/(n−1) − μ·n/(n−1); n = 1 → the score is left
 *   as is (advantage = r). (verl's separate `rloo_vectorized` gives 0 for n = 1; "rloo" is the loop version.)
 * - `openrlhf`: clamp((r − μ) / (σ + 1e-9), −10, 10), σ = torch.std (unbiased); n = 1 → NaN.
 * - `openrlhf-rloo`: clamp(r − (Σ − r)/(n − 1), −10, 10); n = 1 → 0/0 = NaN. (OpenRLHF asserts
 *   n_samples_per_prompt > 1 for these estimators, train_ppo_ray.py 612–615, so it never meets n = 1 itself.)
 * - `openrlhf-dr-grpo`: clamp(r − μ, −10, 10); n = 1 → 0.
 *
 * O(n). Throws RangeError when rewards and groupOf differ in length.
 */
export function advantages(rewards: ArrayLike<number>, groupOf: Int32Array, groupCount: number, preset: PresetId): Float64Array {
  if (rewards.length !== groupOf.length) {
    throw new RangeError(`advantages: columns differ in length (${rewards.length} vs ${groupOf.length})`);
  }
  if (!isPresetId(preset)) throw new RangeError(`invalid preset: ${String(preset)}`);
  const n = rewards.length;
  const out = new Float64Array(n).fill(NaN);
  const G = groupSums(rewards, groupOf, groupCount);
  const { scored, count, sum, mean, ss, varies } = G;

  // grpo_trainer.py 2685–2707 (sum_then_normalize), then 2730 nan_to_num.
  if (preset === 'trl' || preset === 'trl-batch' || preset === 'trl-none') {
    let scale: (g: number) => number = () => 1;
    if (preset === 'trl') scale = (g) => trlNanstd(ss[g], count[g]) + 1e-4;
    else if (preset === 'trl-batch') {
      // nanstd over the whole batch (every scored row), around the batch mean.
      let m = 0;
      let c = 0;
      for (let i = 0; i < n; i++) {
        if (!scored[i]) continue;
        m += rewards[i];
        c++;
      }
      m /= c;
      let s = 0;
      for (let i = 0; i < n; i++) if (scored[i]) s += (rewards[i] - m) * (rewards[i] - m);
      const std = n > 1 ? trlNanstd(s, c) : 0;
      scale = () => std + 1e-4;
    }
    for (let i = 0; i < n; i++) {
      if (!scored[i]) continue;
      const g = groupOf[i];
      const a = preset === 'trl-none' ? rewards[i] - mean[g] : (rewards[i] - mean[g]) / scale(g);
      out[i] = Number.isNaN(a) ? 0 : a; // torch.nan_to_num(advantages, nan=0.0)
    }
    return out;
  }

  for (let i = 0; i < n; i++) {
    if (!scored[i]) continue;
    const g = groupOf[i];
    const r = rewards[i];
    const c = count[g];
    switch (preset) {
      case 'verl': {
        // core_algos.py 313–327: len == 1 → mean 0, std 1; else torch.mean / torch.std; (s − mean) / (std + eps)
        const mu = c === 1 ? 0 : mean[g];
        const sd = c === 1 ? 1 : Math.sqrt(ss[g] / (c - 1));
        out[i] = (r - mu) / (sd + 1e-6);
        break;
      }
      case 'dr-grpo':
        // core_algos.py 326–327: norm_adv_by_std_in_grpo=False → s − mean (mean 0 for a group of one)
        out[i] = r - (c === 1 ? 0 : mean[g]);
        break;
      case 'rloo':
        // core_algos.py 510–522: response_num > 1 → s·n/(n−1) − mean·n/(n−1); a group of one is left as is
        out[i] = c > 1 ? (r * c) / (c - 1) - (mean[g] * c) / (c - 1) : r;
        break;
      case 'openrlhf': {
        // experience_maker.py 269–270: (r − mean) / (std + 1e-9), torch.std unbiased (NaN for one element)
        const sd = c > 1 ? Math.sqrt(ss[g] / (c - 1)) : NaN;
        out[i] = clampOpenRLHF((r - mean[g]) / (sd + 1e-9));
        break;
      }
      case 'openrlhf-rloo':
        // experience_maker.py 264–266: baseline = (sum − r) / (n − 1); r − baseline.
        // All-equal group of n ≥ 2: the leave-one-out baseline is r exactly (Σ − r can round, e.g. 0.1·3).
        out[i] = c > 1 && !varies[g] ? 0 : clampOpenRLHF(r - (sum[g] - r) / (c - 1));
        break;
      case 'openrlhf-dr-grpo':
        // experience_maker.py 267–268: r − mean
        out[i] = clampOpenRLHF(r - mean[g]);
        break;
    }
  }
  return out;
}
