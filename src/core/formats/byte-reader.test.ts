import { describe, expect, it } from 'vitest';
import { sliceStream } from './byte-reader';

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
