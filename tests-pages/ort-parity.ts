/**
 * Test page module (tests-pages/ort-parity.html, used by e2e/ort-parity.spec.ts): runs the demo reward model in
 * onnxruntime-web with exactly ONE execution provider per session and reports which one ran (src/worker/ortLoader.ts
 * loads one entry point per page load). `window.ortBench` (tests-pages/ort-bench.ts, imported on first use) times
 * the same runtime for bench/model.bench.mjs.
 */
import { loadOrt, webgpuAdapter, type AdapterInfo, type Provider } from '../src/worker/ortLoader';

export type { Provider };

export interface ParityRequest {
  provider: Provider;
  modelUrl: string;
  /** Row-major [batch, sequence] token ids and mask (numbers: BigInt does not cross page.evaluate). */
  inputIds: number[];
  attentionMask: number[];
  batch: number;
  sequence: number;
  /** ort.env.wasm.numThreads; 0 lets onnxruntime pick. */
  numThreads: number;
}

export type ParityResult =
  | {
      ok: true;
      provider: Provider;
      /** The execution providers the session was created with: always exactly [provider]. */
      executionProviders: string[];
      logits: number[];
      dims: number[];
      inputNames: readonly string[];
      outputNames: readonly string[];
      crossOriginIsolated: boolean;
      numThreads: number | undefined;
      wasmUrl: string;
      adapter?: AdapterInfo;
      /** WebGPU only: onnxruntime created a GPUDevice (ort.env.webgpu.device) for the session. */
      webgpuDevice?: boolean;
    }
  | { ok: false; provider: Provider; unavailable: boolean; error: string };

export async function runParity(req: ParityRequest): Promise<ParityResult> {
  const { provider } = req;
  let adapter: Extract<ParityResult, { ok: true }>['adapter'];
  if (provider === 'webgpu') {
    const a = await webgpuAdapter();
    if (!a.ok) return { ok: false, provider, unavailable: true, error: a.reason };
    adapter = a.info;
  }
  try {
    const { ort, wasmUrl } = await loadOrt(provider);
    if (req.numThreads > 0) ort.env.wasm.numThreads = req.numThreads;
    const model = new Uint8Array(await (await fetch(req.modelUrl)).arrayBuffer());
    const session = await ort.InferenceSession.create(model, { executionProviders: [provider] });
    let webgpuDevice: boolean | undefined;
    if (provider === 'webgpu') {
      try {
        webgpuDevice = Boolean(await ort.env.webgpu.device);
      } catch {
        webgpuDevice = false;
      }
    }
    try {
      const dims = [req.batch, req.sequence];
      const out = await session.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.from(req.inputIds, BigInt), dims),
        attention_mask: new ort.Tensor('int64', BigInt64Array.from(req.attentionMask, BigInt), dims),
      });
      const logits = out.logits;
      return {
        ok: true,
        provider,
        executionProviders: [provider],
        logits: Array.from((await logits.getData()) as Float32Array),
        dims: [...logits.dims],
        inputNames: session.inputNames,
        outputNames: session.outputNames,
        crossOriginIsolated: self.crossOriginIsolated,
        numThreads: ort.env.wasm.numThreads,
        wasmUrl,
        adapter,
        webgpuDevice,
      };
    } finally {
      await session.release();
    }
  } catch (e) {
    return { ok: false, provider, unavailable: false, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

type Bench = typeof import('./ort-bench');
/** bench/model.bench.mjs: timing and cached-scoring helpers (tests-pages/ort-bench.ts), loaded on first use. */
const bench = () => import('./ort-bench');

declare global {
  interface Window {
    ortParity: { runParity: typeof runParity };
    ortBench: {
      load: (...a: Parameters<Bench['load']>) => ReturnType<Bench['load']>;
      setBatches: (...a: Parameters<Bench['setBatches']>) => ReturnType<Bench['setBatches']>;
      time: (...a: Parameters<Bench['time']>) => ReturnType<Bench['time']>;
      score: (...a: Parameters<Bench['score']>) => ReturnType<Bench['score']>;
      adapter: () => ReturnType<Bench['adapter']>;
    };
  }
}
window.ortParity = { runParity };
window.ortBench = {
  load: async (...a) => (await bench()).load(...a),
  setBatches: async (...a) => (await bench()).setBatches(...a),
  time: async (...a) => (await bench()).time(...a),
  score: async (...a) => (await bench()).score(...a),
  adapter: async () => (await bench()).adapter(),
};
document.getElementById('out')!.textContent = 'ready';
