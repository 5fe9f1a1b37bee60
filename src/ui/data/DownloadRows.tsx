import { useState } from 'react';
import { rowsFile } from '../../app/rowsDownload';
import type { ColumnValues } from '../../core/table/columns';
import { EXPORT_FORMATS, type ExportFormat } from '../../core/table/rowExport';

const FORMAT_LABELS: Record<ExportFormat, string> = { jsonl: 'JSONL', csv: 'CSV', parquet: 'Parquet' };

/** **Download rows**: the table's rows, as filtered and sorted, in the format picked beside it. */
export function DownloadRows({ view, columns }: { view: Int32Array; columns: Map<string, ColumnValues> }) {
  const [format, setFormat] = useState<ExportFormat>('jsonl');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { name, blob } = await rowsFile(format, view, columns);
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
      {error ? (
        <span role="alert" className="error-text">
          {error}
        </span>
      ) : null}
    </span>
  );
}
