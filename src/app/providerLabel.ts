import type { AdapterInfo, Provider } from '../worker/ortLoader';

/** "WebGPU (google swiftshader, software fallback)" / "WASM (4 threads)". */
export function providerLabel(provider: Provider, adapter?: AdapterInfo, threads?: number): string {
  if (provider === 'webgpu') {
    const what = [adapter?.vendor, adapter?.architecture || adapter?.description].filter(Boolean).join(' ');
    const parts = [what, adapter?.isFallbackAdapter ? 'software fallback adapter' : ''].filter(Boolean);
    return parts.length ? `WebGPU (${parts.join(', ')})` : 'WebGPU';
  }
  return threads && threads > 1 ? `WASM (${threads} threads)` : 'WASM (1 thread)';
}
