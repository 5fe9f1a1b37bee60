import { FilePickButton } from '../layout/FilePickButton';
import { useStudio } from '../../store';
import { awaitsRun } from '../../store/sessionSlice';
import { importBlob } from '../../app/studio';
import { failedBeforeThisStart } from '../../app/panelFailures';
import { useState } from 'react';

const fmtMean = (m: number | null) => (m === null ? '—' : m.toFixed(4));

/**
 * Notices about the session: code that came from a link or a file (not run until Run), a file the link asks for,
 * and messages (a damaged link, a file that does not match).
 */
export function SessionNotices() {
  const origin = useStudio((s) => s.origin);
  // Only the languages whose code came from elsewhere wait (Run in one language does not release the other's code).
  const waits = useStudio((s) => awaitsRun(s.origin, s.language));
  const pending = useStudio((s) => s.pendingFile);
  const message = useStudio((s) => s.sessionMessage);
  const setMessage = useStudio((s) => s.setSessionMessage);
  const [failed, setFailed] = useState(failedBeforeThisStart);
  return (
    <>
      {failed ? (
        <div role="status" aria-label="Panel failed before reload" className="info-banner">
          <span>The {failed} panel failed before this reload: the session is back without its open rollout and tab.</span>
          <button type="button" aria-label="Dismiss the notice about the failed panel" onClick={() => setFailed(null)}>
            ×
          </button>
        </div>
      ) : null}
      {message ? (
        <div
          role={message.kind === 'error' ? 'alert' : 'status'}
          aria-label="Session message"
          className={message.kind === 'error' ? 'error-banner' : 'info-banner'}
        >
          <span>{message.text}</span>
          <button type="button" aria-label="Dismiss session message" onClick={() => setMessage(null)}>
            ×
          </button>
        </div>
      ) : null}
      {origin && waits ? (
        <div role="note" aria-label="Code from elsewhere" className="warn-banner">
          <span>
            This reward code came from a {origin.from === 'link' ? 'shared link' : 'session file'}. It has <strong>not run</strong>: read it in the editor, then
            press <strong>Run</strong>.
            {origin.run ? (
              <span data-testid="shared-run">
                {' '}
                The sender's run #{origin.run.id}
                {origin.run.name ? ` “${origin.run.name}”` : ''}: mean {fmtMean(origin.run.summary.mean)} over {origin.run.summary.rows.toLocaleString('en-US')}{' '}
                rollouts ({origin.run.summary.ok.toLocaleString('en-US')} scored).
                {origin.run.note ? <span className="run-note-shared"> Their note: “{origin.run.note}”</span> : null}
              </span>
            ) : null}
          </span>
        </div>
      ) : null}
      {pending ? (
        <div role="region" aria-label="File needed" className="warn-banner">
          <span>
            This link was made with <strong>{pending.name}</strong> ({pending.rows.toLocaleString('en-US')} rollouts, {pending.size.toLocaleString('en-US')}{' '}
            bytes, SHA-256 <code>{pending.sha256.slice(0, 16)}…</code>). Drop that file on the page or choose it: it is checked against the hash before use.
          </span>
          <FilePickButton className="primary" testId="pending-input" onFile={(f) => void importBlob(f, f.name)}>
            Choose {pending.name}
          </FilePickButton>
        </div>
      ) : null}
    </>
  );
}
