import { FORMAT_IDS, type FormatId } from '../../core/formats/types';
import { FORMAT_LABELS } from '../../core/formats/labels';
import { importBlob, lastImportedSource } from '../../app/studio';
import { useStudio } from '../../store';

/** "detected as …": shows the detected format and lets the user re-read the file as another one. */
export function FormatPicker({ onMapColumns }: { onMapColumns(): void }) {
  const detection = useStudio((s) => s.detection);
  if (!detection) return null;
  const change = (format: FormatId) => {
    const src = lastImportedSource();
    if (!src) return;
    if (format === 'mapped') onMapColumns();
    else void importBlob(src.blob, src.name, { format, parts: src.parts });
  };
  return (
    <label className="format-picker">
      <span className="muted">
        {detection.container.toUpperCase()}
        {detection.gzip ? ' (gzip)' : ''} · detected as <strong>{FORMAT_LABELS[detection.detected]}</strong> · read as
      </span>{' '}
      <select aria-label="Format" value={detection.format} onChange={(e) => change(e.target.value as FormatId)} title={detection.reason}>
        {FORMAT_IDS.map((f) => (
          <option key={f} value={f}>
            {FORMAT_LABELS[f]}
          </option>
        ))}
      </select>
    </label>
  );
}
