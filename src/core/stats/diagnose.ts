/** Everything the CLI `--json` prints, composed from the other modules in this folder. */
import { RowStatus } from '../reward/contract';
import type { PresetId } from './advantage';
import { collapse } from './collapse';
import { pearson, spearman, withinGroupPearson } from './correlation';
import { describe } from './describe';
import { labelAgreement } from './label';

export interface DiagnoseInput {
  scores: Float64Array;
  /** RowStatus from ../reward/contract: 1 ok, 2 null, 3 error, 4 timed out (0 pending). */
  status: Uint8Array;
  groupOf: Int32Array;
  groupCount: number;
  lengths: ArrayLike<number>;
  labels?: ArrayLike<number> | null;
  preset?: PresetId;
}

export interface Diagnostics {
  rows: number;
  groups: number;
  errors: number;
  nulls: number;
  reward: { mean: number; std: number; min: number; max: number; distinct: number };
  length: { pearson: number; spearman: number; withinGroupPearson: number };
  collapse: { zeroStdGroupFraction: number; nearZeroStdGroupFraction: number; zeroAdvantageRolloutFraction: number };
  label: { agreement: number | null } | null;
}

const { Ok: OK, Null: NULL, Error: ERROR, TimedOut: TIMED_OUT } = RowStatus;

/**
 * rows = scores.length; groups = groupCount; errors = rows with status error or timed out; nulls = status null.
 * A score counts only when its status is ok (1) and it is finite; every other row is NaN for all that follows.
 * reward = describe() of those scores (std is the population std); length = pearson / spearman of score vs length
 * and the mean within-group Pearson; collapse = collapse() under `preset` (default 'trl'); label = labelCheck()'s
 * agreement (null when the check is not binary, via labelAgreement), or null without labels.
 */
export function diagnose(input: DiagnoseInput): Diagnostics {
  const { scores, status, groupOf, groupCount, lengths } = input;
  const n = scores.length;
  if (status.length !== n || groupOf.length !== n || lengths.length !== n || (input.labels && input.labels.length !== n)) {
    throw new RangeError('diagnose: columns differ in length');
  }
  const s = new Float64Array(n);
  let errors = 0;
  let nulls = 0;
  for (let i = 0; i < n; i++) {
    const st = status[i];
    if (st === ERROR || st === TIMED_OUT) errors++;
    else if (st === NULL) nulls++;
    s[i] = st === OK ? scores[i] : NaN;
  }
  const d = describe(s);
  const c = collapse(s, groupOf, groupCount, input.preset ?? 'trl');
  return {
    rows: n,
    groups: groupCount,
    errors,
    nulls,
    reward: { mean: d.mean, std: d.std, min: d.min, max: d.max, distinct: d.distinct },
    length: {
      pearson: pearson(s, lengths),
      spearman: spearman(s, lengths),
      withinGroupPearson: withinGroupPearson(s, lengths, groupOf, groupCount).mean,
    },
    collapse: {
      zeroStdGroupFraction: c.zeroStdGroupFraction,
      nearZeroStdGroupFraction: c.nearZeroStdGroupFraction,
      zeroAdvantageRolloutFraction: c.zeroAdvantageRolloutFraction,
    },
    label: input.labels ? { agreement: labelAgreement(s, input.labels) } : null,
  };
}
