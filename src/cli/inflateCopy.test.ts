// A large gzip JSONL file's plain copy (inflateCopy.ts): made only for gzip JSONL that would be read in pieces or lean,
// byte for byte the file inflated, readable by its owner only, and never left behind when it cannot be made.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inflateCopy, inflateData } from './inflateCopy';
import { splitsAsPlain } from './pieceCount';

let dir = '';
let tmp = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-inflate-test-'));
  tmp = join(dir, 'tmp');
  mkdirSync(tmp);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 2 ** 20;
/** A Python pool of 2 reads a plain file of 16 MiB or more in pieces on any machine (pieceCount.ts). */
const python = { python: true, size: 2, workerMemoryMb: 4096 };
/** ~5 MiB of gzip: 5 × 3.5 guessed ≥ 16 MiB. Random digits, so that it does not shrink far. */
function rows(n: number, head = ''): Buffer {
  let x = 7;
  const digits = () => Array.from({ length: 60 }, () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) % 10).toString()).join('');
  return Buffer.from(head + Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `q${i}`, completion: digits() })).join('\n') + '\n');
}
const file = (name: string, data: Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

describe('inflateCopy', () => {
  it('copies a gzip JSONL file that would be read in pieces: the same bytes, its owner alone may read it, gone on dispose', async () => {
    const plain = rows(200_000, '\ufeff\n  ');
    const gz = gzipSync(plain, { level: 1 });
    expect(gz.length * 3.5).toBeGreaterThan(16 * MiB);
    const made = await inflateCopy(file('rows.jsonl.gz', gz), python, tmp);
    if (made.copy === null) throw new Error(`no copy (${made.note})`);
    const { path } = made.copy;
    expect(path.startsWith(join(tmp, 'reward-studio-'))).toBe(true);
    expect(path.endsWith('/rows.jsonl')).toBe(true);
    expect(readFileSync(path).equals(plain)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    made.copy.dispose();
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('makes none for a small file, a plain file, a one-worker pool, or gzip that is not JSONL (CSV, an array, gzip again); leaves nothing', async () => {
    const gz = gzipSync(rows(200_000), { level: 1 });
    const small = gzipSync(rows(100));
    const csv = gzipSync(Buffer.from('prompt,completion\n' + 'a,b\n'.repeat(3_000_000)));
    const array = gzipSync(Buffer.from(`[${'{"prompt":"a","completion":"b"},'.repeat(600_000)}{}]`));
    for (const [name, data, run] of [
      ['small.jsonl.gz', small, python],
      ['plain.jsonl', rows(300_000), python],
      ['one.jsonl.gz', gz, { ...python, size: 1 }],
    ] as const) {
      expect(await inflateCopy(file(name, data), run, tmp), name).toEqual({ copy: null, note: null });
    }
    // Tried whatever their size: what stops these is their first character.
    for (const [name, data] of [
      ['rows.csv.gz', csv],
      ['rows.json.gz', array],
      ['twice.jsonl.gz', gzipSync(gz)],
    ] as const) {
      expect(await inflateCopy(file(name, data), python, tmp, () => true), name).toEqual({ copy: null, note: null });
    }
    // Against a test that cannot fail: the same way, a JSONL file is copied.
    const made = await inflateCopy(file('tiny.jsonl.gz', small), python, tmp, () => true);
    expect(made.copy).not.toBeNull();
    made.copy?.dispose();
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('corrupt, truncated, trailing junk and a bomb: no copy and no note (the gzip read reports them), nothing left', async () => {
    const gz = gzipSync(rows(200_000), { level: 1 });
    const corrupt = Buffer.from(gz);
    corrupt.fill(0x55, 2_000_000, 2_000_100);
    const bomb = gzipSync(Buffer.from('{"prompt": "p", "completion": "c"}\n'.repeat(12_000_000)));
    expect(bomb.length * 100).toBeLessThan(420 * MiB); // past the import's 100× once over 64 MiB
    for (const [name, data] of [
      ['corrupt.jsonl.gz', corrupt],
      ['truncated.jsonl.gz', gz.subarray(0, gz.length - 1000)],
      ['junk.jsonl.gz', Buffer.concat([gz, Buffer.from('not gzip')])],
      ['bomb.jsonl.gz', bomb],
    ] as const) {
      // Tried whatever its size (the bomb's is small): what stops the copy is the stream.
      expect(await inflateCopy(file(name, data), python, tmp, () => true), name).toEqual({ copy: null, note: null });
    }
    expect(readdirSync(tmp)).toEqual([]);
    expect(gunzipSync(gz).length).toBeGreaterThan(16 * MiB);
  }, 30_000);

  it('a folder that cannot be written: no copy, with a note that names the file and what the read does instead', async () => {
    const path = file('rows.jsonl.gz', gzipSync(rows(200_000), { level: 1 }));
    const made = await inflateCopy(path, python, join(dir, 'no-such-folder'));
    expect(made.copy).toBeNull();
    expect(made).toMatchObject({
      note: expect.stringMatching(/^could not decompress rows\.jsonl\.gz into a temporary file \(.*ENOENT.*\): it is read as gzip, every row kept in memory$/),
    });
  });
});

describe('inflateCopy: disk space', () => {
  it('makes no copy where the inflated size (the larger of 3.5× and the gzip trailer’s) would leave under 256 MiB free, and says so', async () => {
    const plain = rows(200_000);
    const path = file('room.jsonl.gz', gzipSync(plain, { level: 1 }));
    const need = Math.max(statSync(path).size * 3.5, plain.length);
    const short = await inflateCopy(path, python, tmp, undefined, () => need * 1.1 + 256 * MiB - 1);
    expect(short.copy).toBeNull();
    expect(short).toMatchObject({
      note: expect.stringMatching(
        /^room\.jsonl\.gz would take about [\d.]+ GB decompressed and .* has [\d.]+ GB free: it is read as gzip, every row kept in memory \(set TMPDIR to a folder with room\)$/,
      ),
    });
    expect(readdirSync(tmp)).toEqual([]);
    const room = await inflateCopy(path, python, tmp, undefined, () => need * 1.1 + 256 * MiB);
    expect(room.copy).not.toBeNull();
    room.copy?.dispose();
  });
});

describe('inflateData: the gzip files of a dataset of several', () => {
  const run = { python: false, size: 2, workerMemoryMb: 32 }; // lean from 8 MiB a worker (a quarter of 32 MiB)
  it('copies every gzip file when the files, inflated as guessed, would be read lean; the plain ones are read as they are', async () => {
    const plain = file('step_1.jsonl', rows(1000));
    const a = rows(200_000);
    const gz = file('step_2.jsonl.gz', gzipSync(a, { level: 1 }));
    const made = await inflateData({ single: null, parts: [{ path: plain }, { path: gz }] }, run, tmp);
    expect(made.note).toBeNull();
    expect(made.copies.map(([p]) => p)).toEqual([gz]);
    expect(readFileSync(made.copies[0][1].path).equals(a)).toBe(true);
    for (const [, c] of made.copies) c.dispose();
    // Too small to be read lean, or no gzip file at all: none.
    expect(await inflateData({ single: null, parts: [{ path: plain }, { path: gz }] }, { ...run, workerMemoryMb: 4096 }, tmp)).toEqual({
      copies: [],
      note: null,
    });
    expect(await inflateData({ single: null, parts: [{ path: plain }, { path: plain }] }, run, tmp)).toEqual({ copies: [], note: null });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('all or none: one gzip file that cannot be copied (corrupt) leaves no copy of the others', async () => {
    const good = file('step_1.jsonl.gz', gzipSync(rows(200_000), { level: 1 }));
    const bad = Buffer.from(gzipSync(rows(200_000), { level: 1 }));
    bad.fill(0x55, 2_000_000, 2_000_100);
    const made = await inflateData({ single: null, parts: [{ path: good }, { path: file('step_2.jsonl.gz', bad) }] }, run, tmp);
    expect(made).toEqual({ copies: [], note: null });
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('splitsAsPlain (worked by hand)', () => {
  it('lean when a piece would take a quarter of a worker’s heap, or the rows half the memory; pieces for Python from 16 MiB on 2 workers', () => {
    // 200 MiB ≥ 512 MiB heap × 0.25 = 128 MiB: lean, even for one worker.
    expect(splitsAsPlain(200 * MiB, false, 1, 512, 64 * 2 ** 30)).toBe(true);
    expect(splitsAsPlain(100 * MiB, false, 1, 512, 64 * 2 ** 30)).toBe(false);
    // 1.8 × 10 GiB ≥ 32 GiB / 2.
    expect(splitsAsPlain(10 * 2 ** 30, false, 1, 1e9, 32 * 2 ** 30)).toBe(true);
    // Python pays for pieces on any machine, from two pieces of 8 MiB, given two workers.
    expect(splitsAsPlain(16 * MiB, true, 2, 4096, 64 * 2 ** 30)).toBe(true);
    expect(splitsAsPlain(16 * MiB - 1, true, 2, 4096, 64 * 2 ** 30)).toBe(false);
    expect(splitsAsPlain(64 * MiB, true, 1, 4096, 64 * 2 ** 30)).toBe(false);
  });
});
