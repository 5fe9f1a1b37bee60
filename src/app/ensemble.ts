/**
 * The loaded reward models as an ensemble (core/models/ensemble): which models take part, their per-rollout mean,
 * min and std, and those columns in the shape of a run so the diagnostics can show them under "Scores shown".
 */
import { ensembleColumns, type EnsembleColumns } from '../core/models/ensemble';
import { RowStatus } from '../core/reward/contract';
import type { RowError } from '../core/reward/runRows';
import { summarizeRun } from '../core/reward/summary';
import type { ModelEntry } from '../store/modelsSlice';
import type { RunRecord } from '../store/runsSlice';
import { modelScoreColumn } from './models';

export const ENSEMBLE_KINDS = [
  { id: 'mean', label: 'Ensemble mean' },
  { id: 'min', label: 'Ensemble min' },
  { id: 'std', label: 'Ensemble std (disagreement)' },
] as const;
export type EnsembleKind = (typeof ENSEMBLE_KINDS)[number]['id'];

/** The "Scores shown" value of an ensemble column: a colon never occurs in a model's id (an identifier). */
export const ensembleSourceId = (kind: EnsembleKind) => `ensemble:${kind}`;
export function ensembleKindOf(source: string | null): EnsembleKind | null {
  const k = source?.startsWith('ensemble:') ? source.slice('ensemble:'.length) : null;
  return ENSEMBLE_KINDS.some((x) => x.id === k) ? (k as EnsembleKind) : null;
}

export interface Ensemble {
  names: string[];
  columns: Float64Array[];
  rows: EnsembleColumns;
}

let last: { key: Float64Array[]; value: Ensemble } | null = null;

/** The models that have scored the loaded dataset, combined; null with fewer than 2 (memoized on their columns). */
export function ensembleOf(models: readonly ModelEntry[], datasetId: string | null): Ensemble | null {
  const members = models.filter((m) => m.scores && m.scores.datasetId === datasetId);
  if (members.length < 2) return null;
  const columns = members.map(modelScoreColumn);
  if (last && last.key.length === columns.length && last.key.every((c, j) => c === columns[j])) return last.value;
  const value = { names: members.map((m) => m.id), columns, rows: ensembleColumns(columns) };
  last = { key: columns, value };
  return value;
}

const asRuns = new WeakMap<Float64Array, RunRecord>();

/** One ensemble column in the shape of a run; a rollout some model has not scored is an error row saying so. */
export function ensembleAsRun(e: Ensemble, kind: EnsembleKind, datasetId: string): RunRecord {
  const scores = e.rows[kind];
  let run = asRuns.get(scores);
  if (run) return run;
  const status = new Uint8Array(scores.length);
  const errors = new Map<number, RowError>();
  for (let i = 0; i < scores.length; i++) {
    if (Number.isNaN(scores[i])) {
      status[i] = RowStatus.Error;
      errors.set(i, { row: i, message: `not scored by every model (${e.names.join(', ')})` });
    } else status[i] = RowStatus.Ok;
  }
  run = {
    id: -1,
    code: '',
    language: 'ts',
    datasetId,
    startedAt: 0,
    elapsedMs: 0,
    cancelled: false,
    summary: summarizeRun(scores, status),
    result: { scores, status, errors, components: {}, notes: new Map(), stdout: '' },
  };
  asRuns.set(scores, run);
  return run;
}
