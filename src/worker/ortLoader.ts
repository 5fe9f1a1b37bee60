/**
 * onnxruntime-web with exactly ONE execution provider per JS realm (page or worker). Each provider has its own entry
 * point, imported on demand (STACK.md: import one entry point on purpose):
 *   wasm   -> onnxruntime-web/wasm   + ort-wasm-simd-threaded.wasm          (~14 MB)
 *   webgpu -> onnxruntime-web/webgpu + ort-wasm-simd-threaded.asyncify.wasm (~27 MB)
 * The .wasm files come from the app's own origin (Vite `?url` assets), never from a CDN. The two entry points each
 * bundle their own copy of onnxruntime-common (own `env`, own backend registry): never load both in one realm.
 */
import type * as Ort from 'onnxruntime-web';

export type Provider = 'wasm' | 'webgpu';

export interface AdapterInfo {
  isFallbackAdapter: boolean;
  vendor: string;
  architecture: string;
  description: string;
}

export async function loadOrt(provider: Provider): Promise<{ ort: typeof Ort; wasmUrl: string }> {
  const [ort, wasm] =
    provider === 'wasm'
      ? await Promise.all([import('onnxruntime-web/wasm'), import('onnxruntime-web/ort-wasm-simd-threaded.wasm?url')])
      : await Promise.all([import('onnxruntime-web/webgpu'), import('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url')]);
  ort.env.wasm.wasmPaths = { wasm: wasm.default };
  return { ort, wasmUrl: wasm.default };
}

type Gpu = { requestAdapter(): Promise<null | { info?: Record<string, unknown>; isFallbackAdapter?: boolean }> };

/** The WebGPU adapter this realm would get (pages and workers both have `navigator.gpu` in Chromium), or why none. */
export async function webgpuAdapter(): Promise<{ ok: true; info: AdapterInfo } | { ok: false; reason: string }> {
  const gpu = (globalThis.navigator as (Navigator & { gpu?: Gpu }) | undefined)?.gpu;
  if (!gpu) return { ok: false, reason: 'this browser has no WebGPU (navigator.gpu is missing)' };
  let adapter: Awaited<ReturnType<Gpu['requestAdapter']>>;
  try {
    adapter = await gpu.requestAdapter();
  } catch (e) {
    return { ok: false, reason: `requesting a WebGPU adapter failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!adapter) return { ok: false, reason: 'no WebGPU adapter (WebGPU is disabled or the GPU is blocklisted)' };
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
