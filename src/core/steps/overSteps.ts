/**
 * Figures of a training run over its steps (issue 24): per step the reward, its collapse, lengths, truncation and
 * the label, and the step where the reward keeps rising while the label falls. Pure functions over columns, so the
 * studio, the CLI's --by-step and a merge of partial results can all call the same code.
 */
import type { PresetId } from '../stats/advantage';
import { collapseByStep, type Collapse } from '../stats/collapse';
import { describe, moments } from '../stats/describe';
import { labelAgreement } from '../stats/label';
import { stepRows } from '../stats/stepRows';

export { rowsByStep, stepIndex, stepRows } from '../stats/stepRows';

export interface StepColumns {
  /** Reward per row, NaN where it does not count (status not ok: see stats/scored). */
  scores: ArrayLike<number>;
  groupOf: Int32Array;
  groupCount: number;
  /** Training step per row; rows with a non-finite step are left out of every figure. */
  steps: ArrayLike<number>;
  /** Completion length per row (characters or tokens, as the caller chose). */
  lengths: ArrayLike<number>;
  /** Trusted label per row (NaN where missing); null when there is no label column. */
  labels?: ArrayLike<number> | null;
  /** Per row 1 truncated / 0 not (stats/truncation truncatedRows); null when unknown. */
  truncated?: Uint8Array | null;
  /** Reward components or reward functions by name, NaN where a row has none. */
  components?: Readonly<Record<string, ArrayLike<number>>>;
  preset?: PresetId;
}

export interface MeanStd {
  /** Finite values counted. */
  n: number;
  mean: number;
  /** Population std (ddof 0), as diagnose() reports the reward's. */
  std: number;
}

export interface StepFigures {
  step: number;
  /** Rows carrying this step (scored or not). */
  rows: number;
  /** Distinct groups among those rows. */
  groups: number;
  reward: MeanStd;
  /** Per component / reward function: mean ± std of its finite values at this step. */
  components: Record<string, MeanStd>;
  /** collapse() of the step's rows (the fractions; which groups and their sizes are left out). */
  collapse: Omit<Collapse, 'groups' | 'sizeHistogram' | 'collapsedGroups'>;
  /** Completion length over every row of the step: mean and p95 (numpy 'linear' quantile). */
  length: { mean: number; p95: number };
  /** Truncated rows / rows; null without a truncation column. */
  truncated: number | null;
  /**
   * With a label column: accuracy = mean of the finite labels at this step; agreement = labelAgreement of reward vs
   * label (null unless both are 0/1); gap = reward mean − accuracy (the proxy-vs-label divergence). Null without labels.
   */
  label: { n: number; accuracy: number; agreement: number | null; gap: number } | null;
}

/** Changes in a row the divergence rule asks for. */
export const DIVERGENCE_WINDOW = 3;

export const DIVERGENCE_RULE =
  `the first step s at which, over the last ${DIVERGENCE_WINDOW} step-to-step changes ending at s, the mean reward rose every time ` +
  `and the label's mean (accuracy) fell every time (strictly; steps without both figures are skipped)`;

export interface Divergence {
  /** The step where the pattern completes. */
  step: number;
  /** The step the window starts from (DIVERGENCE_WINDOW changes before). */
  from: number;
  rule: string;
}

export interface OverSteps {
  steps: StepFigures[];
  divergence: Divergence | null;
}

/** Distinct finite steps, counted up to `atMost` (cheap when only "two or more?" matters). O(n). */
export function countSteps(steps: ArrayLike<number>, atMost = Infinity): number {
  const seen = new Set<number>();
  for (let i = 0; i < steps.length && seen.size < atMost; i++) if (Number.isFinite(steps[i])) seen.add(steps[i]);
  return seen.size;
}

/** Every per-step figure (see StepFigures) and the divergence flag. O(n log n). */
export function overSteps(c: StepColumns): OverSteps {
  const n = c.scores.length;
  for (const [what, col] of [
    ['groupOf', c.groupOf],
    ['steps', c.steps],
    ['lengths', c.lengths],
    ['labels', c.labels],
    ['truncated', c.truncated],
    ...Object.entries(c.components ?? {}),
  ] as [string, ArrayLike<number> | null | undefined][]) {
    if (col && col.length !== n) throw new RangeError(`overSteps: column ${what} has ${col.length} rows, scores ${n}`);
  }
  const rows = stepRows(c.steps);
  const { values, start, order } = rows;
  const byStep = collapseByStep(c.scores, c.groupOf, c.groupCount, c.steps, c.preset ?? 'trl', c.truncated ?? null, rows);
  const names = Object.keys(c.components ?? {});
  const seen = new Uint8Array(c.groupCount);
  const out: StepFigures[] = [];
  for (let s = 0; s < values.length; s++) {
    const lo = start[s];
    const m = start[s + 1] - lo;
    const take = (col: ArrayLike<number>) => {
      const a = new Float64Array(m);
      for (let j = 0; j < m; j++) a[j] = col[order[lo + j]];
      return a;
    };
    let groups = 0;
    for (let j = 0; j < m; j++) {
      const g = c.groupOf[order[lo + j]];
      if (g >= 0 && g < c.groupCount && !seen[g]) {
        seen[g] = 1;
        groups++;
      }
    }
    for (let j = 0; j < m; j++) {
      const g = c.groupOf[order[lo + j]];
      if (g >= 0 && g < c.groupCount) seen[g] = 0;
    }
    const r = take(c.scores);
    const reward = moments(r);
    const components: Record<string, MeanStd> = Object.create(null) as Record<string, MeanStd>;
    for (const name of names) components[name] = moments(take(c.components![name]));
    const len = describe(take(c.lengths));
    let truncated: number | null = null;
    if (c.truncated) {
      let k = 0;
      for (let j = 0; j < m; j++) k += c.truncated[order[lo + j]] === 1 ? 1 : 0;
      truncated = k / m;
    }
    let label: StepFigures['label'] = null;
    if (c.labels) {
      const l = take(c.labels);
      const acc = moments(l);
      label = { n: acc.n, accuracy: acc.mean, agreement: labelAgreement(r, l), gap: reward.mean - acc.mean };
    }
    const col = byStep[s].collapse;
    out.push({
      step: values[s],
      rows: m,
      groups,
      reward,
      components,
      collapse: {
        zeroStdGroupFraction: col.zeroStdGroupFraction,
        allMaxFraction: col.allMaxFraction,
        allMinFraction: col.allMinFraction,
        otherZeroStdFraction: col.otherZeroStdFraction,
        truncatedZeroStdFraction: col.truncatedZeroStdFraction,
        nearZeroStdGroupFraction: col.nearZeroStdGroupFraction,
        zeroAdvantageRolloutFraction: col.zeroAdvantageRolloutFraction,
      },
      length: { mean: len.mean, p95: len.quantiles.q95 },
      truncated,
      label,
    });
  }
  return { steps: out, divergence: divergence(out.map((f) => ({ step: f.step, reward: f.reward.mean, label: f.label?.accuracy ?? NaN }))) };
}

/**
 * The divergence flag (DIVERGENCE_RULE): over the steps where both the reward mean and the label mean are finite, in
 * step order, the first step ending DIVERGENCE_WINDOW consecutive changes that each raised the reward and lowered the
 * label. Null when there is none (or no label). Strict rises and falls: a flat stretch breaks the run.
 */
export function divergence(series: readonly { step: number; reward: number; label: number }[], window = DIVERGENCE_WINDOW): Divergence | null {
  const pts = series.filter((p) => Number.isFinite(p.reward) && Number.isFinite(p.label));
  let run = 0;
  for (let j = 1; j < pts.length; j++) {
    run = pts[j].reward > pts[j - 1].reward && pts[j].label < pts[j - 1].label ? run + 1 : 0;
    if (run >= window) return { step: pts[j].step, from: pts[j - window].step, rule: DIVERGENCE_RULE };
  }
  return null;
}
