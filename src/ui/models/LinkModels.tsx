import { useStudio } from '../../store';
import type { ModelRef } from '../../core/session/schema';

const mb = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} kB`);
const tensors = (ts: ModelRef['inputs']) => ts.map((t) => `${t.name} [${t.shape.join(', ')}]`).join(', ');

/**
 * The models a shared reward used (from the link): what to load for its scores, each marked once a loaded model has
 * the same .onnx (same SHA-256). Names come from the link: shown as text, never as markup.
 */
export function LinkModels() {
  const wanted = useStudio((s) => s.linkModels);
  const models = useStudio((s) => s.models);
  if (wanted.length === 0) return null;
  return (
    <div role="region" aria-label="Models the shared reward uses" className="warn-banner link-models">
      <div>
        <p>
          The shared reward reads {wanted.length === 1 ? 'a reward model' : `${wanted.length} reward models`} (the link carries no weights): load{' '}
          {wanted.length === 1 ? 'it' : 'them'} with <strong>Load reward model folder</strong> for its scores.
        </p>
        <ul aria-label="Models to load">
          {wanted.map((w) => {
            const loaded = models.find((m) => m.info?.sha256 === w.sha256);
            const other = loaded ? null : models.find((m) => m.id === w.id && m.info);
            return (
              <li key={`${w.id}:${w.sha256}`}>
                <strong>{w.name}</strong> as <code>ctx.models.{w.id}</code> · {mb(w.size)} · SHA-256 <code title={w.sha256}>{w.sha256.slice(0, 16)}…</code> ·
                inputs {tensors(w.inputs)} · outputs {tensors(w.outputs)} ·{' '}
                {loaded ? (
                  <span className="ok-text">loaded{loaded.id !== w.id ? ` (as ctx.models.${loaded.id})` : ''}</span>
                ) : other ? (
                  <span className="bad">another file is loaded as ctx.models.{w.id} (its SHA-256 differs)</span>
                ) : (
                  <span className="bad">not loaded</span>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
