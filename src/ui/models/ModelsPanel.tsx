import { INPUT_MODES, type InputMode } from '../../core/models/encode';
import { cancelModelScoring, checkProviders, loadModelFiles, removeModel, scoreModel, setModelLabel, setModelMode, setModelVariant } from '../../app/models';
import { useStudio } from '../../store';
import type { ModelEntry, ProviderChoice } from '../../store/modelsSlice';
import { FilePickButton } from '../layout/FilePickButton';
import { EnsembleCard } from './EnsembleCard';
import { LinkModels } from './LinkModels';

const mb = (bytes: number) =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} kB`;
const n = (x: number) => x.toLocaleString('en-US');
const shape = (s: (number | string)[]) => `[${s.join(', ')}]`;

/** Reward models (ONNX sequence classifiers) loaded from disk: their facts, the provider that runs them, their scores. */
export function ModelsPanel() {
  const models = useStudio((s) => s.models);
  const error = useStudio((s) => s.modelLoadError);
  const choice = useStudio((s) => s.providerChoice);
  const setChoice = useStudio((s) => s.setProviderChoice);
  const setError = useStudio((s) => s.setModelLoadError);
  return (
    <section className="panel models-panel" aria-label="Reward models">
      <div className="toolbar">
        <strong>Reward models</strong>
        <FilePickButton directory testId="model-folder-input" onFiles={(f) => void loadModelFiles(f)}>
          Load reward model folder
        </FilePickButton>
        <FilePickButton multiple testId="model-files-input" onFiles={(f) => void loadModelFiles(f)}>
          Load model files
        </FilePickButton>
        <label className="inline-field">
          Execution provider
          <select
            aria-label="Execution provider"
            value={choice}
            onChange={(e) => setChoice(e.target.value as ProviderChoice)}
            title="Used for models loaded from now on"
          >
            <option value="auto">Auto (WebGPU, else WASM)</option>
            <option value="webgpu">WebGPU</option>
            <option value="wasm">WASM</option>
          </select>
        </label>
        {models.length === 0 && !error ? (
          <span className="muted">A Hugging Face ONNX export (config.json, tokenizer.json, model.onnx); scores become ctx.models.&lt;name&gt;.</span>
        ) : null}
      </div>
      {error ? (
        <div role="alert" aria-label="Model error" className="model-error">
          {error}{' '}
          <button type="button" onClick={() => setError(null)}>
            Dismiss
          </button>
        </div>
      ) : null}
      <LinkModels />
      {models.map((m) => (
        <ModelCard key={m.id} m={m} />
      ))}
      <EnsembleCard />
    </section>
  );
}

function ModelCard({ m }: { m: ModelEntry }) {
  const datasetId = useStudio((s) => s.datasetId);
  const s = m.scores && m.scores.datasetId === datasetId ? m.scores : null;
  const busy = m.status === 'loading' || m.status === 'scoring';
  return (
    <article className="model-card" aria-label={`Model ${m.id}`}>
      <div className="model-head">
        <strong>{m.name}</strong>
        <code title="Use it in reward code">ctx.models.{m.id}</code>
        <span className="muted">
          {mb(m.variant.size)} · {m.variant.dtype}
          {m.architectures.length ? ` · ${m.architectures.join(', ')}` : ''}
          {m.maxLength ? ` · max ${n(m.maxLength)} tokens` : ''}
        </span>
        <span data-testid="model-provider" className="provider-tag" aria-label="Execution provider used">
          {m.status === 'loading' ? 'loading…' : (m.providerLabel ?? '—')}
        </span>
        <span className="spacer" />
        <button type="button" onClick={() => removeModel(m.id)} aria-label={`Remove ${m.id}`}>
          Remove
        </button>
      </div>
      {m.fallback ? <p className="muted model-note">{m.fallback}</p> : null}
      {m.info ? (
        <p className="muted model-io" data-testid="model-io">
          inputs {m.info.inputs.map((i) => `${i.name} ${i.type} ${shape(i.shape)}`).join(', ')} → outputs{' '}
          {m.info.outputs.map((o) => `${o.name} ${o.type} ${shape(o.shape)}`).join(', ')}
        </p>
      ) : null}
      <div className="model-controls">
        {m.variants.length > 1 ? (
          <select aria-label="ONNX file" value={m.variant.path} disabled={busy} onChange={(e) => void setModelVariant(m.id, e.target.value)}>
            {m.variants.map((v) => (
              <option key={v.path} value={v.path}>
                {v.path.split('/').slice(-2).join('/')} ({v.dtype}, {mb(v.size)})
              </option>
            ))}
          </select>
        ) : null}
        <select aria-label="Model input" value={m.mode} disabled={busy} onChange={(e) => void setModelMode(m.id, e.target.value as InputMode)}>
          {INPUT_MODES.filter((x) => x.id !== 'chat' || m.hasChatTemplate).map((x) => (
            <option key={x.id} value={x.id}>
              {x.label}
            </option>
          ))}
        </select>
        {m.labels.length > 1 ? (
          <select aria-label="Score label" value={m.label} onChange={(e) => setModelLabel(m.id, Number(e.target.value))}>
            {m.labels.map((l, i) => (
              <option key={l} value={i}>
                logit {i}: {l}
              </option>
            ))}
          </select>
        ) : (
          <span className="muted">one logit: the raw value is the score</span>
        )}
        {m.status === 'scoring' ? (
          <button type="button" onClick={() => cancelModelScoring(m.id)}>
            Cancel scoring
          </button>
        ) : (
          <button type="button" disabled={m.status !== 'ready' || !datasetId} onClick={() => void scoreModel(m.id)}>
            Score rollouts
          </button>
        )}
        <button type="button" disabled={m.status !== 'ready' || m.check?.state === 'running'} onClick={() => void checkProviders(m.id)}>
          Check WebGPU against WASM
        </button>
      </div>
      {m.progress ? (
        <div className="model-progress">
          <progress aria-label={`Scoring with ${m.id}`} max={m.progress.total} value={m.progress.done} />
          <span className="muted">
            {n(m.progress.done)} / {n(m.progress.total)}
            {m.progress.cached ? ` (${n(m.progress.cached)} from cache)` : ''}
          </span>
        </div>
      ) : null}
      {s && !m.progress ? <ScoreLine s={s} /> : null}
      {m.message ? (
        <p role="alert" className="model-error">
          {m.message}
        </p>
      ) : null}
      {m.check ? <CheckLine c={m.check} /> : null}
    </article>
  );
}

function ScoreLine({ s }: { s: NonNullable<ModelEntry['scores']> }) {
  // Every scored row came either from the cache or from the model.
  const ok = s.cachedCount + s.inferredCount;
  const failed = s.errors.size;
  return (
    <p className="muted" data-testid="model-scores">
      {n(ok)} scored{failed ? ` · ${n(failed)} failed (${[...s.errors.values()][0]})` : ''}
      {s.cancelled ? ' · cancelled' : ''} · {n(s.truncatedCount)} truncated · {n(s.cachedCount)} from cache · {n(s.inferredCount)} run in {n(s.batches)} batches
      · {(s.elapsedMs / 1000).toFixed(2)} s
    </p>
  );
}

function CheckLine({ c }: { c: NonNullable<ModelEntry['check']> }) {
  if (c.state === 'running') return <p className="muted">Scoring a sample on WebGPU and on WASM…</p>;
  if (c.state === 'failed')
    return (
      <p role="status" className="model-error" data-testid="provider-check">
        {c.message}
      </p>
    );
  return (
    <p role="status" data-testid="provider-check">
      {c.webgpu} vs {c.wasm} on {n(c.rows)} rollouts: largest difference {c.maxDiff.toExponential(2)}
    </p>
  );
}
