import { describe, expect, it } from 'vitest';
import { streamOf } from './fixtures/load-fixture';
import { ByteReader } from './byte-reader';
import { completeLength, textChunks } from './text-chunks';

async function decodeAll(bytes: Uint8Array, sizes: number[]): Promise<string> {
  let out = '';
  for await (const t of textChunks(new ByteReader(streamOf(bytes, sizes)))) out += t;
  return out;
}

const enc = (s: string) => new TextEncoder().encode(s);

describe('completeLength', () => {
  it('keeps ASCII and whole characters, drops a split character', () => {
    expect(completeLength(enc('ab'))).toBe(2);
    const e = enc('aé'); // 61 c3 a9
    expect(completeLength(e)).toBe(3);
    expect(completeLength(e.subarray(0, 2))).toBe(1);
    const ja = enc('日'); // e6 97 a5
    expect(completeLength(ja.subarray(0, 1))).toBe(0);
    expect(completeLength(ja.subarray(0, 2))).toBe(0);
    expect(completeLength(ja)).toBe(3);
    const emoji = enc('x👍'); // 78 f0 9f 91 8d
    expect(completeLength(emoji.subarray(0, 4))).toBe(1);
    expect(completeLength(emoji)).toBe(5);
  });
});

describe('textChunks', () => {
  const text = 'plain, é, 日本語, 👍🏽, e\u0301, 🧑\u200d🚀, 𝔘 — end';

  it('decodes a multi-byte character split across chunks, for every chunk size', async () => {
    const bytes = enc(text);
    for (let size = 1; size <= 9; size++) expect(await decodeAll(bytes, [size])).toBe(text);
    expect(await decodeAll(bytes, [1, 2, 3, 5, 8])).toBe(text);
  });

  it('drops a leading BOM, also when it arrives byte by byte, and keeps a BOM elsewhere', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc('a\uFEFFb')]);
    expect(await decodeAll(bytes, [1])).toBe('a\uFEFFb');
    expect(await decodeAll(bytes, [2, 5])).toBe('a\uFEFFb');
    expect(await decodeAll(bytes, [100])).toBe('a\uFEFFb');
  });

  it('fuzz: random bytes (valid or not) decode as a one-shot TextDecoder would', async () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = [
      enc('é'),
      enc('日'),
      enc('👍'),
      enc('ab'),
      new Uint8Array([0xf0, 0x9f]),
      new Uint8Array([0x80]),
      new Uint8Array([0xe0, 0x80]),
      new Uint8Array([0xff]),
      new Uint8Array([0xc3]),
      new Uint8Array([0xed, 0xa0, 0x80]),
      new Uint8Array([0xf4, 0x90, 0x80, 0x80]),
      new Uint8Array([0xef, 0xbb, 0xbf]),
    ];
    for (let round = 0; round < 400; round++) {
      const parts: number[] = [];
      const n = Math.floor(rand() * 30);
      for (let i = 0; i < n; i++) parts.push(...pieces[Math.floor(rand() * pieces.length)]);
      const bytes = new Uint8Array(parts);
      const expected = new TextDecoder().decode(bytes);
      const sizes = [1 + Math.floor(rand() * 4), 1 + Math.floor(rand() * 7)];
      expect(await decodeAll(bytes, sizes), `round ${round}`).toBe(expected);
    }
  });
});
