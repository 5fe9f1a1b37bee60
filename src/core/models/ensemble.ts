/**
 * Reward-model ensembles (Coste et al. 2023, "Reward Model Ensembles Help Mitigate Overoptimization"; Eisenstein et
 * al. 2023, "Helping or Herding?"): per rollout the mean, min and spread of k ≥ 2 models' scores, the conservative
 * ensemble rewards, and where the models disagree most.
 *
 * Rule for missing scores: a rollout enters the ensemble only when EVERY model scored it (NaN = not scored);
 * otherwise its mean, min and std are NaN. The std is the population std across models (ddof = 0, numpy's default),
 * as in Coste et al.'s uncertainty-weighted objective.
 */
import { pearson, spearman } from '../stats/correlation';
import { binnedMeans, type MeanBin } from '../stats/binnedMeans';
import { quantileSorted } from '../stats/histogram';

export interface EnsembleRow {
  mean: number;
  min: number;
  std: number;
}

export interface EnsembleColumns {
  mean: Float64Array;
  min: Float64Array;
  /** Population std across models (ddof 0). */
  std: Float64Array;
  /** Rows every model scored. */
  scored: number;
}

export const MAX_TOP = 1000;

function invalid(name: string, value: unknown): never {
  throw new RangeError(`invalid ${name}: ${String(value)}`);
}

function checkColumns(columns: readonly Float64Array[]): number {
  if (!Array.isArray(columns) || columns.length < 2) invalid('ensemble columns', `${columns?.length ?? 'none'} (need at least 2 models)`);
  const n = columns[0].length;
  columns.forEach((c, j) => {
    if (!(c instanceof Float64Array)) invalid(`ensemble column ${j}`, 'not a Float64Array');
    if (c.length !== n) invalid(`ensemble column ${j}`, `length ${c.length}, expected ${n}`);
  });
  return n;
}

/** Mean, min and population std of one rollout's scores; all NaN unless every score is finite and k ≥ 2. */
export function ensembleOfRow(values: ArrayLike<number>): EnsembleRow {
  const k = values.length;
  if (k < 2) return { mean: NaN, min: NaN, std: NaN };
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let j = 0; j < k; j++) {
    const v = values[j];
    if (!Number.isFinite(v)) return { mean: NaN, min: NaN, std: NaN };
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  // Models that agree exactly have no disagreement, whatever the rounding of their sum.
  if (min === max) return { mean: min, min, std: 0 };
  const mean = sum / k;
  // Two passes: Σ(v − mean)² does not cancel catastrophically as Σv² − k·mean² can.
  let ss = 0;
  for (let j = 0; j < k; j++) ss += (values[j] - mean) ** 2;
  return { mean, min, std: Math.sqrt(ss / k) };
}

/** Per-rollout mean, min and std across the models' score columns (same length each). */
export function ensembleColumns(columns: readonly Float64Array[]): EnsembleColumns {
  const n = checkColumns(columns);
  const k = columns.length;
  const mean = new Float64Array(n);
  const min = new Float64Array(n);
  const std = new Float64Array(n);
  const row = new Float64Array(k);
  let scored = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < k; j++) row[j] = columns[j][i];
    const e = ensembleOfRow(row);
    mean[i] = e.mean;
    min[i] = e.min;
    std[i] = e.std;
    if (!Number.isNaN(e.mean)) scored++;
  }
  return { mean, min, std, scored };
}

export type ConservativeKind = 'mean' | 'worst' | 'uwo';

/**
 * Coste et al.'s conservative ensemble rewards: mean optimisation, worst-case optimisation (min over models) and
 * uncertainty-weighted optimisation mean − λ·std (λ ≥ 0, finite).
 */
export function conservativeReward(e: EnsembleColumns, kind: ConservativeKind, lambda = 0): Float64Array {
  if (kind === 'mean') return e.mean.slice();
  if (kind === 'worst') return e.min.slice();
  if (kind !== 'uwo') invalid('conservative kind', kind);
  if (typeof lambda !== 'number' || !Number.isFinite(lambda) || lambda < 0) invalid('lambda', lambda);
  const out = new Float64Array(e.mean.length);
  for (let i = 0; i < out.length; i++) out[i] = e.mean[i] - lambda * e.std[i];
  return out;
}

export interface EnsemblePair {
  a: string;
  b: string;
  /** Over the rollouts both models scored. */
  pearson: number;
  spearman: number;
}

export interface DisagreementRow {
  index: number;
  std: number;
  mean: number;
  min: number;
}

export interface GroupDisagreement {
  group: number;
  meanStd: number;
  n: number;
}

export interface EnsembleSummary {
  models: string[];
  /** Rollouts every model scored. */
  scored: number;
  /** Mean over those rollouts of the per-rollout std across models. */
  meanStd: number;
  /** numpy-linear quantiles of the per-rollout std, and its max. */
  stdQuantiles: { q50: number; q90: number; q99: number; max: number };
  pairs: EnsemblePair[];
  /** Rollouts with the largest std, largest first (ties: lower index first). */
  top: DisagreementRow[];
  /** Mean std per length bin (only with lengths). */
  byLength: MeanBin[];
  /** Groups with the largest mean std, largest first (only with groups; ties: lower group first). */
  byGroup: GroupDisagreement[];
}

export interface EnsembleSummaryOptions {
  lengths?: ArrayLike<number>;
  groupOf?: Int32Array;
  groupCount?: number;
  topN?: number;
  maxBins?: number;
}

function checkCount(name: string, v: unknown, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) invalid(name, v);
  return v;
}

/** The Ensemble card's figures, from model names and their aligned score columns. */
export function ensembleSummary(names: readonly string[], columns: readonly Float64Array[], opts: EnsembleSummaryOptions = {}): EnsembleSummary {
  const n = checkColumns(columns);
  if (names.length !== columns.length || new Set(names).size !== names.length) invalid('ensemble names', names.join(', '));
  const topN = checkCount('topN', opts.topN ?? 20, MAX_TOP);
  const maxBins = checkCount('maxBins', opts.maxBins ?? 30, 200);
  const e = ensembleColumns(columns);

  const idx: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isNaN(e.std[i])) continue;
    idx.push(i);
    sum += e.std[i];
  }
  const sorted = Float64Array.from(idx, (i) => e.std[i]).sort();
  const stdQuantiles = {
    q50: quantileSorted(sorted, 0.5),
    q90: quantileSorted(sorted, 0.9),
    q99: quantileSorted(sorted, 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
  idx.sort((i, j) => e.std[j] - e.std[i] || i - j);
  const top = idx.slice(0, topN).map((i) => ({ index: i, std: e.std[i], mean: e.mean[i], min: e.min[i] }));

  const pairs: EnsemblePair[] = [];
  for (let a = 0; a < columns.length; a++)
    for (let b = a + 1; b < columns.length; b++)
      pairs.push({ a: names[a], b: names[b], pearson: pearson(columns[a], columns[b]), spearman: spearman(columns[a], columns[b]) });

  let byLength: MeanBin[] = [];
  if (opts.lengths) {
    if (opts.lengths.length !== n) invalid('lengths', `length ${opts.lengths.length}, expected ${n}`);
    byLength = binnedMeans(opts.lengths, e.std, maxBins).bins;
  }

  let byGroup: GroupDisagreement[] = [];
  if (opts.groupOf) {
    const g = opts.groupOf;
    const count = opts.groupCount ?? 0;
    if (g.length !== n || !Number.isInteger(count) || count < 0) invalid('groups', `${g.length} rows, ${count} groups`);
    const sums = new Float64Array(count);
    const counts = new Int32Array(count);
    for (const i of idx) {
      const k = g[i];
      if (k < 0 || k >= count) continue;
      sums[k] += e.std[i];
      counts[k]++;
    }
    for (let k = 0; k < count; k++) if (counts[k]) byGroup.push({ group: k, meanStd: sums[k] / counts[k], n: counts[k] });
    byGroup.sort((x, y) => y.meanStd - x.meanStd || x.group - y.group);
    byGroup = byGroup.slice(0, topN);
  }

  return { models: [...names], scored: e.scored, meanStd: idx.length ? sum / idx.length : NaN, stdQuantiles, pairs, top, byLength, byGroup };
}
