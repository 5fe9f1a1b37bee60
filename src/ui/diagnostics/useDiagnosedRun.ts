import { summarizeRun } from '../../core/reward/summary';
import type { RowError } from '../../core/reward/runRows';
import { modelScoreColumn } from '../../app/models';
import { ensembleAsRun, ensembleKindOf, ensembleOf } from '../../app/ensemble';
import { useStudio } from '../../store';
import type { ModelEntry } from '../../store/modelsSlice';
import type { RunRecord } from '../../store/runsSlice';
import { useCurrentRun } from './useRuns';

const asRuns = new WeakMap<Float64Array, RunRecord>();

/** A model's scores in the shape of a run, so every diagnostic can show them as it shows a reward (memoized). */
export function modelAsRun(m: ModelEntry): RunRecord | null {
  const s = m.scores;
  if (!s) return null;
  const scores = modelScoreColumn(m);
  let run = asRuns.get(scores);
  if (!run) {
    const errors = new Map<number, RowError>([...s.errors].map(([row, message]) => [row, { row, message }]));
    run = {
      id: -1,
      code: '',
      language: 'ts',
      datasetId: s.datasetId,
      startedAt: 0,
      elapsedMs: s.elapsedMs,
      cancelled: s.cancelled,
      summary: summarizeRun(scores, s.status),
      result: { scores, status: s.status, errors, components: {}, notes: new Map(), stdout: '' },
    };
    asRuns.set(scores, run);
  }
  return run;
}

/** What the diagnostics show: the current reward run, or the scores of the model (or ensemble column) picked under "Scores". */
export function useDiagnosedRun(): RunRecord | null {
  const current = useCurrentRun();
  const model = useStudio((s) => (s.diagSource ? s.models.find((m) => m.id === s.diagSource) : undefined));
  const kind = useStudio((s) => ensembleKindOf(s.diagSource));
  const models = useStudio((s) => s.models);
  const datasetId = useStudio((s) => s.datasetId);
  if (kind) {
    const e = ensembleOf(models, datasetId);
    return e && datasetId ? ensembleAsRun(e, kind, datasetId) : null;
  }
  if (!model) return current;
  const run = modelAsRun(model);
  return run && run.datasetId === datasetId ? run : null;
}
