/**
 * Benchmark half of the onnxruntime-web test page (tests-pages/ort-parity.html), driven by bench/model.bench.mjs:
 *
 * - `load` + `setBatches` + `time`: a reward model in onnxruntime-web on the WASM execution provider, the session
 *   created once per page, timed with performance.now over `session.run` on batches built in Node (the same padded
 *   int64 tensors that onnxruntime-node is timed on). ort.env.wasm.numThreads applies to the page's first session
 *   only (onnxruntime initialises its WASM module once per realm): one page per thread count. `numThreads: 'studio'`
 *   runs the model as the studio does instead: created by runtime/modelSession `createModelSession` (its thread
 *   setting, its session options) and called through its `infer` (tensors built from the same int64 arrays).
 * - `score`: the studio's scoring path on this page's main thread (core/models/scoreRollouts with the studio's
 *   IndexedDB score cache runtime/modelCache and session wrapper runtime/modelSession, as workers/model.worker.ts
 *   calls them) over the demo rollouts, uncached and then again with every score in the cache.
 *
 * Loaded on demand by ort-parity.ts, so the parity test's page loads none of this.
 */
import type * as Ort from 'onnxruntime-web';
import { loadAll } from '../src/core/dataset/loadAll';
import { sha256HexOf } from '../src/core/digest';
import type { TokenBatch } from '../src/core/models/batching';
import { RolloutEncoder } from '../src/core/models/encode';
import { inspectModelFolder, type PickedFile } from '../src/core/models/modelFolder';
import { scoreRollouts } from '../src/core/models/scoreRollouts';
import { clearModelScoreCache, modelScoreCache } from '../src/worker/modelCache';
import { createModelSession } from '../src/worker/modelSession';
import { loadOrt, webgpuAdapter, type Provider } from '../src/worker/ortLoader';

export interface BenchLoadRequest {
  /** A name for the session in later calls. */
  model: string;
  modelUrl: string;
  /**
   * ort.env.wasm.numThreads for this page (0 lets onnxruntime pick), or 'studio': the studio's own session
   * (createModelSession). Must be the same for every load in a page.
   */
  numThreads: number | 'studio';
  /** Execution provider (default wasm). 'webgpu' is the studio's own session on WebGPU (one provider per page). */
  provider?: Provider;
}

export interface BenchLoadResult {
  /** WASM threads onnxruntime runs with (after the first session: what it or the studio picked). */
  threads: number | undefined;
  crossOriginIsolated: boolean;
  loadMs: number;
  wasmUrl: string;
}

/** One batch as numbers (BigInt does not cross page.evaluate): row-major [batch, sequence]. */
export interface BenchBatch {
  inputIds: number[];
  attentionMask: number[];
  /** token_type_ids, for models that take them (text-pair encoders); the studio's infer fills zeros without. */
  typeIds?: number[];
  batch: number;
  sequence: number;
}

export interface BenchTimeRequest {
  model: string;
  /** Name given to `setBatches`. */
  plan: string;
  passes: number;
}

export interface BenchTimeResult {
  /** Wall time of each pass over all batches (session.run and reading the logits), ms. */
  ms: number[];
  /** Logits of the last pass, batch after batch. */
  logits: number[];
}

export interface BenchScoreRequest {
  /** Folder URL with model.onnx, config.json, tokenizer.json, tokenizer_config.json (a trailing slash). */
  modelDir: string;
  rolloutsUrl: string;
  /** Before createModelSession sets the studio's own: 0 leaves it to the studio. */
  numThreads: number;
  repeats: number;
}

export interface BenchScoreRun {
  ms: number;
  cachedCount: number;
  inferredCount: number;
  batches: number;
}

export interface BenchScoreResult {
  rows: number;
  threads: number | undefined;
  /** Per repeat: cache cleared, then every rollout scored (hash, tokenize, infer, store). */
  uncached: BenchScoreRun[];
  /** Per repeat: the same call again right after, every score read from IndexedDB. */
  cached: BenchScoreRun[];
  /** Largest |uncached − cached| logit over all rows and repeats (0: the cache returned the same scores). */
  maxDiff: number;
}

let ortP: Promise<{ ort: typeof Ort; wasmUrl: string }> | null = null;
let pageThreads: number | 'studio' | null = null;
let pageProvider: Provider | null = null;
/** One batch → its logits: a bare session.run, or the studio's ModelSession.infer. */
type Runner = (feeds: Record<string, Ort.Tensor>, batch: TokenBatch) => Promise<ArrayLike<number>>;
const sessions = new Map<string, { run: Runner; release(): Promise<void> }>();
const plans = new Map<string, { feeds: Record<string, Ort.Tensor>; batch: TokenBatch }[]>();

async function ortFor(numThreads: number | 'studio', provider: Provider = 'wasm') {
  if (pageThreads !== null && pageThreads !== numThreads)
    throw new Error(`this page's WASM runs with numThreads ${pageThreads}: open another page for ${numThreads}`);
  if (pageProvider !== null && pageProvider !== provider) throw new Error(`this page runs ${pageProvider}: open another page for ${provider}`);
  pageThreads = numThreads;
  pageProvider = provider;
  ortP ??= loadOrt(provider).then((r) => {
    if (typeof numThreads === 'number' && numThreads > 0) r.ort.env.wasm.numThreads = numThreads;
    return r;
  });
  return ortP;
}

/** The WebGPU adapter this page would get (the bench times WebGPU only on a real one unless told otherwise). */
export const adapter = webgpuAdapter;

export async function load(req: BenchLoadRequest): Promise<BenchLoadResult> {
  const provider = req.provider ?? 'wasm';
  if (provider === 'webgpu' && req.numThreads !== 'studio') throw new Error('WebGPU is timed through the studio session only');
  const { ort, wasmUrl } = await ortFor(req.numThreads, provider);
  const t0 = performance.now();
  const model = new Uint8Array(await (await fetch(req.modelUrl)).arrayBuffer());
  await sessions.get(req.model)?.release();
  if (req.numThreads === 'studio') {
    const s = await createModelSession(provider, { onnx: model });
    sessions.set(req.model, { run: (_, batch) => s.infer(batch), release: () => s.release() });
  } else {
    // Options as the studio creates its session (runtime/modelSession.ts).
    const s = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
    sessions.set(req.model, { run: async (feeds) => (await s.run(feeds)).logits.data as Float32Array, release: () => s.release() });
  }
  return { threads: ort.env.wasm.numThreads, crossOriginIsolated: self.crossOriginIsolated, loadMs: performance.now() - t0, wasmUrl };
}

export async function setBatches(name: string, batches: BenchBatch[]): Promise<number> {
  const { ort } = await ortP!;
  plans.set(
    name,
    batches.map((b) => {
      const dims = [b.batch, b.sequence];
      const batch: TokenBatch = {
        inputIds: BigInt64Array.from(b.inputIds, BigInt),
        attentionMask: BigInt64Array.from(b.attentionMask, BigInt),
        ...(b.typeIds ? { typeIds: BigInt64Array.from(b.typeIds, BigInt) } : {}),
        batch: b.batch,
        sequence: b.sequence,
      };
      const feeds: Record<string, Ort.Tensor> = {
        input_ids: new ort.Tensor('int64', batch.inputIds, dims),
        attention_mask: new ort.Tensor('int64', batch.attentionMask, dims),
      };
      // Only batches of models that take token_type_ids carry them (a bare session refuses an input it lacks).
      if (batch.typeIds) feeds.token_type_ids = new ort.Tensor('int64', batch.typeIds, dims);
      return { batch, feeds };
    }),
  );
  return batches.length;
}

export async function time(req: BenchTimeRequest): Promise<BenchTimeResult> {
  const session = sessions.get(req.model);
  const batches = plans.get(req.plan);
  if (!session || !batches) throw new Error(`load ${req.model} and set batches ${req.plan} first`);
  const ms: number[] = [];
  let logits: number[] = [];
  for (let p = 0; p < req.passes; p++) {
    const out: number[] = [];
    const t0 = performance.now();
    for (const b of batches) {
      const data = await session.run(b.feeds, b.batch);
      for (let i = 0; i < data.length; i++) out.push(data[i]);
    }
    ms.push(performance.now() - t0);
    logits = out;
  }
  return { ms, logits };
}

export async function score(req: BenchScoreRequest): Promise<BenchScoreResult> {
  const { ort } = await ortFor(req.numThreads);
  const blob = await (await fetch(req.rolloutsUrl)).blob();
  const { rows } = await loadAll({ name: req.rolloutsUrl.split('/').pop()!, blob });
  const fetched = await Promise.all(
    ['model.onnx', 'config.json', 'tokenizer.json', 'tokenizer_config.json'].map(async (path) => {
      const r = await fetch(req.modelDir + path);
      if (!r.ok) throw new Error(`${req.modelDir}${path}: HTTP ${r.status}`);
      return { path, bytes: new Uint8Array(await r.arrayBuffer()) };
    }),
  );
  const picked: PickedFile[] = fetched.map((f) => ({ path: f.path, size: f.bytes.length, text: async () => new TextDecoder().decode(f.bytes) }));
  const inspected = await inspectModelFolder(picked);
  if (!inspected.ok) throw new Error(inspected.message);
  const folder = inspected.folder;
  const onnx = fetched[0].bytes;
  // As workers/model.worker.ts: the model's identity is its SHA-256; the key also names the input mode and max length.
  const sha = await sha256HexOf(onnx);
  const session = await createModelSession('wasm', { onnx });
  const encoder = new RolloutEncoder(
    {
      tokenizerJson: folder.tokenizerJson,
      tokenizerConfig: folder.tokenizerConfig,
      chatTemplate: folder.chatTemplate,
      maxLength: folder.maxLength,
      config: folder.config,
    },
    'pair',
  );
  const opts = { numLabels: folder.labels.length, cache: modelScoreCache, modelKey: `${sha}|pair|${folder.maxLength ?? 'none'}` };
  const uncached: BenchScoreRun[] = [];
  const cached: BenchScoreRun[] = [];
  let maxDiff = 0;
  try {
    for (let rep = 0; rep < req.repeats; rep++) {
      await clearModelScoreCache();
      let t0 = performance.now();
      const a = await scoreRollouts(rows, encoder, session.infer, opts);
      uncached.push({ ms: performance.now() - t0, cachedCount: a.cachedCount, inferredCount: a.inferredCount, batches: a.batches });
      t0 = performance.now();
      const b = await scoreRollouts(rows, encoder, session.infer, opts);
      cached.push({ ms: performance.now() - t0, cachedCount: b.cachedCount, inferredCount: b.inferredCount, batches: b.batches });
      for (let i = 0; i < a.logits.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a.logits[i] - b.logits[i]));
    }
  } finally {
    await session.release();
    await clearModelScoreCache();
  }
  return { rows: rows.length, threads: ort.env.wasm.numThreads, uncached, cached, maxDiff };
}
