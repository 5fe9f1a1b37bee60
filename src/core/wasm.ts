/** A WebAssembly module that scripts/build-wasm.mjs wrote into the bundle as base64, compiled (callers keep it). */
export function compileBase64Wasm(base64: string): Promise<WebAssembly.Module> {
  return WebAssembly.compile(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)) as BufferSource);
}
