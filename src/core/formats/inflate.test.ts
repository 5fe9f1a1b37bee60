import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflateFile } from './inflate';
import { GZIP_RATIO } from './gzipLimits';

/** Bytes that gzip cannot shrink (xorshift32), so the compressed file is as large as they are. */
function bytesOf(n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  let x = 2463534242;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Equal bytes (toEqual on tens of megabytes is slow, and its diff would not fit in memory). */
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

async function run(blob: Blob, signal?: AbortSignal) {
  const progress: number[] = [];
  const it = inflateFile({ name: 'f.jsonl.gz', blob }, signal);
  let r = await it.next();
  for (; !r.done; r = await it.next()) progress.push(r.value);
  return { inflated: r.value, progress };
}

const bytes = async (b: Blob) => new Uint8Array(await b.arrayBuffer());

describe('inflateFile: a gzip file decompressed into a Blob before the import', () => {
  it('gives the decompressed bytes, with progress on the compressed file rising to its size; null for a plain file', async () => {
    const plain = bytesOf(40 << 20);
    const gz = new Blob([gzipSync(plain, { level: 1 })]);
    const { inflated, progress } = await run(gz);
    expect(inflated?.truncated).toBeNull();
    expect(same(await bytes(inflated!.blob), plain)).toBe(true);
    // One report per 4 MB of the compressed file at most, rising, never past its size. (How many come depends on how
    // far ahead the platform's DecompressionStream reads its input: Node's takes most of this file before its output.)
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThanOrEqual(Math.floor(gz.size / (4 << 20)));
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
    expect(progress.at(-1)!).toBeLessThanOrEqual(gz.size);
    expect(await run(new Blob([plain.subarray(0, 1000)]))).toEqual({ inflated: null, progress: [] });
    expect(await run(new Blob([]))).toEqual({ inflated: null, progress: [] });
  });

  it('takes every layer off, up to three; a fourth is refused as binary', async () => {
    const plain = new TextEncoder().encode('{"prompt":"a","completion":"b"}\n');
    let layered: Uint8Array = plain;
    for (let layers = 1; layers <= 4; layers++) {
      layered = gzipSync(layered);
      const blob = new Blob([layered as Uint8Array<ArrayBuffer>]);
      if (layers <= 3) expect(await bytes((await run(blob)).inflated!.blob)).toEqual(plain);
      else await expect(run(blob)).rejects.toThrow('f.jsonl.gz looks like a binary file');
    }
  });

  it('a stream cut short says why and keeps the bytes before the cut; a corrupt one is refused with the reason', async () => {
    const plain = bytesOf(200_000);
    const gz = gzipSync(plain);
    const { inflated } = await run(new Blob([gz.subarray(0, gz.length - 5000)]));
    expect(inflated!.truncated).toEqual(expect.any(String));
    const kept = await bytes(inflated!.blob);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(plain.length);
    expect(same(kept, plain.subarray(0, kept.length))).toBe(true);
    const corrupt = Uint8Array.from(gz);
    corrupt.fill(0xff, 10, 60);
    await expect(run(new Blob([corrupt]))).rejects.toThrow(/^f\.jsonl\.gz looks gzip-compressed but could not be decompressed \(.+\)\.$/);
  });

  it('stops a decompression bomb at the import’s limit, and stops when cancelled', async () => {
    const bomb = new Blob([gzipSync(new Uint8Array(96 << 20))]);
    expect(bomb.size * GZIP_RATIO).toBeLessThan(96 << 20);
    await expect(run(bomb)).rejects.toThrow(`decompresses to more than ${GZIP_RATIO} times its size`);
    const abort = new AbortController();
    abort.abort();
    await expect(run(new Blob([gzipSync(bytesOf(1 << 20))]), abort.signal)).rejects.toThrow();
  });
});
