import { describe, expect, it } from 'vitest';
import { ByteReader, MAX_CHUNK, sliceStream } from './byte-reader';
import { textChunksWithBytes } from './text-chunks';

describe('sliceStream', () => {
  it('streams a Blob in slices of the given size, byte for byte', async () => {
    const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 31) % 256);
    const chunks: Uint8Array[] = [];
    const reader = sliceStream(new Blob([bytes]), 4096).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.map((c) => c.length)).toEqual([4096, 4096, 1808]);
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);
  });

  it('reads the second slice only when asked for, then each slice while the one before is used', async () => {
    const bytes = new Uint8Array(1_000_000);
    const asked: number[] = [];
    const blob = {
      size: bytes.length,
      slice: (start: number, end: number) => {
        asked.push(start);
        return new Blob([bytes.subarray(start, end)]);
      },
    } as unknown as Blob;
    const reader = sliceStream(blob, 300_000).getReader();
    const tick = () => new Promise((r) => setTimeout(r, 5));
    await tick();
    expect(asked).toEqual([]); // nothing read before a read
    expect((await reader.read()).value?.length).toBe(256 << 10);
    await tick();
    expect(asked).toEqual([0]); // the head alone: no second slice read for nothing
    expect((await reader.read()).value?.length).toBe(300_000);
    await tick();
    expect(asked).toEqual([0, 262_144, 562_144]); // the third is read ahead
    expect((await reader.read()).value?.length).toBe(300_000);
    expect((await reader.read()).value?.length).toBe(1_000_000 - 862_144);
    expect((await reader.read()).done).toBe(true);
    expect(asked).toEqual([0, 262_144, 562_144, 862_144]);
  });
});

describe('ByteReader.freeUsed', () => {
  const bytes = Uint8Array.from({ length: 700_000 }, (_, i) => (i * 7) % 251);

  it('frees a slice it read once every chunk of it is handed out, and only then', async () => {
    const reader = new ByteReader(sliceStream(new Blob([bytes]), 300_000));
    reader.freeUsed();
    const chunks: Uint8Array[] = [];
    const copies: Uint8Array[] = [];
    for (let c = await reader.read(); c !== undefined; c = await reader.read()) {
      expect(c.length).toBeGreaterThan(0); // never a chunk of a freed buffer
      chunks.push(c);
      copies.push(c.slice());
    }
    expect(Buffer.concat(copies).equals(Buffer.from(bytes))).toBe(true);
    // The head (256 KiB) and the first two slices were read past and freed: views of them read as empty now. The last
    // slice is freed by the read that found the end.
    expect(chunks.every((c) => c.byteLength === 0)).toBe(true);
    expect(chunks.length).toBe(Math.ceil(262_144 / MAX_CHUNK) + Math.ceil(300_000 / MAX_CHUNK) + Math.ceil(137_856 / MAX_CHUNK));
  });

  it('keeps the chunk just handed out, the rest of its slice, and any buffer that is not its own', async () => {
    const reader = new ByteReader(sliceStream(new Blob([bytes]), 300_000));
    reader.freeUsed();
    const first = (await reader.read())!;
    const second = (await reader.read())!; // same slice (the head)
    expect(first.byteLength).toBe(MAX_CHUNK);
    expect(second.byteLength).toBe(MAX_CHUNK);
    // Another stream's buffers (a decompressor's, a pool's) are never freed here.
    const theirs = new Uint8Array(100);
    const other = new ByteReader(new Blob([theirs, theirs]).stream());
    other.freeUsed();
    const a = (await other.read())!;
    while ((await other.read()) !== undefined);
    expect(a.byteLength).toBeGreaterThan(0);
    // Without freeUsed nothing is freed.
    const plain = new ByteReader(sliceStream(new Blob([bytes]), 300_000));
    const kept = (await plain.read())!;
    while ((await plain.read()) !== undefined);
    expect(kept.byteLength).toBe(MAX_CHUNK);
  });

  it('text decoded by textChunksWithBytes is whole though its bytes are freed: multi-byte characters and a BOM split across reads', async () => {
    for (const [slice, rows] of [
      [1, 300],
      [2, 300],
      [5, 300],
      [4093, 30_000],
      [65_537, 30_000],
    ]) {
      const text = '\ufeff' + Array.from({ length: rows }, (_, i) => `{"q":"é${i}日本"}`).join('\n') + '\n';
      const encoded = new TextEncoder().encode(text);
      const reader = new ByteReader(sliceStream(new Blob([encoded]), slice));
      let got = '';
      for await (const c of textChunksWithBytes(reader)) got += c.text;
      expect(got).toBe(text.slice(1));
    }
  });
});
