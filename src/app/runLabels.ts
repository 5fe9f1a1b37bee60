import { useStudio } from '../store';
import { session } from './sessions/state';

/**
 * Name or note a run. Runs are written to the session once, when they end: a run already written is marked, so the
 * next (debounced) save writes it again with its new name and note.
 */
export function labelRun(id: number, labels: { name?: string; note?: string }): void {
  const s = useStudio.getState();
  s.setRunLabels(id, labels);
  const key = `${s.sessionId}/${id}`;
  if (s.sessionId && session.savedRuns.has(key)) session.relabelled.add(key);
}
