import { sha256HexOf } from '../core/digest';

/** SHA-256 of a file, in hex (Web Crypto: native, off the JavaScript heap's critical path). */
export async function sha256Hex(blob: Blob): Promise<string> {
  return sha256HexOf(await blob.arrayBuffer());
}

const cache = new WeakMap<Blob, Promise<string>>();
/** The same, computed once per file. */
export function sha256Cached(blob: Blob): Promise<string> {
  let p = cache.get(blob);
  if (!p) cache.set(blob, (p = sha256Hex(blob)));
  return p;
}
