import { useState } from 'react';
import { rowsFile } from '../../app/rowsDownload';
import type { ColumnValues } from '../../core/table/columns';
import { EXPORT_FORMATS, type ExportFormat } from '../../core/table/rowExport';

const FORMAT_LABELS: Record<ExportFormat, string> = { jsonl: 'JSONL', csv: 'CSV', parquet: 'Parquet' };

/** **Download rows**: the table's rows, as filtered and sorted, in the format picked beside it. */
export function DownloadRows({ view, columns }: { view: Int32Array; columns: Map<string, ColumnValues> }) {
  const [format, setFormat] = useState<ExportFormat>('jsonl');
  const [busy, setBusy] = useState(false);
  /** Rows written so far while the data worker builds the file (null before its first word). */
  const [done, setDone] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setDone(null);
    setError(null);
    try {
      const { name, blob } = await rowsFile(format, view, columns, (d, total) => setDone({ done: d, total }));
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(`Download failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
      setDone(null);
    }
  };
  return (
    <span className="download-rows">
      <select aria-label="Download format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {EXPORT_FORMATS.map((f) => (
          <option key={f} value={f}>
            {FORMAT_LABELS[f]}
          </option>
        ))}
      </select>
      <button
        type="button"
        onClick={() => void download()}
        disabled={busy || view.length === 0}
        title="The rows shown, in this order, with group, reward, advantage, length, error and components"
      >
        Download rows
      </button>
      {busy ? (
        <span role="status" className="muted">
          Preparing the file…{done ? ` ${done.done.toLocaleString('en-US')} of ${done.total.toLocaleString('en-US')} rows` : ''}
        </span>
      ) : null}
      {error ? (
        <span role="alert" className="error-text">
          {error}
        </span>
      ) : null}
    </span>
  );
}
