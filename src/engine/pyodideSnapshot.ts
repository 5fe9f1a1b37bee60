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
 * holds. Anything else is refused (and made again by the next process that may write the cache).
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
export function snapshotKey(dir: string): string {
  const h = createHash('sha256').update(`${RECIPE}\n${process.version}\n${process.arch}\n${PREIMPORT}\n${PRECOMPILE_HARNESS_PY}\n`).update(HARNESS_SOURCE);
  for (const f of PYODIDE_FILES) h.update(`${f}\n`).update(readFileSync(join(dir, f)));
  return h.digest('hex');
}

/** Where the snapshot for `key` lives (nothing is read), or null when caching is off or Pyodide is not installed. */
export function snapshotRef(env: NodeJS.ProcessEnv = process.env, from?: string | URL): PyodideSnapshotRef | null {
  const dir = cacheDir(env);
  const pyodide = pyodideDir(from);
  if (dir === null || pyodide === null) return null;
  try {
    return refOf(dir, snapshotKey(pyodide));
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

/** The snapshot's memory when the file at `ref.path` is a valid snapshot for `ref.key`; else why not. */
export function readSnapshot(ref: PyodideSnapshotRef): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
  let fd: number;
  try {
    fd = openSync(ref.path, 'r');
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'none yet' : `unreadable (${String(e)})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: 'not a file' };
    // Written only by this user: a file someone else could have written is not run.
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return { ok: false, reason: 'owned by another user' };
    if ((st.mode & 0o022) !== 0) return { ok: false, reason: 'writable by others' };
    // Not from Buffer's shared pool: the memory must start at offset 0 of its own buffer (see writeSnapshot).
    const all = Buffer.allocUnsafeSlow(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, all, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    const magic = MAGIC.length;
    if (got < magic + 4 || all.toString('latin1', 0, magic) !== MAGIC) return { ok: false, reason: 'not a snapshot' };
    const headerLength = all.readUInt32LE(magic);
    if (headerLength > 4096 || magic + 4 + headerLength > got) return { ok: false, reason: 'bad header' };
    let header: { key?: unknown; bytes?: unknown; sha256?: unknown };
    try {
      header = JSON.parse(all.toString('utf8', magic + 4, magic + 4 + headerLength)) as typeof header;
    } catch {
      return { ok: false, reason: 'bad header' };
    }
    if (header.key !== ref.key) return { ok: false, reason: 'made for another Pyodide, Node or recipe' };
    const body = all.subarray(magic + 4 + headerLength, got);
    if (header.bytes !== body.length) return { ok: false, reason: 'cut short' };
    if (body.byteOffset % 16 !== 0) return { ok: false, reason: 'bad header' };
    if (header.sha256 !== createHash('sha256').update(body).digest('hex')) return { ok: false, reason: 'corrupted' };
    return { ok: true, bytes: new Uint8Array(body.buffer, body.byteOffset, body.length) };
  } catch (e) {
    return { ok: false, reason: `unreadable (${String(e)})` };
  } finally {
    closeSync(fd);
  }
}

/** Write `bytes` as the snapshot for `ref` (a folder of mode 0700; the file moved into place whole, mode 0600). */
export function writeSnapshot(ref: PyodideSnapshotRef, bytes: Uint8Array): void {
  mkdirSync(dirname(ref.path), { recursive: true, mode: 0o700 });
  const json = JSON.stringify({ key: ref.key, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  // Padded so that the memory starts on a multiple of 16 bytes: Pyodide views it as 32-bit words in place.
  const header = Buffer.from(json.padEnd(json.length + ((16 - ((MAGIC.length + 4 + json.length) % 16)) % 16), ' '));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const tmp = `${ref.path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(MAGIC, 'latin1'), length, header, bytes]), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, ref.path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Start Pyodide afresh and take the snapshot (seconds: a whole start). */
export async function makeSnapshot(): Promise<Uint8Array> {
  const { loadPyodide } = await import('pyodide');
  return takeSnapshot(await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {}, _makeSnapshot: true }));
}

/**
 * The snapshot for this Pyodide, made and written when missing or refused; null when caching is off, or when it
 * cannot be made or written (Python then starts the slow way).
 */
export async function ensureSnapshot(
  env: NodeJS.ProcessEnv = process.env,
  from?: string | URL,
  make: () => Promise<Uint8Array> = makeSnapshot,
): Promise<PyodideSnapshotRef | null> {
  const ref = snapshotRef(env, from);
  if (ref === null) return null;
  if (readSnapshot(ref).ok) {
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
