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
});
