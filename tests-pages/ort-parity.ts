/**
 * Test page module (tests-pages/ort-parity.html, used by e2e/ort-parity.spec.ts): runs the demo reward model in
 * onnxruntime-web with exactly ONE execution provider per session and reports which one ran.
 *
 * Each provider has its own entry point, imported on demand (STACK.md: import one entry point on purpose):
 *   wasm   -> onnxruntime-web/wasm   + ort-wasm-simd-threaded.wasm          (~14 MB)
 *   webgpu -> onnxruntime-web/webgpu + ort-wasm-simd-threaded.asyncify.wasm (~27 MB)
 * The .wasm files come from the app's own origin (Vite `?url` assets), never from a CDN. Load one provider per page
 * load: the two entry points each bundle their own copy of onnxruntime-common (own `env`, own backend registry).
 */
import type * as Ort from 'onnxruntime-web';

export type Provider = 'wasm' | 'webgpu';

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
      adapter?: { isFallbackAdapter: boolean; vendor: string; architecture: string; description: string };
      /** WebGPU only: onnxruntime created a GPUDevice (ort.env.webgpu.device) for the session. */
      webgpuDevice?: boolean;
    }
  | { ok: false; provider: Provider; unavailable: boolean; error: string };

async function loadOrt(provider: Provider): Promise<{ ort: typeof Ort; wasmUrl: string }> {
  if (provider === 'wasm') {
    const [ort, wasm] = await Promise.all([import('onnxruntime-web/wasm'), import('onnxruntime-web/ort-wasm-simd-threaded.wasm?url')]);
    return { ort, wasmUrl: wasm.default };
  }
  const [ort, wasm] = await Promise.all([import('onnxruntime-web/webgpu'), import('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url')]);
  return { ort, wasmUrl: wasm.default };
}

async function webgpuAdapter(): Promise<{ ok: true; info: NonNullable<Extract<ParityResult, { ok: true }>['adapter']> } | { ok: false; reason: string }> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<null | { info?: Record<string, unknown>; isFallbackAdapter?: boolean }> } }).gpu;
  if (!gpu) return { ok: false, reason: 'navigator.gpu is missing (no WebGPU in this browser)' };
  const adapter = await gpu.requestAdapter();
  if (!adapter) return { ok: false, reason: 'navigator.gpu.requestAdapter() returned null (WebGPU disabled; Chromium needs --enable-unsafe-webgpu here)' };
  const info = (adapter.info ?? {}) as Record<string, unknown>;
  return {
    ok: true,
    info: {
      isFallbackAdapter: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter),
      vendor: String(info.vendor ?? ''),
      architecture: String(info.architecture ?? ''),
      description: String(info.description ?? ''),
    },
  };
}

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
    ort.env.wasm.wasmPaths = { wasm: wasmUrl };
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

declare global {
  interface Window {
    ortParity: { runParity: typeof runParity };
  }
}
window.ortParity = { runParity };
document.getElementById('out')!.textContent = 'ready';
