import { useState, useSyncExternalStore } from 'react';
import { FilePickButton } from '../layout/FilePickButton';
import { useStudio } from '../../store';
import { saveStatus } from '../../app/sessions/autosave';
import { exportSessionFile, importSessionFile } from '../../app/sessions/file';
import { SessionsDialog } from './SessionsDialog';
import { ShareDialog } from './ShareDialog';

/** Header controls: the session list, Share, and session files (export / open). */
export function SessionControls() {
  const [listOpen, setListOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const name = useStudio((s) => s.sessionName);
  const hasData = useStudio((s) => s.datasetId !== null || s.pendingFile !== null);
  const saved = useSyncExternalStore(saveStatus.subscribe, saveStatus.get);

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
      <span className="muted save-status" role="status" aria-label="Save status" title="Sessions are saved in this browser as you work">
        {saved === 'saving' ? 'Saving…' : 'Saved'}
      </span>
      <button type="button" onClick={() => setShareOpen(true)} disabled={!hasData}>
        Share
      </button>
      <button type="button" onClick={() => void download()} disabled={!hasData} title="Download the whole session (code, runs, data) as one file">
        Export session
      </button>
      <FilePickButton testId="session-input" accept=".zip,application/zip" onFile={(f) => void importSessionFile(f, f.name)}>
        Open session file
      </FilePickButton>
      {listOpen ? <SessionsDialog onClose={() => setListOpen(false)} /> : null}
      {shareOpen ? <ShareDialog onClose={() => setShareOpen(false)} /> : null}
    </div>
  );
}
