/**
 * A gzip-compressed file decompressed once, into a Blob (the browser keeps a large one in its blob storage, on disk
 * when it must), before it is imported: the import then reads plain bytes, and everything a plain file gets follows
 * (line spans, the WebAssembly scanner, reading a row back from its line in the data worker and the reward workers).
 * Read as a stream instead, a gzip file gave no spans, so every worker parsed and kept the whole file.
 */
import type { ByteSource } from './types';
import { ByteReader, sliceStream } from './byte-reader';
import { binary, gunzipReader, MAX_GZIP_LAYERS } from './container';
import { throwIfCancelled } from './cancel';
import { sniffBytes } from './sniff';

export interface Inflated {
  /** The file's bytes with every layer of gzip removed. */
  blob: Blob;
  /** Why the gzip stream ended early, when it did: `blob` holds the bytes before that. */
  truncated: string | null;
}

/** Bytes collected before they are added to the Blob: the worker never holds more of the file than this. */
const FLUSH_BYTES = 32 << 20;
/** Progress is told at most once per this many compressed bytes. */
const PROGRESS_BYTES = 4 << 20;

/** Whether `blob` starts as gzip does (the import's own sniff, on its first two bytes). */
const isGzip = async (blob: Blob) => sniffBytes(new Uint8Array(await blob.slice(0, 2).arrayBuffer()), true).kind === 'gzip';

/**
 * The file decompressed, or null when it is not gzip; meanwhile, now and then, the compressed bytes read so far.
 * Throws an ImportError for a corrupt stream, a decompression bomb (the import's own limits) or more than
 * MAX_GZIP_LAYERS layers, and stops on a cancel through `signal`.
 */
export async function* inflateFile(source: ByteSource, signal?: AbortSignal): AsyncGenerator<number, Inflated | null> {
  const { name } = source;
  let blob = source.blob;
  let layers = 0;
  let truncated: string | null = null;
  while (await isGzip(blob)) {
    if (++layers > MAX_GZIP_LAYERS) throw binary(name);
    const raw = new ByteReader(sliceStream(blob));
    const reader = gunzipReader(raw, source.blob.size, name);
    const parts: Blob[] = [];
    let pending: Uint8Array<ArrayBuffer>[] = [];
    let pendingBytes = 0;
    let told = 0;
    try {
      for (let c = await reader.read(); c !== undefined; c = await reader.read()) {
        throwIfCancelled(signal, name);
        pending.push(c as Uint8Array<ArrayBuffer>);
        pendingBytes += c.length;
        if (pendingBytes >= FLUSH_BYTES) {
          parts.push(new Blob(pending));
          pending = [];
          pendingBytes = 0;
        }
        if (layers === 1 && raw.consumed - told >= PROGRESS_BYTES) yield (told = raw.consumed);
      }
    } finally {
      await reader.cancel();
    }
    parts.push(new Blob(pending));
    truncated ??= reader.truncated;
    blob = new Blob(parts);
  }
  return layers === 0 ? null : { blob, truncated };
}
