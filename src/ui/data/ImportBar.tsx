import { useState } from 'react';
import { FilePickButton } from '../layout/FilePickButton';
import { useStudio } from '../../store';
import { cancelImport } from '../../app/studio';
import { importFiles, pickedFromInput } from '../../app/importFiles';
import { PasteDialog } from './PasteDialog';

/** Upload control, paste button, import progress with Cancel. Drag-and-drop is handled by DropZone. */
export function ImportBar() {
  const importing = useStudio((s) => s.importing);
  const [pasteOpen, setPasteOpen] = useState(false);

  return (
    <div className="import-bar">
      <FilePickButton
        className="primary"
        testId="upload-input"
        accept=".jsonl,.json,.csv,.tsv,.parquet,.gz,.txt,application/json,text/csv,application/gzip"
        multiple
        onFiles={(fs) => void importFiles(pickedFromInput(fs))}
      >
        Upload trajectories
      </FilePickButton>
      {/* A training run's folder: one file per step (verl rollout_data_dir, TRL completions_{step}.parquet). */}
      <FilePickButton testId="folder-input" directory onFiles={(fs) => void importFiles(pickedFromInput(fs))}>
        Open folder
      </FilePickButton>
      <button type="button" onClick={() => setPasteOpen(true)}>
        Paste
      </button>
      {importing ? (
        <div className="progress-row" role="status" aria-label="Import progress">
          <progress aria-label="Import progress" max={Math.max(1, importing.totalBytes)} value={importing.bytesRead} />
          <span className="muted">
            {importing.fileName}: {importing.decompressing ? 'decompressing…' : `${importing.rows.toLocaleString('en-US')} rows`}
            {importing.part ? ` · ${importing.part.step === null ? 'file' : 'step'} ${importing.part.index + 1} of ${importing.part.count}` : ''}
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
