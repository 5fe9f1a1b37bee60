/**
 * The studio's reward-model actions: load a model from picked files, score the loaded rollouts with it (again
 * when the data changes), cancel, relabel, remove, and check WebGPU against WASM. They tie the model workers
 * (runtime/modelWorkerClient) to the store (store/modelsSlice); components call these and read the store.
 */
import type { EncoderSpec, InputMode } from '../core/models/encode';
import { inspectModelFolder, type ModelFolder, type OnnxVariant, type PickedFile } from '../core/models/modelFolder';
import { labelColumn } from '../core/models/scoreRollouts';
import { accessorName } from '../core/models/naming';
import { RowStatus } from '../core/reward/contract';
import { useStudio } from '../store';
import type { ModelEntry, ModelScores } from '../store/modelsSlice';
import { getDataset } from '../runtime/datasetRegistry';
import { ModelWorkerClient, type LoadOutcome, type ScoreJob } from '../runtime/modelWorkerClient';
import type { Provider } from '../worker/ortLoader';
import { providerLabel } from './providerLabel';

interface Handle {
  client: ModelWorkerClient;
  files: File[];
  folder: ModelFolder;
  job: ScoreJob | null;
}
const handles = new Map<string, Handle>();

export { accessorName };

const store = () => useStudio.getState();
const patch = (id: string, p: Partial<ModelEntry>) => store().patchModel(id, p);

function pickedFile(f: File): PickedFile {
  return { path: f.webkitRelativePath || f.name, size: f.size, text: () => f.text() };
}

const pathOf = (f: File) => f.webkitRelativePath || f.name;

/** External weights the graph refers to (`model.onnx_data`, `model.onnx.data`, …) in the variant's folder. */
function externalDataFor(files: File[], variant: OnnxVariant): { path: string; data: File }[] {
  const dir = variant.path.split('/').slice(0, -1).join('/');
  const stem = variant.path.split('/').pop()!;
  return files
    .filter((f) => {
      const p = pathOf(f);
      const name = p.split('/').pop()!;
      return p.split('/').slice(0, -1).join('/') === dir && name !== stem && name.startsWith(stem) && /(_data|\.data)$/.test(name);
    })
    .map((f) => ({ path: pathOf(f).split('/').pop()!, data: f }));
}

function encoderSpec(folder: ModelFolder): EncoderSpec {
  return {
    tokenizerJson: folder.tokenizerJson,
    tokenizerConfig: folder.tokenizerConfig,
    chatTemplate: folder.chatTemplate,
    maxLength: folder.maxLength,
    config: folder.config,
  };
}

/** Hand the picked variant (its .onnx, any external weights next to it) and the tokenizer to a worker. */
function loadInto(client: ModelWorkerClient, files: File[], folder: ModelFolder, variant: OnnxVariant): Promise<LoadOutcome> {
  const onnx = files.find((f) => pathOf(f) === variant.path)!;
  const external = externalDataFor(files, variant);
  return client.load(onnx, encoderSpec(folder), external.length ? external : undefined);
}

/** Start a worker on `provider` with the model; on `auto`, WebGPU first and WASM when WebGPU cannot run it. */
async function startWorker(id: string, files: File[], folder: ModelFolder, variant: OnnxVariant): Promise<ModelWorkerClient | null> {
  const choice = store().providerChoice;
  const order: Provider[] = choice === 'wasm' ? ['wasm'] : choice === 'webgpu' ? ['webgpu'] : ['webgpu', 'wasm'];
  let fallback: string | null = null;
  for (const provider of order) {
    const client = new ModelWorkerClient(provider);
    const r = await loadInto(client, files, folder, variant);
    if (r.ok) {
      const { ok: _, ...info } = r;
      patch(id, { status: 'ready', info, providerLabel: providerLabel(r.provider, r.adapter, r.threads), fallback, message: null });
      return client;
    }
    client.terminate();
    if (provider === 'webgpu' && order.length > 1) {
      fallback = r.unavailable
        ? `WebGPU is not available here (${r.message}), so the model runs on WASM.`
        : `WebGPU could not run this model (${r.message}), so it runs on WASM.`;
      continue;
    }
    patch(id, { status: 'failed', message: loadFailure(variant, r.message), fallback });
    return null;
  }
  return null;
}

function loadFailure(variant: OnnxVariant, message: string): string {
  // onnxruntime reports an unreadable graph as a protobuf parse failure deep in its C++ core.
  if (/protobuf|parse|Load model|invalid model|failed to load/i.test(message)) {
    return `${variant.path} is not a valid ONNX model (onnxruntime: ${message}). Re-export it, or check that the file was copied whole.`;
  }
  return `${variant.path} could not be loaded: ${message}`;
}

/** Load a reward model from files the user picked (a folder or loose files); then score the loaded rollouts. */
export async function loadModelFiles(files: File[]): Promise<void> {
  const st = store();
  st.setModelLoadError(null);
  const r = await inspectModelFolder(files.map(pickedFile));
  if (!r.ok) {
    st.setModelLoadError(`This model cannot be loaded: ${r.message}.`);
    return;
  }
  const folder = r.folder;
  const id = accessorName(folder.name, new Set(store().models.map((m) => m.id)));
  const variant = folder.onnx[0];
  store().addModel({
    id,
    name: folder.name,
    variants: folder.onnx,
    variant,
    architectures: folder.architectures,
    modelType: folder.modelType,
    labels: folder.labels,
    label: 0,
    maxLength: folder.maxLength,
    hasChatTemplate: folder.chatTemplate !== null,
    mode: folder.chatTemplate ? 'chat' : 'pair',
    status: 'loading',
    message: null,
    fallback: null,
    info: null,
    providerLabel: null,
    progress: null,
    scores: null,
    check: null,
  });
  const client = await startWorker(id, files, folder, variant);
  if (!client) return;
  handles.set(id, { client, files, folder, job: null });
  await scoreModel(id);
}

/** Load another .onnx of the same folder (fp16, quantized). */
export async function setModelVariant(id: string, path: string): Promise<void> {
  const h = handles.get(id);
  const m = store().models.find((x) => x.id === id);
  const variant = m?.variants.find((v) => v.path === path);
  if (!h || !m || !variant) return;
  h.job?.cancel();
  h.client.terminate();
  handles.delete(id);
  patch(id, { variant, status: 'loading', info: null, providerLabel: null, scores: null, check: null, progress: null });
  const client = await startWorker(id, h.files, h.folder, variant);
  if (!client) return;
  handles.set(id, { ...h, client, job: null });
  await scoreModel(id);
}

/** Score every loaded rollout (cached scores are reused); a newer call replaces one in flight. */
export async function scoreModel(id: string): Promise<void> {
  const h = handles.get(id);
  const ds = getDataset(store().datasetId);
  const m = store().models.find((x) => x.id === id);
  if (!h || !ds || !m) return;
  h.job?.cancel();
  h.job = null;
  patch(id, { status: 'scoring', progress: { done: 0, total: ds.size, cached: 0 }, message: null });
  const dataError = await h.client.setDataset(ds);
  if (dataError) {
    patch(id, { status: 'ready', progress: null, message: dataError });
    return;
  }
  const job = h.client.score({ datasetId: ds.id, mode: m.mode, numLabels: m.labels.length, useCache: true }, (p) => {
    if (h.job === job) patch(id, { progress: p });
  });
  h.job = job;
  const r = await job.done;
  if (h.job !== job) return;
  h.job = null;
  if (!r.ok) {
    patch(id, { status: 'ready', progress: null, message: `Scoring failed: ${r.message}` });
    return;
  }
  const { ok: _ok, kind: _kind, jobId: _job, errors, ...arrays } = r;
  const scores: ModelScores = { ...arrays, datasetId: ds.id, mode: m.mode, numLabels: m.labels.length, errors: new Map(errors) };
  patch(id, { status: 'ready', progress: null, scores });
}

/**
 * The stress test's probed rollouts scored by model `id` (the probe's text in place of each completion), by position:
 * the chosen label's raw logit, NaN where it has none. The cache answers texts scored before (an `empty` probe's).
 */
export function scoreProbed(
  id: string,
  datasetId: string,
  probe: { name: string; rows: Int32Array; donors?: Int32Array },
  onProgress: (p: { done: number; total: number }) => void,
): { done: Promise<{ ok: true; column: Float64Array } | { ok: false; message: string }>; cancel(): void } {
  const h = handles.get(id);
  const m = store().models.find((x) => x.id === id);
  if (!h || !m) return { done: Promise.resolve({ ok: false, message: `the model ${id} is no longer loaded` }), cancel: () => {} };
  const job = h.client.score({ datasetId, mode: m.mode, numLabels: m.labels.length, useCache: true, probe }, onProgress);
  const done = job.done.then((r) => {
    if (!r.ok) return { ok: false as const, message: r.message };
    if (r.cancelled) return { ok: false as const, message: 'cancelled' };
    return { ok: true as const, column: labelColumn(r.logits, m.labels.length, m.label) };
  });
  return { done, cancel: job.cancel };
}

export function cancelModelScoring(id: string): void {
  handles.get(id)?.job?.cancel();
}

export function setModelLabel(id: string, label: number): void {
  patch(id, { label });
}

export async function setModelMode(id: string, mode: InputMode): Promise<void> {
  patch(id, { mode });
  await scoreModel(id);
}

export function removeModel(id: string): void {
  const h = handles.get(id);
  h?.job?.cancel();
  h?.client.terminate();
  handles.delete(id);
  store().dropModel(id);
}

/** Model scores on the loaded dataset, per accessor name, for `ctx.models` (models that have not scored it are left out). */
export function modelColumns(datasetId: string | null): Record<string, Float64Array> {
  const out: Record<string, Float64Array> = {};
  for (const m of store().models) {
    if (m.scores && m.scores.datasetId === datasetId) out[m.id] = modelScoreColumn(m);
  }
  return out;
}

const columns = new WeakMap<Float32Array, Map<number, Float64Array>>();
/** The model's score per rollout: the chosen label's raw logit, NaN where it has none (memoized per scoring and label). */
export function modelScoreColumn(m: ModelEntry): Float64Array {
  const s = m.scores!;
  let byLabel = columns.get(s.logits);
  if (!byLabel) columns.set(s.logits, (byLabel = new Map()));
  let col = byLabel.get(m.label);
  if (!col) byLabel.set(m.label, (col = labelColumn(s.logits, s.numLabels, m.label)));
  return col;
}

/** Rows to compare providers on: up to `n`, spread evenly over the dataset. */
export function sampleRows(size: number, n: number): number[] {
  if (size <= n) return Array.from({ length: size }, (_, i) => i);
  return Array.from({ length: n }, (_, k) => Math.floor((k * size) / n));
}

/** Score a sample on WebGPU and on WASM (no cache either way) and report the largest difference of the score. */
export async function checkProviders(id: string, sample = 32): Promise<void> {
  const h = handles.get(id);
  const ds = getDataset(store().datasetId);
  const m = store().models.find((x) => x.id === id);
  if (!h || !ds || !m) return;
  patch(id, { check: { state: 'running' } });
  const rows = sampleRows(ds.size, sample);
  const other = new ModelWorkerClient(h.client.provider === 'webgpu' ? 'wasm' : 'webgpu');
  try {
    const loaded = await loadInto(other, h.files, h.folder, m.variant);
    if (!loaded.ok) {
      const why =
        other.provider === 'webgpu'
          ? `WebGPU is not available here (${loaded.message}): there is nothing to compare WASM with.`
          : `WASM could not load the model: ${loaded.message}`;
      patch(id, { check: { state: 'failed', message: why } });
      return;
    }
    const [e1, e2] = await Promise.all([h.client.setDataset(ds), other.setDataset(ds)]);
    if (e1 || e2) throw new Error((e1 ?? e2)!);
    const req = { datasetId: ds.id, mode: m.mode, numLabels: m.labels.length, useCache: false, rows };
    const [a, b] = await Promise.all([h.client.score(req).done, other.score(req).done]);
    if (!a.ok) throw new Error(a.message);
    if (!b.ok) throw new Error(b.message);
    let maxDiff = 0;
    let compared = 0;
    for (let i = 0; i < rows.length; i++) {
      if (a.status[i] !== RowStatus.Ok || b.status[i] !== RowStatus.Ok) continue;
      const x = a.logits[i * m.labels.length + m.label];
      const y = b.logits[i * m.labels.length + m.label];
      maxDiff = Math.max(maxDiff, Math.abs(x - y));
      compared++;
    }
    const mine = m.providerLabel ?? h.client.provider;
    const theirs = providerLabel(loaded.provider, loaded.adapter, loaded.threads);
    patch(id, {
      check: {
        state: 'done',
        rows: compared,
        maxDiff,
        webgpu: h.client.provider === 'webgpu' ? mine : theirs,
        wasm: h.client.provider === 'wasm' ? mine : theirs,
      },
    });
  } catch (e) {
    patch(id, { check: { state: 'failed', message: e instanceof Error ? e.message : String(e) } });
  } finally {
    other.terminate();
  }
}

/** New rollouts: every loaded model scores them (the cache answers rollouts it has seen). */
useStudio.subscribe((s, prev) => {
  if (s.datasetId === prev.datasetId) return;
  if (!getDataset(s.datasetId)) return;
  for (const id of handles.keys()) void scoreModel(id);
});
