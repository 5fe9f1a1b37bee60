import { useEffect, useState } from 'react';
import { makeShareLink, type ShareLink } from '../../app/sessions/share';
import { Dialog } from '../layout/Dialog';

const kB = (n: number) => `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)} kB`;

function dataNote(d: ShareLink['data']): string {
  switch (d.kind) {
    case 'demo':
      return 'The data is the bundled GSM8K demo: every copy of the studio has it.';
    case 'url':
      return 'The data is fetched from the URL it was loaded from.';
    case 'inline':
      return `The data travels inside the link (${kB(d.bytes)} compressed).`;
    case 'file':
      return `The data is too large for a link (${kB(d.size)}): the recipient will be asked for ${d.name}, checked against its SHA-256 (${d.sha256.slice(0, 12)}…).`;
    default:
      return 'No data is loaded.';
  }
}

/** The share link of the session: code, settings, the selected run, the open rollout, and the data or its name. */
export function ShareDialog({ onClose }: { onClose(): void }) {
  const [link, setLink] = useState<ShareLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    makeShareLink().then(setLink, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  return (
    <Dialog title="Share this session" onClose={onClose}>
      <p>
        The link holds the reward code, the settings, the selected run's summary and the open rollout. Whoever opens it sees the code first: nothing runs until
        they press Run.
      </p>
      {error ? <p role="alert">The link could not be made: {error}</p> : null}
      {link ? (
        <>
          <textarea aria-label="Share link" readOnly value={link.url} rows={4} onFocus={(e) => e.currentTarget.select()} />
          <p className="muted" data-testid="share-data-note">
            {dataNote(link.data)} Link length: {link.url.length.toLocaleString('en-US')} characters.
          </p>
        </>
      ) : error ? null : (
        <p className="muted">Making the link…</p>
      )}
      <div className="dialog-actions">
        <button
          type="button"
          disabled={!link}
          onClick={() => {
            if (link)
              void navigator.clipboard.writeText(link.url).then(
                () => setCopied(true),
                () => setCopied(false),
              );
          }}
        >
          {copied ? 'Copied' : 'Copy link'}
        </button>
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
