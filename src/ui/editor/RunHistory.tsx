import { useStudio } from '../../store';
import { mergeOrigins } from '../../store/sessionSlice';
import { runLabel } from './runLabel';

/** Every run is kept: pick one to see its results again, and bring its code back into the editor. */
export function RunHistory() {
  const runs = useStudio((s) => s.runs);
  const datasetId = useStudio((s) => s.datasetId);
  const currentRunId = useStudio((s) => s.currentRunId);
  const selectRun = useStudio((s) => s.selectRun);
  const setCode = useStudio((s) => s.setCode);
  const code = useStudio((s) => s.code);
  const setLanguage = useStudio((s) => s.setLanguage);
  const setOrigin = useStudio((s) => s.setOrigin);
  const mine = runs.filter((r) => r.datasetId === datasetId);
  const current = mine.find((r) => r.id === currentRunId);
  if (mine.length === 0) return null;
  return (
    <div className="run-history">
      <label>
        Run{' '}
        <select aria-label="Run history" value={current?.id ?? ''} onChange={(e) => selectRun(Number(e.target.value))}>
          {[...mine].reverse().map((r) => (
            <option key={r.id} value={r.id}>
              {runLabel(r)}
            </option>
          ))}
        </select>
      </label>
      {current && current.code !== code ? (
        <button
          type="button"
          onClick={() => {
            setLanguage(current.language);
            // A run that came in a session file brings back the file's code: it waits for Run again.
            if (current.from) {
              const origin = useStudio.getState().origin;
              setOrigin(mergeOrigins(origin, { from: current.from, at: Date.now(), run: null, languages: [current.language] }));
            }
            setCode(current.code);
          }}
          title="Put this run's code back into the editor"
        >
          Restore code
        </button>
      ) : null}
    </div>
  );
}
