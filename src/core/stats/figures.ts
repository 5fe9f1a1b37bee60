/**
 * What each diagnostics tab draws, as one job: its inputs (typed arrays and a few scalars) in, its figures out. The
 * same function runs on the page for small data and in the stats worker for large data (app/figures), so a tab shows
 * the same numbers either way. Only compositions of the tested functions in core/stats and core/shaping live here.
 */
import { shapingSide, type ShapingSide } from '../shaping/compare';
import { advantages, type PresetId } from './advantage';
import { binnedMeans, type MeanBin } from './binnedMeans';
import { collapse, collapseByStep, groupStats, type Collapse, type GroupStats } from './collapse';
import { compareRuns, type RunComparison } from './compare';
import { pearson, spearman, withinGroupPearson } from './correlation';
import { describe, type Description } from './describe';
import { histogram, overlayHistogram, type Histogram } from './histogram';
import { sampleRows, sampleRowsPinned } from './sample';

/** Points drawn in a scatter (sampled evenly over the scored rows); the statistics use every row. */
export const MAX_POINTS = 3000;

export interface Point {
  x: number;
  y: number;
  row: number;
}

export type FigureJob =
  | { kind: 'distribution'; values: Float64Array; others: Float64Array[] }
  | { kind: 'histogram'; values: Float64Array; maxBins: number }
  | { kind: 'component'; values: Float64Array }
  | { kind: 'length'; values: Float64Array; lengths: Int32Array | Float64Array; groupOf: Int32Array; groupCount: number }
  | { kind: 'collapse'; values: Float64Array; groupOf: Int32Array; groupCount: number; preset: PresetId; steps: Float64Array | null }
  | {
      kind: 'shaping-side';
      values: Float64Array;
      groupOf: Int32Array;
      groupCount: number;
      lengths: Int32Array | Float64Array;
      preset: PresetId;
      truncated: Uint8Array | null;
      floor: number | null;
    }
  | { kind: 'compare'; a: Float64Array; b: Float64Array };

export interface DistributionFigures {
  /** Bins shared by `values` and `others`; counts[0] is `values`', then one per other run. */
  overlay: { histogram: Histogram; counts: number[][] };
  description: Description;
}

/** A reward component's small histogram (at most 20 bins) and its mean over the finite values. */
export interface ComponentFigures {
  histogram: Histogram;
  mean: number;
}

export interface LengthFigures {
  pearson: number;
  spearman: number;
  within: { mean: number; groups: number };
  points: Point[];
  /** Mean reward per length bin over every scored row, the histogram those bins are of, and the scored rows' lengths. */
  bins: MeanBin[];
  h: Histogram;
  scoredLengths: Float64Array;
}

export interface StepPoint {
  step: number;
  meanReward: number;
  zeroStd: number;
  nearZeroStd: number;
  zeroAdvantage: number;
}

export interface CollapseFigures {
  stats: GroupStats;
  advantages: Float64Array;
  collapse: Collapse;
  advantageHistogram: Histogram;
  /** Per training step (null without steps). */
  perStep: StepPoint[] | null;
}

export type CompareFigures = RunComparison & { points: Point[] };

export interface FigureOf {
  distribution: DistributionFigures;
  histogram: Histogram;
  component: ComponentFigures;
  length: LengthFigures;
  collapse: CollapseFigures;
  'shaping-side': ShapingSide;
  compare: CompareFigures;
}

export type FigureKind = FigureJob['kind'];

/** The rows a job covers (what decides whether it is worth a trip to the worker). */
export function jobRows(job: FigureJob): number {
  return job.kind === 'compare' ? job.a.length : job.values.length;
}

/** The figures of one job. */
export function figuresOf<K extends FigureKind>(job: FigureJob & { kind: K }): FigureOf[K];
export function figuresOf(job: FigureJob): FigureOf[FigureKind];
export function figuresOf(job: FigureJob): FigureOf[FigureKind] {
  switch (job.kind) {
    case 'distribution':
      return { overlay: overlayHistogram([job.values, ...job.others]), description: describe(job.values) };
    case 'histogram':
      return histogram(job.values, { maxBins: job.maxBins });
    case 'component':
      return { histogram: histogram(job.values, { maxBins: 20 }), mean: describe(job.values).mean };
    case 'length': {
      const { values, lengths } = job;
      const points = sampleRows(values.length, (i) => !Number.isNaN(values[i]), MAX_POINTS).map((i) => ({ x: lengths[i], y: values[i], row: i }));
      // Binned means over every scored row: length bins as the histogram picks them, mean reward per bin.
      const { bins, histogram: h, xs } = binnedMeans(lengths, values);
      return {
        pearson: pearson(lengths, values),
        spearman: spearman(lengths, values),
        within: withinGroupPearson(lengths, values, job.groupOf, job.groupCount),
        points,
        bins,
        h,
        scoredLengths: xs,
      };
    }
    case 'collapse': {
      const { values, groupOf, groupCount, preset } = job;
      const stats = groupStats(values, groupOf, groupCount);
      const adv = advantages(values, groupOf, groupCount, preset);
      // The statistics and advantages above, not computed a second time inside collapse (each is ~0.1 s at 1M rows).
      const c = collapse(values, groupOf, groupCount, preset, null, { stats, advantages: adv });
      const perStep = job.steps
        ? collapseByStep(values, groupOf, groupCount, job.steps, preset).map((s) => ({
            step: s.step,
            meanReward: s.meanReward,
            zeroStd: s.collapse.zeroStdGroupFraction,
            nearZeroStd: s.collapse.nearZeroStdGroupFraction,
            zeroAdvantage: s.collapse.zeroAdvantageRolloutFraction,
          }))
        : null;
      return { stats, advantages: adv, collapse: c, advantageHistogram: histogram(adv, { maxBins: 40 }), perStep };
    }
    case 'shaping-side': {
      const { values, ...side } = job;
      return shapingSide(values, side);
    }
    case 'compare': {
      const { a, b } = job;
      const cmp = compareRuns(a, b);
      // Rows that changed first, so they are always drawn; then an even sample of the rest.
      const rows = sampleRowsPinned(cmp.changed, a.length, (i) => !Number.isNaN(a[i]) && !Number.isNaN(b[i]), MAX_POINTS);
      return { ...cmp, points: rows.map((i) => ({ x: a[i], y: b[i], row: i })) };
    }
  }
}
