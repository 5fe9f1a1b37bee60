import { useState } from 'react';
import { labelRun } from '../../app/runLabels';
import { RUN_NAME_MAX, RUN_NOTE_MAX } from '../../core/session/runLabels';
import { useStudio } from '../../store';
import { mergeOrigins } from '../../store/sessionSlice';
import type { RunRecord } from '../../store/runsSlice';
import { runLabel } from './runLabel';

/** Every run is kept: pick one to see its results again, name it, write a note on it, and bring its code back into the editor. */
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
            <option key={r.id} value={r.id} title={r.note}>
              {runLabel(r)}
            </option>
          ))}
        </select>
      </label>
      {current ? <RunLabels key={current.id} run={current} /> : null}
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

/** The selected run's name (typed in place) and note (in a small panel the Note button opens). */
function RunLabels({ run }: { run: RunRecord }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <input
        type="text"
        className="run-name"
        aria-label="Run name"
        placeholder="name this run"
        maxLength={RUN_NAME_MAX}
        value={run.name ?? ''}
        onChange={(e) => labelRun(run.id, { name: e.target.value })}
      />
      <span className="run-note-anchor">
        <button type="button" aria-expanded={open} title={run.note} onClick={() => setOpen(!open)}>
          {run.note ? 'Note' : 'Add note'}
        </button>
        {open ? (
          <div
            className="run-note-pop"
            onKeyDown={(e) => {
              if (e.key === 'Escape') setOpen(false);
            }}
          >
            <textarea
              aria-label="Run note"
              placeholder={`What run #${run.id} tried, what it showed…`}
              maxLength={RUN_NOTE_MAX}
              rows={5}
              value={run.note ?? ''}
              // The panel opens to write in it.
              autoFocus
              onChange={(e) => labelRun(run.id, { note: e.target.value })}
            />
            <span className="muted small">
              {(run.note ?? '').length} / {RUN_NOTE_MAX} · kept with the session, its file and share links
            </span>
          </div>
        ) : null}
      </span>
    </>
  );
}
