/**
 * One reward model in onnxruntime-web, on one execution provider: the session, the tensors it is fed (built from
 * its own input names), and its logits back as float32. Used by workers/model.worker.ts.
 */
import type * as Ort from 'onnxruntime-web';
import type { TokenBatch } from '../core/models/batching';
import { halfToFloat } from '../core/models/naming';
import { loadOrt, webgpuAdapter, type AdapterInfo, type Provider } from './ortLoader';

export interface IoInfo {
  name: string;
  type: string;
  shape: (number | string)[];
}

export interface ModelBytes {
  onnx: Uint8Array;
  /** External weights next to the graph (`model.onnx_data`): the path the graph names them by, and the file. */
  externalData?: { path: string; data: Blob }[];
}

export interface ModelSession {
  provider: Provider;
  adapter?: AdapterInfo;
  /** WASM threads actually configured (1 when not cross-origin isolated). */
  threads?: number;
  inputs: IoInfo[];
  outputs: IoInfo[];
  /** The output read as scores: `logits` when the graph has one, else its first output. */
  output: string;
  infer(batch: TokenBatch): Promise<Float32Array>;
  release(): Promise<void>;
}

/** Inputs the studio knows how to fill; any other input name makes the model unusable here, said clearly. */
const FILLABLE = new Set(['input_ids', 'attention_mask', 'token_type_ids', 'position_ids']);

export class ProviderUnavailable extends Error {}

function ioInfo(meta: readonly Ort.InferenceSession.ValueMetadata[]): IoInfo[] {
  return meta.map((m) => (m.isTensor ? { name: m.name, type: m.type, shape: [...m.shape] } : { name: m.name, type: 'non-tensor', shape: [] }));
}

export async function createModelSession(provider: Provider, bytes: ModelBytes): Promise<ModelSession> {
  let adapter: AdapterInfo | undefined;
  if (provider === 'webgpu') {
    const a = await webgpuAdapter();
    if (!a.ok) throw new ProviderUnavailable(a.reason);
    adapter = a.info;
  }
  const { ort } = await loadOrt(provider);
  // Threads need SharedArrayBuffer (a cross-origin isolated page, which the studio is); onnxruntime's own default
  // takes half the cores, so take them all: the model worker is the only thing scoring while it runs.
  if (provider === 'wasm' && globalThis.crossOriginIsolated) ort.env.wasm.numThreads = Math.min(8, globalThis.navigator?.hardwareConcurrency || 1);
  const externalData = bytes.externalData
    ? await Promise.all(bytes.externalData.map(async (x) => ({ path: x.path, data: new Uint8Array(await x.data.arrayBuffer()) })))
    : undefined;
  const session = await ort.InferenceSession.create(bytes.onnx, {
    executionProviders: [provider],
    graphOptimizationLevel: 'all',
    ...(externalData ? { externalData } : {}),
  });
  const inputs = ioInfo(session.inputMetadata);
  const outputs = ioInfo(session.outputMetadata);
  const unknown = inputs.filter((i) => !FILLABLE.has(i.name)).map((i) => i.name);
  if (unknown.length || !session.inputNames.includes('input_ids')) {
    await session.release();
    throw new Error(
      unknown.length
        ? `the model takes input${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')} that a sequence classifier does not have (the studio fills input_ids, attention_mask, token_type_ids, position_ids). Export it with --task text-classification.`
        : 'the model has no "input_ids" input: it is not a text sequence classifier',
    );
  }
  const output = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0];
  const names = new Set(session.inputNames);
  return {
    provider,
    adapter,
    threads: provider === 'wasm' ? (ort.env.wasm.numThreads ?? 1) : undefined,
    inputs,
    outputs,
    output,
    async infer(x) {
      const dims = [x.batch, x.sequence];
      const feeds: Record<string, Ort.Tensor> = { input_ids: new ort.Tensor('int64', x.inputIds, dims) };
      if (names.has('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', x.attentionMask, dims);
      if (names.has('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', x.typeIds ?? new BigInt64Array(x.batch * x.sequence), dims);
      if (names.has('position_ids')) {
        // Right padding: positions count from 0 along each row (padding positions are masked out).
        const pos = new BigInt64Array(x.batch * x.sequence);
        for (let b = 0; b < x.batch; b++) for (let s = 0; s < x.sequence; s++) pos[b * x.sequence + s] = BigInt(s);
        feeds.position_ids = new ort.Tensor('int64', pos, dims);
      }
      const result = await session.run(feeds);
      const t = result[output];
      try {
        const data = await t.getData();
        if (t.type === 'float32') return data as Float32Array;
        if (t.type === 'float16') {
          // Raw halves (Uint16Array), or a Float16Array where the browser has one.
          return data instanceof Uint16Array ? Float32Array.from(data, halfToFloat) : Float32Array.from(data as unknown as ArrayLike<number>);
        }
        if (t.type === 'float64') return Float32Array.from(data as Float64Array);
        throw new Error(`the output "${output}" is ${t.type}, not a float tensor of logits`);
      } finally {
        for (const v of Object.values(result)) v.dispose();
      }
    },
    release: () => session.release(),
  };
}
