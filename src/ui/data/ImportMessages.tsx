import { useState } from 'react';
import { useStudio } from '../../store';

/** The last import's failure, and the lines of the current dataset that failed to load. */
export function ImportMessages() {
  const error = useStudio((s) => s.importError);
  const issues = useStudio((s) => s.issues);
  const name = useStudio((s) => s.datasetName);
  const setImportError = useStudio((s) => s.setImportError);
  const [open, setOpen] = useState(false);
  return (
    <>
      {error && error.code !== 'needs-mapping' ? (
        <div role="alert" aria-label="Import error" className="error-banner">
          <span>
            Could not import <strong>{error.fileName}</strong>: {error.message}
            {name ? <span className="muted"> The previous data ({name}) is still loaded.</span> : null}
          </span>
          <button type="button" aria-label="Dismiss import error" onClick={() => setImportError(null)}>
            ×
          </button>
        </div>
      ) : null}
      {issues.length > 0 ? (
        <div className="warn-banner" role="region" aria-label="Skipped lines">
          <button type="button" className="link" onClick={() => setOpen(!open)} aria-expanded={open}>
            {issues.length.toLocaleString('en-US')} {issues.length === 1 ? 'line' : 'lines'} could not be read and were skipped
          </button>
          {open ? (
            <ul className="issue-list">
              {issues.slice(0, 500).map((i, k) => (
                <li key={k}>
                  <strong>{i.file === undefined ? `line ${i.line}` : i.line > 0 ? `${i.file} line ${i.line}` : i.file}</strong>: {i.reason}
                </li>
              ))}
              {issues.length > 500 ? <li className="muted">… and {issues.length - 500} more</li> : null}
            </ul>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
