import { useMemo } from 'react';
import { modelScoreColumn } from '../../app/models';
import { ENSEMBLE_KINDS, ensembleAsRun, ensembleOf, ensembleSourceId } from '../../app/ensemble';
import { useStudio } from '../../store';
import { runLabel } from '../editor/runLabel';

/**
 * One column of scores over the loaded dataset that a diagnostic can rank rollouts by: a run of reward code, or a
 * reward model's scores (the logit of its picked label). `scores` and `status` are aligned with the dataset's rows; a row counts only where
 * its status is RowStatus.Ok (core/reward/contract).
 */
export interface ScoreSource {
  /** Stable while the source exists ("run:3"), kept as the user's pick in the store. */
  id: string;
  /** What the "Scores from" menus show. */
  label: string;
  scores: Float64Array;
  status: Uint8Array;
}

/**
 * Every source of scores for the loaded dataset, the one place the Preference and Best-of-N tabs get them from:
 * the current run first, then the other runs of the history, newest first, labelled as the Run history shows them;
 * then each reward model that has scored these rollouts ("Model: tiny_reward"), then with two or more the ensemble's
 * mean, min and std.
 */
export function useScoreSources(): ScoreSource[] {
  const runs = useStudio((s) => s.runs);
  const datasetId = useStudio((s) => s.datasetId);
  const currentRunId = useStudio((s) => s.currentRunId);
  const models = useStudio((s) => s.models);
  return useMemo(() => {
    // Only runs on the loaded data: another dataset's scores are not aligned with these rows.
    const mine = runs.filter((r) => r.datasetId === datasetId);
    const current = mine.find((r) => r.id === currentRunId);
    const ordered = current ? [current, ...mine.filter((r) => r !== current).reverse()] : [...mine].reverse();
    const fromRuns = ordered.map((r) => ({ id: `run:${r.id}`, label: runLabel(r), scores: r.result.scores, status: r.result.status }));
    const fromModels = models
      .filter((m) => m.scores?.datasetId === datasetId)
      .map((m) => ({ id: `model:${m.id}`, label: `Model: ${m.id}`, scores: modelScoreColumn(m), status: m.scores!.status }));
    const e = datasetId ? ensembleOf(models, datasetId) : null;
    const fromEnsemble = e
      ? ENSEMBLE_KINDS.map((k) => {
          const run = ensembleAsRun(e, k.id, datasetId!);
          return { id: ensembleSourceId(k.id), label: k.label, scores: run.result.scores, status: run.result.status };
        })
      : [];
    return [...fromRuns, ...fromModels, ...fromEnsemble];
  }, [runs, datasetId, currentRunId, models]);
}
