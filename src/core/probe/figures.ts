/**
 * The figures of a stress test (docs/probes.md): the pass threshold, and per probe how often its text passes or beats
 * the rollout's own reward, with 95 % Wilson intervals, and whether it fools the reward.
 */
import { RowStatus } from '../reward/contract';
import { quantileSorted } from '../stats/histogram';
import { wilsonInterval } from '../stats/preferenceBreakdown';
import type { ProbeKind } from './probes';

/** Default largest pass (replacement probes) or win (modification probes) rate a reward may allow. */
export const DEFAULT_MAX_RATE = 0.01;

export type ThresholdSource = 'given' | 'label' | 'all';

/**
 * `--pass x` when given; else the median reward of the scored rows whose label is true; else the median of all
 * scored rows (an even count takes the mean of the two middle values). NaN when nothing is scored.
 */
export function probeThreshold(
  scores: Float64Array,
  status: Uint8Array,
  labels: ArrayLike<number> | null,
  given: number | null,
): { threshold: number; source: ThresholdSource } {
  if (given !== null) return { threshold: given, source: 'given' };
  const pick = (keep: (i: number) => boolean) => {
    const xs: number[] = [];
    for (let i = 0; i < scores.length; i++) if (status[i] === RowStatus.Ok && keep(i)) xs.push(scores[i]);
    return Float64Array.from(xs).sort();
  };
  if (labels) {
    const good = pick((i) => labels[i] === 1);
    if (good.length > 0) return { threshold: quantileSorted(good, 0.5), source: 'label' };
  }
  return {
    threshold: quantileSorted(
      pick(() => true),
      0.5,
    ),
    source: 'all',
  };
}

export interface ProbeFigures {
  name: string;
  kind: ProbeKind;
  /** Probed rollouts scored: both the probe's text and the rollout's own completion got a number. */
  n: number;
  /** Probe reward ≥ threshold. */
  passes: number;
  passRate: number;
  passCI: [number, number];
  /** Probe reward > the rollout's own reward. */
  wins: number;
  winRate: number;
  winCI: [number, number];
  /** Mean of (probe reward − own reward). */
  meanDelta: number;
  /** Probe rows whose reward failed (threw, timed out, not a number) or was null. */
  failed: number;
  fooled: boolean;
}

/**
 * One probe's figures. `rows[j]` is the dataset row probe position j was made from; `probeScores`/`probeStatus` are
 * the probe run's (by position), `scores`/`status` the real run's (by row).
 */
export function probeFigures(
  name: string,
  kind: ProbeKind,
  rows: Int32Array,
  probeScores: Float64Array,
  probeStatus: Uint8Array,
  scores: Float64Array,
  status: Uint8Array,
  threshold: number,
  maxRate = DEFAULT_MAX_RATE,
): ProbeFigures {
  let n = 0;
  let passes = 0;
  let wins = 0;
  let delta = 0;
  let failed = 0;
  for (let j = 0; j < rows.length; j++) {
    if (probeStatus[j] !== RowStatus.Ok) {
      failed++;
      continue;
    }
    const r = rows[j];
    if (status[r] !== RowStatus.Ok) continue;
    const p = probeScores[j];
    const own = scores[r];
    n++;
    if (p >= threshold) passes++;
    if (p > own) wins++;
    delta += p - own;
  }
  const passRate = n > 0 ? passes / n : Number.NaN;
  const winRate = n > 0 ? wins / n : Number.NaN;
  const rate = kind === 'replace' ? passRate : winRate;
  return {
    name,
    kind,
    n,
    passes,
    passRate,
    passCI: wilsonInterval(passes, n),
    wins,
    winRate,
    winCI: wilsonInterval(wins, n),
    meanDelta: n > 0 ? delta / n : Number.NaN,
    failed,
    fooled: n > 0 && rate > maxRate,
  };
}
