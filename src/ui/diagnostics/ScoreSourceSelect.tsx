import { useStudio } from '../../store';
import type { ScoreSource } from './useScoreSources';

/** The source picked in "Scores from": the stored pick while it exists, else the first (the current run). */
export function usePickedSource(sources: ScoreSource[]): ScoreSource | null {
  const picked = useStudio((s) => s.scoreSource);
  return sources.find((s) => s.id === picked) ?? sources[0] ?? null;
}

/** The "Scores from" menu shared by the Preference and Best-of-N tabs. */
export function ScoreSourceSelect({ sources, value }: { sources: ScoreSource[]; value: ScoreSource }) {
  const setPicked = useStudio((s) => s.setScoreSource);
  return (
    <label>
      Scores from{' '}
      <select
        aria-label="Scores from"
        value={value.id}
        // Picking the first entry means "the current run": the pick is cleared so that the tab follows the next run.
        onChange={(e) => setPicked(e.target.value === sources[0]?.id ? null : e.target.value)}
      >
        {sources.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label}
          </option>
        ))}
      </select>
    </label>
  );
}
