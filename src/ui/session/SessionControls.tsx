import { useRef, useState } from 'react';
import { useStudio } from '../../store';
import { exportSessionFile, importSessionFile } from '../../runtime/sessions';
import { SessionsDialog } from './SessionsDialog';
import { ShareDialog } from './ShareDialog';

/** Header controls: the session list, Share, and session files (export / open). */
export function SessionControls() {
  const [listOpen, setListOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const name = useStudio((s) => s.sessionName);
  const hasData = useStudio((s) => s.datasetId !== null || s.pendingFile !== null);

  const download = async () => {
    const { name: fileName, bytes } = await exportSessionFile();
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/zip' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <div className="session-controls">
      <button type="button" onClick={() => setListOpen(true)} title="Saved sessions: switch, start a new one, delete">
        Sessions
      </button>
      <span className="muted session-name" aria-label="Session name">
        {name}
      </span>
      <button type="button" onClick={() => setShareOpen(true)} disabled={!hasData}>
        Share
      </button>
      <button type="button" onClick={() => void download()} disabled={!hasData} title="Download the whole session (code, runs, data) as one file">
        Export session
      </button>
      <input
        ref={input}
        type="file"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="session-input"
        accept=".zip,application/zip"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void importSessionFile(f, f.name);
          e.target.value = '';
        }}
      />
      <button type="button" onClick={() => input.current?.click()}>
        Open session file
      </button>
      {listOpen ? <SessionsDialog onClose={() => setListOpen(false)} /> : null}
      {shareOpen ? <ShareDialog onClose={() => setShareOpen(false)} /> : null}
    </div>
  );
}
