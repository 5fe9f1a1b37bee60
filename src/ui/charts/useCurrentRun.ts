import { useStudio } from '../../store';
import type { RunRecord } from '../../store/runsSlice';

/** The selected run of the loaded dataset, or null. */
export function useCurrentRun(): RunRecord | null {
  return useStudio((s) => {
    const r = s.runs.find((x) => x.id === s.currentRunId);
    return r && r.datasetId === s.datasetId ? r : null;
  });
}
