/**
 * A memory snapshot of a freshly started Pyodide (the CLI's Python workers, Node only): `loadPyodide` takes 2–3 s of
 * CPU, a start from the snapshot ~0.3 s. The snapshot holds the interpreter as Pyodide leaves it after its own start
 * plus the harness's standard-library imports and the harness compiled (not run), and nothing of any reward, dataset
 * or user.
 *
 * Kept in the user's cache folder (`REWARD_STUDIO_CACHE_DIR`, else `$XDG_CACHE_HOME/reward-studio`, else
 * `~/.cache/reward-studio`; `REWARD_STUDIO_NO_CACHE=1` turns it off), written only by this module (a folder of mode
 * 0700, a file of mode 0600, moved into place whole). Its name and header carry a key: the SHA-256 of Pyodide's own
 * files, Node's version and this recipe (the harness's source included); a file is used only when it belongs to the
 * current user, is writable by no one else, its key is the expected one and its bytes hash to the SHA-256 its header
 * holds. Anything else is refused (and made again by the next process that may write the cache). The digest of
 * Pyodide's files is remembered beside the snapshots (`pyodideDigest`), so that a run does not hash 13 MB again.
 */
import { createHash } from 'node:crypto';
import {
  accessSync,
  closeSync,
  constants as fsConstants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  type Stats,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PyodideAPI } from 'pyodide';
import { HARNESS_SOURCE, PRECOMPILE_HARNESS_PY } from '../core/python/harness';
import { PREIMPORT, startFrom, takeSnapshot } from './pyodideRecipe';

/** Where a worker finds the snapshot, and the key it must carry. */
export interface PyodideSnapshotRef {
  path: string;
  key: string;
}

/** Bump when what goes into the snapshot changes. */
const RECIPE = 'reward-studio pyodide snapshot 2';
const MAGIC = 'RSPYODIDESNAP01\n';
/** Pyodide's files that the snapshot depends on. */
const PYODIDE_FILES = ['package.json', 'pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];

/** The cache folder, or null when caching is turned off. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.REWARD_STUDIO_NO_CACHE === '1') return null;
  if (env.REWARD_STUDIO_CACHE_DIR) return env.REWARD_STUDIO_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'reward-studio');
}

/** The installed Pyodide package's folder, or null. */
export function pyodideDir(from: string | URL = import.meta.url): string | null {
  try {
    return dirname(createRequire(from).resolve('pyodide/package.json'));
  } catch {
    return null;
  }
}

/** The key of a snapshot made by this recipe (the harness's source included) with the Pyodide in `dir` on this Node. */
export function snapshotKey(dir: string, cache: string | null = null): string {
  return createHash('sha256')
    .update(`${RECIPE}\n${process.version}\n${process.arch}\n${PREIMPORT}\n${PRECOMPILE_HARNESS_PY}\n`)
    .update(HARNESS_SOURCE)
    .update(pyodideDigest(dir, cache))
    .digest('hex');
}

/** Where `pyodideDigest` remembers the digest of Pyodide's files. */
export const DIGEST_FILE = 'pyodide-files.json';

/**
 * SHA-256 of Pyodide's files (names and bytes), remembered in `cache` with the files' identities: device, inode, size
 * and change time, which the kernel sets on every write and rename. Hashing the 13 MB took ~35 ms of each Python run.
 */
export function pyodideDigest(dir: string, cache: string | null = null): string {
  const identity = JSON.stringify(
    PYODIDE_FILES.map((f) => {
      const st = statSync(join(dir, f), { bigint: true });
      return [f, String(st.dev), String(st.ino), String(st.size), String(st.ctimeNs), String(st.mtimeNs)];
    }),
  );
  const memo = cache === null ? null : join(cache, DIGEST_FILE);
  if (memo !== null) {
    const text = readOwnFile(memo);
    try {
      const got = text === null ? null : (JSON.parse(text) as { dir?: unknown; identity?: unknown; sha256?: unknown });
      if (got && got.dir === dir && got.identity === identity && typeof got.sha256 === 'string' && /^[0-9a-f]{64}$/.test(got.sha256)) return got.sha256;
    } catch {
      /* not ours: hashed again below */
    }
  }
  const h = createHash('sha256');
  for (const f of PYODIDE_FILES) h.update(`${f}\n`).update(readFileSync(join(dir, f)));
  const sha256 = h.digest('hex');
  if (memo !== null) {
    try {
      writeWhole(memo, Buffer.from(JSON.stringify({ dir, identity, sha256 })));
    } catch {
      /* a cache this process may not write (the sandboxed run): hashed again next time */
    }
  }
  return sha256;
}

/** A file's text when it belongs to this user and no one else may write it; else null. */
function readOwnFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    return notOwn(st) === null && st.size <= 65_536 ? readFileSync(fd, 'utf8') : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Why a file of the cache is not to be used: not a file, or one someone else wrote or may write; null when it is ours. */
function notOwn(st: Stats): string | null {
  if (!st.isFile()) return 'not a file';
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return 'owned by another user';
  if ((st.mode & 0o022) !== 0) return 'writable by others';
  return null;
}

/** Write `bytes` to `path` whole: a temporary file of mode 0600 in a folder of mode 0700, moved into place. */
function writeWhole(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Where the snapshot for `key` lives (nothing is read), or null when caching is off or Pyodide is not installed. */
export function snapshotRef(env: NodeJS.ProcessEnv = process.env, from?: string | URL): PyodideSnapshotRef | null {
  const dir = cacheDir(env);
  const pyodide = pyodideDir(from);
  if (dir === null || pyodide === null) return null;
  try {
    return refOf(dir, snapshotKey(pyodide, dir));
  } catch {
    return null;
  }
}

const refOf = (dir: string, key: string): PyodideSnapshotRef => ({ path: join(dir, `pyodide-${key.slice(0, 16)}.snapshot`), key });

/**
 * The launcher's key, handed to the sandboxed process it starts (sandbox.ts) so that it does not hash Pyodide's 13 MB
 * again. Only a key: the file is still checked in full (owner, mode, key, SHA-256) by `readSnapshot`.
 */
export const SNAPSHOT_KEY_ENV = 'REWARD_STUDIO_SNAPSHOT_KEY';

/** The snapshot the launcher made or checked (`SNAPSHOT_KEY_ENV`), or null when it handed none over. */
export function handedSnapshotRef(env: NodeJS.ProcessEnv = process.env): PyodideSnapshotRef | null {
  const key = env[SNAPSHOT_KEY_ENV];
  const dir = cacheDir(env);
  return dir !== null && key !== undefined && /^[0-9a-f]{64}$/.test(key) ? refOf(dir, key) : null;
}

type Refused = { ok: false; reason: string };

/**
 * The snapshot's memory when the file at `ref.path` is a valid snapshot for `ref.key`; else why not. `headerOnly`:
 * the checks short of the body's SHA-256 (owner, mode, key, length), and no memory (the launcher: see `dropIfCorrupted`).
 */
export function readSnapshot(ref: PyodideSnapshotRef): { ok: true; bytes: Uint8Array } | Refused;
export function readSnapshot(ref: PyodideSnapshotRef, headerOnly: true): { ok: true } | Refused;
export function readSnapshot(ref: PyodideSnapshotRef, headerOnly = false): { ok: true; bytes?: Uint8Array } | Refused {
  let fd: number;
  try {
    fd = openSync(ref.path, 'r');
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'none yet' : `unreadable (${String(e)})` };
  }
  try {
    const st = fstatSync(fd);
    // Written only by this user: a file someone else could have written is not run.
    const refused = notOwn(st);
    if (refused !== null) return { ok: false, reason: refused };
    const magic = MAGIC.length;
    const want = headerOnly ? Math.min(st.size, magic + 4 + MAX_HEADER) : st.size;
    // Not from Buffer's shared pool: the memory must start at offset 0 of its own buffer (see writeSnapshot).
    const all = Buffer.allocUnsafeSlow(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, all, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got < magic + 4 || all.toString('latin1', 0, magic) !== MAGIC) return { ok: false, reason: 'not a snapshot' };
    const headerLength = all.readUInt32LE(magic);
    if (headerLength > MAX_HEADER || magic + 4 + headerLength > got) return { ok: false, reason: 'bad header' };
    let header: { key?: unknown; bytes?: unknown; sha256?: unknown };
    try {
      header = JSON.parse(all.toString('utf8', magic + 4, magic + 4 + headerLength)) as typeof header;
    } catch {
      return { ok: false, reason: 'bad header' };
    }
    if (header.key !== ref.key) return { ok: false, reason: 'made for another Pyodide, Node or recipe' };
    const start = magic + 4 + headerLength;
    if (header.bytes !== (headerOnly ? st.size : got) - start) return { ok: false, reason: 'cut short' };
    if (start % 16 !== 0) return { ok: false, reason: 'bad header' };
    if (headerOnly) return { ok: true };
    const body = all.subarray(start, got);
    if (header.sha256 !== createHash('sha256').update(body).digest('hex')) return { ok: false, reason: 'corrupted' };
    return { ok: true, bytes: new Uint8Array(body.buffer, body.byteOffset, body.length) };
  } catch (e) {
    return { ok: false, reason: `unreadable (${String(e)})` };
  } finally {
    closeSync(fd);
  }
}

const MAX_HEADER = 4096;

/**
 * The full check of a snapshot the launcher passed on a header check (`ensureSnapshot(…, 'header')`), made while the
 * sandboxed run starts: a file whose bytes are not the ones its header names is removed, so that the next run makes
 * it again. The run under way refuses it itself (its workers check every snapshot in full) and starts Python the slow way.
 */
export function dropIfCorrupted(ref: PyodideSnapshotRef): boolean {
  const got = readSnapshot(ref);
  if (got.ok || (got.reason !== 'corrupted' && got.reason !== 'cut short')) return false;
  rmSync(ref.path, { force: true });
  return true;
}

/** Write `bytes` as the snapshot for `ref` (a folder of mode 0700; the file moved into place whole, mode 0600). */
export function writeSnapshot(ref: PyodideSnapshotRef, bytes: Uint8Array): void {
  const json = JSON.stringify({ key: ref.key, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  // Padded so that the memory starts on a multiple of 16 bytes: Pyodide views it as 32-bit words in place.
  const header = Buffer.from(json.padEnd(json.length + ((16 - ((MAGIC.length + 4 + json.length) % 16)) % 16), ' '));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  writeWhole(ref.path, Buffer.concat([Buffer.from(MAGIC, 'latin1'), length, header, bytes]));
}

/** Start Pyodide afresh and take the snapshot (seconds: a whole start). */
export async function makeSnapshot(): Promise<Uint8Array> {
  const { loadPyodide } = await import('pyodide');
  return takeSnapshot(await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {}, _makeSnapshot: true }));
}

/**
 * The snapshot for this Pyodide, made and written when missing or refused; null when caching is off, or when it
 * cannot be made or written (Python then starts the slow way). `check`: 'header' leaves the body's SHA-256 to
 * `dropIfCorrupted` and the workers, off the start's critical path (~30 ms for 31 MB).
 */
export async function ensureSnapshot(
  env: NodeJS.ProcessEnv = process.env,
  from?: string | URL,
  make: () => Promise<Uint8Array> = makeSnapshot,
  check: 'full' | 'header' = 'full',
): Promise<PyodideSnapshotRef | null> {
  const ref = snapshotRef(env, from);
  if (ref === null) return null;
  if ((check === 'header' ? readSnapshot(ref, true) : readSnapshot(ref)).ok) {
    keep(ref.path);
    return ref;
  }
  try {
    // A folder it cannot write: not worth a whole Pyodide start on every run.
    mkdirSync(dirname(ref.path), { recursive: true, mode: 0o700 });
    accessSync(dirname(ref.path), fsConstants.W_OK);
    writeSnapshot(ref, await make());
    pruneOthers(ref.path);
    return ref;
  } catch {
    return null;
  }
}

const DAY_MS = 86_400_000;

/** Marks a snapshot as in use (its time), at most once a day: pruneOthers spares snapshots used lately. */
function keep(path: string): void {
  try {
    if (Date.now() - statSync(path).mtimeMs > DAY_MS) utimesSync(path, new Date(), new Date());
  } catch {
    /* only bookkeeping */
  }
}

/** Snapshots of other Pyodide versions, Node versions or recipes not used for two weeks (~31 MB each). */
function pruneOthers(path: string): void {
  try {
    const dir = dirname(path);
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (p !== path && /^pyodide-[0-9a-f]{16}\.snapshot$/.test(f) && Date.now() - statSync(p).mtimeMs > 14 * DAY_MS) rmSync(p, { force: true });
    }
  } catch {
    /* only housekeeping */
  }
}

/** Pyodide started from the snapshot when `ref` names a valid one, else the usual way (also when a start from it fails). */
export async function startPyodide(ref: PyodideSnapshotRef | null | undefined): Promise<PyodideAPI> {
  // Not bundled (bin/build-cli.mjs): Pyodide finds its wasm and standard library beside its own module.
  const { loadPyodide } = await import('pyodide');
  const got = ref ? readSnapshot(ref) : null;
  return startFrom(loadPyodide, { jsglobals: {}, stdout: () => {}, stderr: () => {} }, got?.ok ? got.bytes : null);
}
