/**
 * Raw and shaped side by side: the same distribution, length and collapse figures for each, plus the low-std groups
 * and the zero-variance breakdown with truncation as its own cause. What the Shaping tab shows and the CLI prints.
 */
import type { PresetId } from '../stats/advantage';
import { collapse } from '../stats/collapse';
import { pearson, spearman, withinGroupPearson } from '../stats/correlation';
import { describe } from '../stats/describe';
import { truncatedRows } from '../stats/truncation';
import { lowStdGroups } from './lowStd';
import type { LengthUnit, ShapeSpec } from './spec';

export interface ShapingSide {
  reward: { mean: number; std: number; min: number; max: number; distinct: number };
  length: { pearson: number; spearman: number; withinGroupPearson: number };
  collapse: {
    zeroStdGroupFraction: number;
    allMaxFraction: number;
    allMinFraction: number;
    truncatedZeroStdFraction: number;
    otherZeroStdFraction: number;
    nearZeroStdGroupFraction: number;
    zeroAdvantageRolloutFraction: number;
  };
  lowStd: { floor: number; groups: number; fraction: number; maxAbsAdvantage: number };
}

export interface SideInput {
  groupOf: Int32Array;
  groupCount: number;
  /** The lengths the Length figures use (the unit the caller shows). */
  lengths: ArrayLike<number>;
  preset: PresetId;
  /** Per row 1 truncated / 0, or null when unknown (shapingTruncation). */
  truncated: Uint8Array | null;
  /** Low-std floor; null: 1e-3 of this side's reward range. */
  floor?: number | null;
}

/**
 * Whether two score columns hold the same values (NaN equal to NaN): then their sides are the same figures, and a
 * caller with both computes one (no shaping at all leaves the raw scores as they were, and a side of a million rows
 * takes a second).
 */
export function sameScores(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i]) && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/** The figures of one side; `scores` are NaN where a row is not scored. */
export function shapingSide(scores: Float64Array, s: SideInput): ShapingSide {
  const d = describe(scores);
  const c = collapse(scores, s.groupOf, s.groupCount, s.preset, s.truncated);
  const low = lowStdGroups(scores, s.groupOf, s.groupCount, s.preset, s.floor ?? null);
  return {
    reward: { mean: d.mean, std: d.std, min: d.min, max: d.max, distinct: d.distinct },
    length: {
      pearson: pearson(scores, s.lengths),
      spearman: spearman(scores, s.lengths),
      withinGroupPearson: withinGroupPearson(scores, s.lengths, s.groupOf, s.groupCount).mean,
    },
    collapse: {
      zeroStdGroupFraction: c.zeroStdGroupFraction,
      allMaxFraction: c.allMaxFraction,
      allMinFraction: c.allMinFraction,
      truncatedZeroStdFraction: c.truncatedZeroStdFraction,
      otherZeroStdFraction: c.otherZeroStdFraction,
      nearZeroStdGroupFraction: c.nearZeroStdGroupFraction,
      zeroAdvantageRolloutFraction: c.zeroAdvantageRolloutFraction,
    },
    lowStd: { floor: low.floor, groups: low.groups, fraction: low.fraction, maxAbsAdvantage: low.maxAbsAdvantage },
  };
}

/**
 * Which rows count as truncated for the breakdown: the row's finish reason / truncated flag where the data has one
 * (`fromFields`, see stats/truncation), else length ≥ the first dapo-overlong's max L (in its unit) when the list
 * has one, else unknown (null). `source` says which, for the label next to the figure.
 */
export function shapingTruncation(
  fromFields: ArrayLike<number> | null,
  lengths: Partial<Record<LengthUnit, ArrayLike<number>>>,
  specs: readonly ShapeSpec[],
): { truncated: Uint8Array | null; source: 'fields' | 'dapo-max' | 'unknown' } {
  const dapo = specs.find((s) => s.name === 'dapo-overlong');
  const len = dapo ? lengths[dapo.unit] : undefined;
  const n = fromFields?.length ?? len?.length ?? 0;
  const anyField = fromFields ? Array.prototype.some.call(fromFields, (v: number) => v === 0 || v === 1) : false;
  const t = truncatedRows(fromFields, len ?? new Float64Array(n), dapo && len ? dapo.max : null);
  return { truncated: t, source: t === null ? 'unknown' : anyField ? 'fields' : 'dapo-max' };
}
