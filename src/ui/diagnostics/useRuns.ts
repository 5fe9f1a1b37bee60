import { getDataset } from '../../runtime/datasetRegistry';
import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';
import { useCurrentRun } from '../charts/useCurrentRun';

export { useCurrentRun };

/** The loaded dataset (typed-array columns), or null. */
export function useDataset() {
  const id = useStudio((s) => s.datasetId);
  return getDataset(id);
}

/** The run before `run` in the history on the same dataset, or null. */
export function usePreviousRun(run: RunRecord | null): RunRecord | null {
  return useStudio((s) => {
    if (!run) return null;
    const same = s.runs.filter((r) => r.datasetId === run.datasetId && r.id < run.id && !r.cancelled);
    return same.length ? same[same.length - 1] : null;
  });
}
