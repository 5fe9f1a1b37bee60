import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { harnessFor, HARNESS_SOURCE, PRECOMPILED_HARNESS } from '../core/python/harness';
import {
  cacheDir,
  DIGEST_FILE,
  dropIfCorrupted,
  ensureSnapshot,
  handedSnapshotRef,
  pyodideDigest,
  readSnapshot,
  snapshotKey,
  snapshotRef,
  startPyodide,
  writeSnapshot,
  type PyodideSnapshotRef,
} from './pyodideSnapshot';

const dir = mkdtempSync(join(tmpdir(), 'reward-studio-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = (name: string) => ({ REWARD_STUDIO_CACHE_DIR: join(dir, name) });
const memory = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7) & 255);

describe('the Pyodide snapshot cache', () => {
  it('lives in the user cache folder, which an environment variable moves or turns off', () => {
    expect(cacheDir({ REWARD_STUDIO_CACHE_DIR: '/x/y' })).toBe('/x/y');
    expect(cacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/reward-studio');
    expect(cacheDir({ REWARD_STUDIO_NO_CACHE: '1', REWARD_STUDIO_CACHE_DIR: '/x/y' })).toBeNull();
    expect(snapshotRef({ REWARD_STUDIO_NO_CACHE: '1' })).toBeNull();
  });

  it('gives back what was written, when the key is the expected one', () => {
    const ref = snapshotRef(env('a'))!;
    expect(ref.key).toMatch(/^[0-9a-f]{64}$/);
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'none yet' });
    writeSnapshot(ref, memory(1001));
    const got = readSnapshot(ref);
    expect(got.ok && [...got.bytes]).toEqual([...memory(1001)]);
    // Pyodide views the memory as 32-bit words in place.
    expect(got.ok && got.bytes.byteOffset % 16).toBe(0);
    expect(statSync(ref.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
  });

  it('a key handed over by the launcher names the same file, which is still checked in full', () => {
    const ref = snapshotRef(env('h'))!;
    const handed = handedSnapshotRef({ ...env('h'), REWARD_STUDIO_SNAPSHOT_KEY: ref.key });
    expect(handed).toEqual(ref);
    writeSnapshot(ref, memory(2048));
    expect(readSnapshot(handed!).ok).toBe(true);
    const bytes = readFileSync(ref.path);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(ref.path, bytes, { mode: 0o600 });
    expect(readSnapshot(handed!)).toEqual({ ok: false, reason: 'corrupted' });
    chmodSync(ref.path, 0o622);
    expect(readSnapshot(handed!)).toEqual({ ok: false, reason: 'writable by others' });
    // No key, a malformed one, or caching off: none handed (the sandboxed run then hashes Pyodide itself).
    expect(handedSnapshotRef(env('h'))).toBeNull();
    expect(handedSnapshotRef({ ...env('h'), REWARD_STUDIO_SNAPSHOT_KEY: '../x' })).toBeNull();
    expect(handedSnapshotRef({ ...env('h'), REWARD_STUDIO_SNAPSHOT_KEY: ref.key.toUpperCase() })).toBeNull();
    expect(handedSnapshotRef({ REWARD_STUDIO_NO_CACHE: '1', REWARD_STUDIO_SNAPSHOT_KEY: ref.key })).toBeNull();
  });

  it('refuses a corrupted, cut, foreign or mismatched file', () => {
    const ref = snapshotRef(env('b'))!;
    const write = (bytes: Uint8Array | string) => writeFileSync(ref.path, bytes, { mode: 0o600 });
    writeSnapshot(ref, memory(4096));
    const good = readFileSync(ref.path);

    const flipped = Buffer.from(good);
    flipped[good.length - 100] ^= 1;
    write(flipped);
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'corrupted' });

    write(good.subarray(0, good.length - 1));
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'cut short' });

    write('not a snapshot at all');
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'not a snapshot' });

    // Made for another Pyodide, Node or recipe: another key in its header.
    writeSnapshot({ ...ref, key: 'f'.repeat(64) }, memory(4096));
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'made for another Pyodide, Node or recipe' });

    write(good);
    chmodSync(ref.path, 0o620);
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'writable by others' });
    chmodSync(ref.path, 0o600);
    expect(readSnapshot(ref).ok).toBe(true);
  });

  it('is made again when the file is refused', async () => {
    const e = env('c');
    const ref = snapshotRef(e)!;
    let made = 0;
    const make = async () => (made++, memory(2048));
    expect(await ensureSnapshot(e, undefined, make)).toEqual(ref);
    expect(made).toBe(1);
    expect(await ensureSnapshot(e, undefined, make)).toEqual(ref);
    expect(made).toBe(1);
    const bytes = readFileSync(ref.path);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(ref.path, bytes);
    expect(readSnapshot(ref).ok).toBe(false);
    expect(await ensureSnapshot(e, undefined, make)).toEqual(ref);
    expect(made).toBe(2);
    expect(readSnapshot(ref).ok).toBe(true);
    // Not made when it cannot be: Python then starts the usual way.
    expect(await ensureSnapshot(env('d'), undefined, () => Promise.reject(new Error('no')))).toBeNull();
    const broken: PyodideSnapshotRef = { ...ref, path: join(dir, 'not-a-folder', 'x.snapshot') };
    writeFileSync(join(dir, 'not-a-folder'), '');
    expect(() => writeSnapshot(broken, memory(16))).toThrow();
    // A cache folder it cannot create: nothing is made.
    expect(await ensureSnapshot({ REWARD_STUDIO_CACHE_DIR: join(dir, 'not-a-folder', 'cache') }, undefined, make)).toBeNull();
    expect(made).toBe(2);
  });

  it("remembers the digest of Pyodide's files by their identities, and hashes a changed file again", () => {
    const pyodide = join(dir, 'fake-pyodide');
    mkdirSync(pyodide, { recursive: true });
    const names = ['package.json', 'pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];
    for (const f of names) writeFileSync(join(pyodide, f), `the bytes of ${f}`);
    // Worked out apart from the code: each file's name, a newline, then its bytes.
    const digestOf = () => {
      const h = createHash('sha256');
      for (const f of names) h.update(`${f}\n`).update(readFileSync(join(pyodide, f)));
      return h.digest('hex');
    };
    const cache = join(dir, 'digest');
    const memo = join(cache, DIGEST_FILE);
    expect(pyodideDigest(pyodide, null)).toBe(digestOf());
    expect(existsSync(memo)).toBe(false);
    expect(pyodideDigest(pyodide, cache)).toBe(digestOf());
    expect(statSync(memo).mode & 0o777).toBe(0o600);
    // The remembered digest is the one used while the files are the same files (a forged one shows it is read).
    const forged = 'ab'.repeat(32);
    const kept = JSON.parse(readFileSync(memo, 'utf8')) as { sha256: string };
    writeFileSync(memo, JSON.stringify({ ...kept, sha256: forged }), { mode: 0o600 });
    expect(pyodideDigest(pyodide, cache)).toBe(forged);
    expect(snapshotKey(pyodide, cache)).not.toBe(snapshotKey(pyodide, null));
    // A file written again (same size: only its change time and bytes differ): hashed again, and remembered anew.
    writeFileSync(join(pyodide, 'pyodide.asm.wasm'), 'the bytes of pyodide.asm.wXsm');
    expect(pyodideDigest(pyodide, cache)).toBe(digestOf());
    expect(JSON.parse(readFileSync(memo, 'utf8'))).toMatchObject({ sha256: digestOf() });
    // A memo others may write is not believed; nor is one for another folder, nor garbage.
    writeFileSync(memo, JSON.stringify({ ...kept, sha256: forged }), { mode: 0o600 });
    chmodSync(memo, 0o666);
    expect(pyodideDigest(pyodide, cache)).toBe(digestOf());
    for (const text of [JSON.stringify({ ...kept, dir: '/elsewhere', sha256: forged }), 'not json']) {
      writeFileSync(memo, text, { mode: 0o600 });
      chmodSync(memo, 0o600);
      expect(pyodideDigest(pyodide, cache)).toBe(digestOf());
    }
  });

  it("the launcher's header check leaves the body to a check after the start, which removes a corrupted file", async () => {
    const e = env('later');
    const ref = snapshotRef(e)!;
    let made = 0;
    const make = async () => (made++, memory(4096));
    expect(await ensureSnapshot(e, undefined, make, 'header')).toEqual(ref);
    expect(made).toBe(1);
    expect(dropIfCorrupted(ref)).toBe(false);
    const good = readFileSync(ref.path);
    const flipped = Buffer.from(good);
    flipped[good.length - 7] ^= 1;
    writeFileSync(ref.path, flipped, { mode: 0o600 });
    // The header is as it was: the launcher starts the run with it, and the run's workers refuse it.
    expect(readSnapshot(ref, true)).toEqual({ ok: true });
    expect(readSnapshot(ref)).toEqual({ ok: false, reason: 'corrupted' });
    expect(await ensureSnapshot(e, undefined, make, 'header')).toEqual(ref);
    expect(made).toBe(1);
    expect(dropIfCorrupted(ref)).toBe(true);
    expect(existsSync(ref.path)).toBe(false);
    expect(await ensureSnapshot(e, undefined, make, 'header')).toEqual(ref);
    expect(made).toBe(2);
    expect(readSnapshot(ref).ok).toBe(true);
    // The header check refuses what it can see: a cut file, another key, a file others may write.
    writeFileSync(ref.path, good.subarray(0, good.length - 1), { mode: 0o600 });
    expect(readSnapshot(ref, true)).toEqual({ ok: false, reason: 'cut short' });
    expect(dropIfCorrupted(ref)).toBe(true);
    expect(readSnapshot({ ...ref, key: 'f'.repeat(64) }, true)).toEqual({ ok: false, reason: 'none yet' });
    writeFileSync(ref.path, good, { mode: 0o600 });
    expect(readSnapshot({ ...ref, key: 'f'.repeat(64) }, true)).toEqual({ ok: false, reason: 'made for another Pyodide, Node or recipe' });
    chmodSync(ref.path, 0o660);
    expect(readSnapshot(ref, true)).toEqual({ ok: false, reason: 'writable by others' });
    // Refused for what it is not (not for its bytes): left where it is; ensureSnapshot makes it again.
    expect(dropIfCorrupted(ref)).toBe(false);
    expect(existsSync(ref.path)).toBe(true);
  });

  it('drops snapshots of other versions not used for two weeks when it makes one', async () => {
    const e = env('prune');
    const ref = snapshotRef(e)!;
    const folder = join(dir, 'prune');
    mkdirSync(folder, { recursive: true });
    const old = join(folder, 'pyodide-0123456789abcdef.snapshot');
    const recent = join(folder, 'pyodide-fedcba9876543210.snapshot');
    const other = join(folder, 'notes.txt');
    for (const f of [old, recent, other]) writeFileSync(f, 'x');
    const weeksAgo = new Date(Date.now() - 15 * 86_400_000);
    for (const f of [old, other]) utimesSync(f, weeksAgo, weeksAgo);
    expect(await ensureSnapshot(e, undefined, async () => memory(64))).toEqual(ref);
    expect(readdirSync(folder).sort()).toEqual([basename(ref.path), DIGEST_FILE, 'notes.txt', basename(recent)].sort());
  });

  it('starts a working Pyodide that draws its own random numbers', async () => {
    const e = env('real');
    const ref = await ensureSnapshot(e);
    expect(ref).not.toBeNull();
    const started = readFileSync(ref!.path).length;
    const draw = async () => {
      const py = await startPyodide(ref);
      // Imported by the snapshot's recipe, not by Pyodide's own start: this one came from the snapshot.
      expect(py.runPython('import sys\n"numbers" in sys.modules')).toBe(true);
      return py.runPython(
        'import random, re, fractions\nstr(random.random()) + " " + re.sub("a+", "b", "caaat") + " " + str(fractions.Fraction(1, 3) * 3)',
      ) as string;
    };
    const [a, b] = [await draw(), await draw()];
    // The harness compiled in the snapshot is used; with another source it is compiled again, and works the same.
    const reward = 'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 1.0\n';
    for (const source of [null, 'not the harness']) {
      const py = await startPyodide(ref);
      expect(py.runPython(`import sys\nsys.modules["${PRECOMPILED_HARNESS}"].source == ${JSON.stringify(HARNESS_SOURCE)}`)).toBe(true);
      if (source !== null) py.runPython(`import sys\nsys.modules["${PRECOMPILED_HARNESS}"].source = ${JSON.stringify(source)}`);
      expect(JSON.parse(harnessFor(py).findCandidates(reward))).toMatchObject({ ok: true, candidates: [{ name: 'compute_score', kind: 'verl' }] });
    }
    expect(a.split(' ').slice(1)).toEqual(['cbt', '1']);
    expect(b.split(' ').slice(1)).toEqual(['cbt', '1']);
    expect(a.split(' ')[0]).not.toBe(b.split(' ')[0]);
    // A refused snapshot: the usual start.
    const py = await startPyodide({ ...ref!, key: '0'.repeat(64) });
    expect(py.runPython('import sys\n"numbers" in sys.modules')).toBe(false);
    expect(readFileSync(ref!.path).length).toBe(started);
  }, 120_000);
});
