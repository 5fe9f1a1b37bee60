import { useRef, useState } from 'react';
import { useStudio } from '../../store';
import { cancelImport, importBlob } from '../../runtime/studio';
import { PasteDialog } from './PasteDialog';

/** Upload control, paste button, import progress with Cancel. Drag-and-drop is handled by DropZone. */
export function ImportBar() {
  const input = useRef<HTMLInputElement>(null);
  const importing = useStudio((s) => s.importing);
  const [pasteOpen, setPasteOpen] = useState(false);

  return (
    <div className="import-bar">
      <input
        ref={input}
        type="file"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid="upload-input"
        accept=".jsonl,.json,.csv,.tsv,.parquet,.gz,.txt,application/json,text/csv,application/gzip"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void importBlob(f, f.name);
          e.target.value = '';
        }}
      />
      <button type="button" className="primary" onClick={() => input.current?.click()}>
        Upload trajectories
      </button>
      <button type="button" onClick={() => setPasteOpen(true)}>
        Paste
      </button>
      {importing ? (
        <div className="progress-row" role="status" aria-label="Import progress">
          <progress aria-label="Import progress" max={Math.max(1, importing.totalBytes)} value={importing.bytesRead} />
          <span className="muted">
            {importing.fileName}: {importing.rows.toLocaleString('en-US')} rows
          </span>
          <button type="button" className="danger" onClick={cancelImport}>
            Cancel import
          </button>
        </div>
      ) : null}
      {pasteOpen ? <PasteDialog onClose={() => setPasteOpen(false)} /> : null}
    </div>
  );
}
