// The CLI's gzip (Node's zlib stream) reads what the platform's DecompressionStream reads: the same rows, issues and
// errors for whole, multi-member, padded and corrupt files, and the rows before the cut of a truncated one.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { useGunzip } from '../core/formats/container';
import { importAll, importFailure, textSource } from '../core/formats/fixtures/load-fixture';
import { nodeGunzip } from './nodeGunzip';

const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `${tag}${i}`, completion: `a${i} é€😀 `.repeat(40) })).join('\n') + '\n';

/** The import of `bytes` as a .jsonl.gz file with each decompressor: rows, issues, or the error. */
async function both(bytes: Uint8Array) {
  const read = async () => {
    try {
      const r = await importAll(textSource('rows.jsonl.gz', bytes));
      return { ok: true as const, rows: r.rows.map((t) => [t.line, t.prompt, t.completion]), issues: r.issues, detection: r.detection };
    } catch (e) {
      return { ok: false as const, error: e instanceof Error ? e.message : String(e) };
    }
  };
  useGunzip(null);
  const web = await read();
  useGunzip(nodeGunzip);
  const node = await read();
  return { web, node };
}

afterEach(() => useGunzip(null));

describe('nodeGunzip', () => {
  it('reads a file of several MB as DecompressionStream does, across zlib chunks', async () => {
    const gz = new Uint8Array(gzipSync(Buffer.from(lines(6000, 'q'))));
    const { web, node } = await both(gz);
    expect(node.ok && node.rows.length).toBe(6000);
    expect(node).toEqual(web);
  });

  it('multi-member gzip and trailing zero padding: the same as DecompressionStream', async () => {
    const a = gzipSync(Buffer.from(lines(300, 'a')));
    const b = gzipSync(Buffer.from(lines(200, 'b')));
    for (const bytes of [Buffer.concat([a, b]), Buffer.concat([a, Buffer.alloc(64)])]) {
      const { web, node } = await both(new Uint8Array(bytes));
      expect(node).toEqual(web);
    }
    expect((await both(new Uint8Array(Buffer.concat([a, b])))).node).toMatchObject({ rows: expect.arrayContaining([[500, 'b199', expect.any(String)]]) });
  });

  // Junk after the last member is an error for both, which drops the output of the read that held it: with larger
  // chunks zlib's stream may keep fewer of the rows before it, so that case is not compared.

  it('a corrupt stream is refused, and a bomb stopped, with the import’s own messages', async () => {
    const gz = gzipSync(Buffer.from(lines(50, 'q')));
    gz[20] ^= 0xff;
    gz[21] ^= 0xff;
    const corrupt = await both(new Uint8Array(gz));
    expect(corrupt.node).toEqual(corrupt.web);
    useGunzip(nodeGunzip);
    const bomb = gzipSync(Buffer.from('{"prompt": "p", "completion": "c"}\n'.repeat(2_400_000)));
    expect((await importFailure(textSource('rows.jsonl.gz', new Uint8Array(bomb)))).message).toMatch(
      /^rows\.jsonl\.gz decompresses to more than 100 times its size/,
    );
  });

  it('a truncated file loads its first rows, in order, then says the stream ends early', async () => {
    const gz = gzipSync(Buffer.from(lines(4000, 'q')));
    const { web, node } = await both(new Uint8Array(gz.subarray(0, Math.floor(gz.length * 0.6))));
    for (const r of [web, node]) {
      if (!r.ok) throw new Error(r.error);
      expect(r.rows.length).toBeGreaterThan(1000);
      expect(r.rows.map((x) => x[1])).toEqual(Array.from({ length: r.rows.length }, (_, i) => `q${i}`));
      expect(r.issues.at(-1)!.reason).toMatch(/^the gzip stream ends early/);
    }
  });
});
