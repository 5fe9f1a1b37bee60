import { useEffect, useState } from 'react';
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

/**
 * How long a run must have been shown running before the charts are marked out of date ("updating…", dimmed). A
 * TypeScript run is shown running 150 ms after Run (app/studio.ts), so its charts dim a quarter second after Run.
 */
export const STALE_AFTER_MS = 100;

/**
 * Whether a run is shown running and has been for STALE_AFTER_MS: a run of 100,000 rows often ends sooner, and marking
 * the charts then unmarking them would only flash and make the browser repaint them while the workers need the cores.
 */
export function useRunningLong(): boolean {
  const running = useStudio((s) => s.running !== null);
  const [long, setLong] = useState(false);
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setLong(true), STALE_AFTER_MS);
    return () => {
      clearTimeout(timer);
      setLong(false);
    };
  }, [running]);
  return running && long;
}
