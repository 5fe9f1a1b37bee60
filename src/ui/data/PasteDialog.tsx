import { useState } from 'react';
import { importBlob } from '../../app/studio';
import { Dialog } from '../layout/Dialog';

/** Paste JSONL / JSON / CSV text to import it. */
export function PasteDialog({ onClose }: { onClose(): void }) {
  const [text, setText] = useState('');
  return (
    <Dialog title="Paste trajectories" onClose={onClose}>
      <p className="muted">JSONL (one rollout per line), a JSON array, or CSV with a header row.</p>
      <textarea aria-label="Pasted trajectories" className="paste-area" value={text} onChange={(e) => setText(e.target.value)} autoFocus />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="primary"
          disabled={!text.trim()}
          onClick={() => {
            onClose();
            void importBlob(new Blob([text], { type: 'text/plain' }), 'pasted text');
          }}
        >
          Import pasted text
        </button>
      </div>
    </Dialog>
  );
}
