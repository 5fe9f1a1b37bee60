import { appendFileSync, mkdtempSync, rmSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteReader, readSlice, sliceStream } from '../core/formats/byte-reader';
import { openFile } from './nodeFile';

const dir = mkdtempSync(join(tmpdir(), 'node-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bytes that differ at every position (a misplaced read shows), multi-byte text included. */
function bytesOf(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7 + (i >>> 8)) & 0xff;
  return b;
}

function fileWith(name: string, bytes: Uint8Array | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

/** Byte equality without vitest's element-wise diff (seconds on megabytes). */
const same = (a: Uint8Array | ArrayBuffer, b: Uint8Array) => Buffer.from(a instanceof Uint8Array ? a : new Uint8Array(a)).equals(b);

async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('openFile', () => {
  const bytes = bytesOf(3_000_001);
  const path = fileWith('data.bin', bytes);

  it('slices as the File API says: negative, fractional, NaN, missing and out-of-range bounds, slices of slices', async () => {
    const f = await openFile(path);
    const n = bytes.length;
    expect(f.size).toBe(n);
    expect(f).toBeInstanceOf(Blob);
    // [start, end] given, and the byte range they mean (worked out from the spec, not from a Blob: Node 20's own
    // Blob.slice aborts the process on a fractional bound).
    const cases: [number | undefined, number | undefined, number, number][] = [
      [undefined, undefined, 0, n],
      [0, 10, 0, 10],
      [10, 0, 10, 10],
      [-5, undefined, n - 5, n],
      [-5, -2, n - 5, n - 2],
      [-4e6, 3, 0, 3],
      [2.7, 9.9, 3, 10],
      [2.5, 5.5, 2, 6],
      [-2.5, undefined, n - 2, n],
      [NaN, 4, 0, 4],
      [5, NaN, 5, 5],
      [2_999_990, 4e6, 2_999_990, n],
      [4e6, undefined, n, n],
    ];
    for (const [a, b, from, to] of cases) {
      const s = f.slice(a, b);
      expect(s.size, `slice(${a}, ${b})`).toBe(to - from);
      expect(same(await s.arrayBuffer(), bytes.subarray(from, to)), `slice(${a}, ${b})`).toBe(true);
    }
    const inner = f.slice(1_000, 2_000_000).slice(-500, -100).slice(7);
    expect(same(await inner.arrayBuffer(), bytes.subarray(2_000_000 - 500 + 7, 2_000_000 - 100))).toBe(true);
  });

  it('streams every byte, by a plain reader (chunks of 1 MiB) and by a BYOB reader (readSlice, ByteReader)', async () => {
    const f = await openFile(path);
    expect(same(await drain(f.stream()), bytes)).toBe(true);
    expect(same(await readSlice(f.slice(12_345, 2_500_000)), bytes.subarray(12_345, 2_500_000))).toBe(true);
    expect((await readSlice(f.slice(5, 5))).byteLength).toBe(0);
    const r = new ByteReader(sliceStream(f, 1 << 20));
    expect(same(await r.readAll(), bytes)).toBe(true);
  });

  it('reads text as UTF-8, and bytes', async () => {
    const f = await openFile(fileWith('text.jsonl', '{"a": "é✓"}\n'));
    expect(await f.text()).toBe('{"a": "é✓"}\n');
    expect(await f.slice(0, 4).text()).toBe('{"a"');
    // Blob.bytes() of the (empty) Blob underneath would give nothing: every read method is this file's.
    expect(Array.from(await f.slice(1, 4).bytes())).toEqual([0x22, 0x61, 0x22]);
  });

  it('refuses to read a file that changed since it was opened: rewritten, grown, or removed', async () => {
    const p = fileWith('changing.jsonl', '{"a": 1}\n');
    const rewritten = await openFile(p);
    writeFileSync(p, '{"a": 2}\n'); // same size
    utimesSync(p, new Date(), new Date(Date.now() + 5_000));
    await expect(rewritten.arrayBuffer()).rejects.toThrow(/changed on disk/);
    await expect(drain(rewritten.slice(1).stream())).rejects.toThrow(/changed on disk/);

    const grown = await openFile(p);
    appendFileSync(p, '{"a": 3}\n');
    await expect(grown.slice(0, 3).arrayBuffer()).rejects.toMatchObject({ name: 'NotReadableError' });

    const removed = await openFile(p);
    unlinkSync(p);
    await expect(removed.text()).rejects.toThrow(/ENOENT/);
  });

  it('has the true size of a file over 4 GiB and reads past that mark (Node 20’s openAsBlob gives the size mod 2^32)', async () => {
    // A sparse file: 4 GiB of hole, then a line. Node 20's file Blob said 12 bytes here, and the CLI read a 4.4 GB
    // JSONL file as its first 109 MB without a word.
    const p = join(dir, 'over-4-gib.jsonl');
    const tail = '{"a": 1}\n';
    writeFileSync(p, '');
    truncateSync(p, 2 ** 32 + 3);
    appendFileSync(p, tail);
    const f = await openFile(p);
    expect(f.size).toBe(2 ** 32 + 3 + tail.length);
    expect(await f.slice(-tail.length).text()).toBe(tail);
    expect(await f.slice(2 ** 32 + 3, 2 ** 32 + 7).text()).toBe('{"a"');
    expect(new Uint8Array(await f.slice(2 ** 32 - 2, 2 ** 32 + 4).arrayBuffer())).toEqual(Uint8Array.of(0, 0, 0, 0, 0, 0x7b));
    unlinkSync(p);
  });

  it('rejects a path that is missing or not a file, as openAsBlob does', async () => {
    await expect(openFile(join(dir, 'missing.jsonl'))).rejects.toThrow(/ENOENT/);
    await expect(openFile(dir)).rejects.toThrow(/is not a file/);
  });
});
