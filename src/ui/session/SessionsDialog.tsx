import { useCallback, useEffect, useState } from 'react';
import type { SessionDoc } from '../../core/session/schema';
import { useStudio } from '../../store';
import { listSessions, newSession, openCopy, removeSession, switchSession } from '../../app/sessions/open';
import { openElsewhere } from '../../app/sessions/tabs';
import { Dialog } from '../layout/Dialog';

const when = (ms: number) => new Date(ms).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

function dataLabel(d: SessionDoc['data']): string {
  switch (d.kind) {
    case 'demo':
      return 'GSM8K demo · 800 rollouts';
    case 'none':
      return 'no data';
    default:
      return `${d.name} · ${d.rows.toLocaleString('en-US')} rollouts`;
  }
}

/** Every saved session: open one, start a new one, rename the current one, delete. */
export function SessionsDialog({ onClose }: { onClose(): void }) {
  const currentId = useStudio((s) => s.sessionId);
  const name = useStudio((s) => s.sessionName);
  const setName = useStudio((s) => s.setSessionName);
  const [sessions, setSessions] = useState<SessionDoc[] | null>(null);
  const [invalid, setInvalid] = useState<string[]>([]);
  /** Sessions another tab is working on: they open here as a copy and are not deleted from here. */
  const [elsewhere, setElsewhere] = useState<Set<string>>(new Set());
  const read = useCallback(() => Promise.all([listSessions(), openElsewhere()]), []);
  const show = useCallback(([r, busy]: Awaited<ReturnType<typeof read>>) => {
    setSessions(r.sessions);
    setInvalid(r.invalid);
    setElsewhere(busy);
  }, []);
  const refresh = useCallback(() => read().then(show), [read, show]);
  useEffect(() => {
    let live = true;
    void read().then((r) => live && show(r));
    return () => {
      live = false;
    };
  }, [read, show, currentId]);

  return (
    <Dialog title="Sessions" onClose={onClose} wide>
      <label className="field">
        Name of this session <input aria-label="Session name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
      </label>
      {sessions === null ? (
        <p className="muted">Reading saved sessions…</p>
      ) : (
        <ul className="session-list" aria-label="Saved sessions">
          {sessions.map((s) => (
            <li key={s.id} aria-current={s.id === currentId ? 'true' : undefined}>
              <span className="session-title">{s.id === currentId ? name : s.name}</span>
              <span className="muted">
                {dataLabel(s.data)} · {s.editor.language === 'py' ? 'Python' : 'TypeScript'} · saved {when(s.updatedAt)}
                {s.origin ? ` · from a ${s.origin.from}, not run yet` : ''}
                {elsewhere.has(s.id) ? ' · open in another tab' : ''}
              </span>
              <span className="spacer" />
              {s.id === currentId ? (
                <span className="muted">open</span>
              ) : elsewhere.has(s.id) ? (
                <button
                  type="button"
                  aria-label={`Open a copy of session ${s.name}`}
                  title="Another tab is working on this session: open a copy of it here"
                  onClick={() => void openCopy(s.id).then(onClose)}
                >
                  Open a copy
                </button>
              ) : (
                <button type="button" aria-label={`Open session ${s.name}`} onClick={() => void switchSession(s.id).then(onClose)}>
                  Open
                </button>
              )}
              <button
                type="button"
                className="danger"
                aria-label={`Delete session ${s.id === currentId ? name : s.name}`}
                disabled={elsewhere.has(s.id)}
                title={elsewhere.has(s.id) ? 'Open in another tab: close it there first' : undefined}
                onClick={() => {
                  if (window.confirm(`Delete the session “${s.name}” with its runs and data? This cannot be undone.`)) void removeSession(s.id).then(refresh);
                }}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {invalid.length ? <p className="muted">Saved sessions that could not be read: {invalid.join('; ')}</p> : null}
      <div className="dialog-actions">
        <button type="button" onClick={() => void newSession().then(onClose)}>
          New session
        </button>
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
