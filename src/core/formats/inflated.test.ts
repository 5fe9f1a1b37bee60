import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InflatedReader } from './inflated';

/** Bytes that do not repeat (so a range read from the wrong offset shows), and their gzip in many small blocks. */
function file(n: number): { plain: Uint8Array; gz: Blob } {
  const plain = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    plain[i] = x >>> 24;
  }
  return { plain, gz: new Blob([gzipSync(plain, { chunkSize: 1024 })]) };
}

describe('InflatedReader', () => {
  it('gives the decompressed bytes of every range, decompressing once while the ranges go forward', async () => {
    const { plain, gz } = file(300_000);
    const r = new InflatedReader(gz);
    let at = 0;
    let x = 7;
    while (at < plain.length) {
      x = (x * 69069 + 1) >>> 0;
      const start = Math.min(plain.length, at + (x % 3 === 0 ? (x >>> 8) % 5000 : 0));
      const end = Math.min(plain.length, start + ((x >>> 12) % 40_000));
      expect(await r.read(start, end)).toEqual(plain.subarray(start, end));
      at = end;
    }
    expect(r.starts).toBe(1);
  });

  it('answers a range that starts inside the last one without starting again, and starts again for one before it', async () => {
    const { plain, gz } = file(100_000);
    const r = new InflatedReader(gz);
    expect(await r.read(10_000, 20_000)).toEqual(plain.subarray(10_000, 20_000));
    // A read ahead cut short: the next task starts inside the last range and goes past it.
    expect(await r.read(15_000, 30_000)).toEqual(plain.subarray(15_000, 30_000));
    expect(await r.read(29_999, 30_001)).toEqual(plain.subarray(29_999, 30_001));
    expect(r.starts).toBe(1);
    expect(await r.read(5, 50)).toEqual(plain.subarray(5, 50));
    expect(r.starts).toBe(2);
    expect(await r.read(99_000, 100_000)).toEqual(plain.subarray(99_000, 100_000));
    expect(r.starts).toBe(2);
    expect(await r.read(50, 50)).toEqual(new Uint8Array(0));
  });

  it('serves reads in the order asked when they are asked at once (a read ahead)', async () => {
    const { plain, gz } = file(200_000);
    const r = new InflatedReader(gz);
    const got = await Promise.all([r.read(0, 70_000), r.read(70_000, 140_000), r.read(140_000, 200_000)]);
    expect(got).toEqual([plain.subarray(0, 70_000), plain.subarray(70_000, 140_000), plain.subarray(140_000, 200_000)]);
    expect(r.starts).toBe(1);
  });

  it('rejects a range past the end, and a file that is not gzip, and goes on reading after', async () => {
    const { plain, gz } = file(1000);
    const r = new InflatedReader(gz);
    await expect(r.read(900, 1001)).rejects.toThrow(/ends at byte 1000, before byte 1001/);
    expect(await r.read(0, 10)).toEqual(plain.subarray(0, 10));
    await expect(new InflatedReader(new Blob(['not gzip at all'])).read(0, 4)).rejects.toThrow();
  });

  it('stops at the range asked for: a decompression bomb is never decompressed past it', async () => {
    const bomb = new Blob([gzipSync(new Uint8Array(64 << 20))]);
    const r = new InflatedReader(bomb);
    const got = await r.read(100, 200);
    expect(got).toEqual(new Uint8Array(100));
    // Only the stream's first pieces were decompressed: what it holds now ends near the range.
    expect((r as unknown as { restStart: number; rest: Uint8Array }).restStart).toBeLessThan(1 << 20);
  });
});
