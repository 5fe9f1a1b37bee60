/**
 * The `steps` and `divergence` of `reward-studio score --by-step --json`, from columns alone: score and a merge of
 * partial results call this one function, so their output is the same. Non-finite numbers become null.
 */
import { overSteps, type StepColumns } from './overSteps';

const num = (x: number | null) => (x === null || !Number.isFinite(x) ? null : x);

type N = number | null;
type MeanStdJson = { mean: N; std: N };

/** One step of `steps` in the JSON. */
export interface StepJson {
  step: number;
  rows: number;
  groups: number;
  reward: MeanStdJson;
  collapse: {
    zeroStdGroupFraction: N;
    allMaxFraction: N;
    allMinFraction: N;
    otherZeroStdFraction: N;
    truncatedZeroStdFraction: N;
    nearZeroStdGroupFraction: N;
    zeroAdvantageRolloutFraction: N;
  };
  label: { agreement: N; accuracy: N; gap: N } | null;
  length: { mean: N; p95: N };
  truncated: N;
  components?: Record<string, MeanStdJson>;
}

export interface StepsJson {
  steps: StepJson[];
  divergence: { step: number; from: number; rule: string } | null;
}

/** overSteps(columns) in the CLI's JSON shape (README "Over steps"): the keys first, then components. */
export function stepsJson(c: StepColumns): StepsJson {
  const r = overSteps(c);
  const steps = r.steps.map((s): StepJson => {
    const comps = Object.entries(s.components);
    return {
      step: s.step,
      rows: s.rows,
      groups: s.groups,
      reward: { mean: num(s.reward.mean), std: num(s.reward.std) },
      collapse: {
        zeroStdGroupFraction: num(s.collapse.zeroStdGroupFraction),
        allMaxFraction: num(s.collapse.allMaxFraction),
        allMinFraction: num(s.collapse.allMinFraction),
        otherZeroStdFraction: num(s.collapse.otherZeroStdFraction),
        truncatedZeroStdFraction: num(s.collapse.truncatedZeroStdFraction),
        nearZeroStdGroupFraction: num(s.collapse.nearZeroStdGroupFraction),
        zeroAdvantageRolloutFraction: num(s.collapse.zeroAdvantageRolloutFraction),
      },
      label: s.label === null ? null : { agreement: num(s.label.agreement), accuracy: num(s.label.accuracy), gap: num(s.label.gap) },
      length: { mean: num(s.length.mean), p95: num(s.length.p95) },
      truncated: num(s.truncated),
      ...(comps.length > 0 ? { components: Object.fromEntries(comps.map(([k, v]) => [k, { mean: num(v.mean), std: num(v.std) }])) } : {}),
    };
  });
  return { steps, divergence: r.divergence };
}
