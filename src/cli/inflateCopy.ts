/**
 * A large gzip JSONL data file is decompressed once, before the workers start, into a folder of its own under the
 * system's temporary folder, and read from there as plain JSONL: in pieces and lean, like any plain file. Read as gzip,
 * one worker inflated it and kept every row, so rows larger than a worker's heap could not be scored at all. The
 * folder goes when the run ends. A file that is not JSONL, a corrupt or truncated stream or a bomb is left to the gzip
 * read, which reports it as before; a full disk too, with a note. Why and what it costs: docs/engine.md, "Pieces".
 */
import { closeSync, createReadStream, createWriteStream, mkdtempSync, openSync, readSync, rmSync, statfsSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { inflatesPastLimit } from '../core/formats/gzipLimits';
import { firstCharacter, partsTooLargeToKeep, splitsAsPlain } from './pieceCount';

/**
 * The environment variable in which the launcher hands the sandboxed run its inflated copies (sandbox.ts): a JSON
 * list of [data file, copy] pairs.
 */
export const INFLATED_ENV = 'REWARD_STUDIO_INFLATED';

/** The [data file, copy] pairs in `value` (INFLATED_ENV), or none when it is not such a list. */
export function handedCopies(value: string | undefined): [string, string][] {
  if (!value) return [];
  try {
    const v: unknown = JSON.parse(value);
    if (Array.isArray(v) && v.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === 'string' && typeof x[1] === 'string'))
      return v as [string, string][];
  } catch {
    // not ours: none
  }
  return [];
}

/** JSONL shrinks 3.5–6× in gzip (the benches' rows 3.6× at level 1): the low end guesses the inflated size. */
const RATIO_GUESS = 3.5;

const CHUNK_BYTES = 1 << 18;

export interface InflatedCopy {
  /** The plain file, in a folder only this user may read. */
  path: string;
  /** Remove the copy and its folder (also done at exit and on SIGINT / SIGTERM). */
  dispose(): void;
}

/** Why there is no copy: null when the file is simply read as it is; a note for the user when the copy failed. */
export type Inflated = { copy: InflatedCopy } | { copy: null; note: string | null };

/** Whether `path` starts as gzip does. */
function isGzip(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

class NotJsonl extends Error {}

/** Free disk space left besides a copy. */
const SPARE_BYTES = 256 * 2 ** 20;

/** Bytes free to this user in `dir`'s file system (unbounded when it cannot be told: the write then says). */
function freeBytes(dir: string): number {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}

/** The inflated size gzip's trailer gives (of the last member, modulo 2^32: a lower bound for one member). */
function lastMemberSize(path: string, bytes: number): number {
  if (bytes < 18) return 0;
  const fd = openSync(path, 'r');
  try {
    const tail = Buffer.alloc(4);
    return readSync(fd, tail, 0, 4, bytes - 4) === 4 ? tail.readUInt32LE(0) : 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * The plain copy of `path` when it is gzip and its inflated size (guessed) would be read in pieces or lean
 * (`pays`). `dir`: where the copy's folder is made.
 */
export async function inflateCopy(
  path: string,
  run: { python: boolean; size: number; workerMemoryMb: number },
  dir = tmpdir(),
  pays: (bytes: number) => boolean = (bytes) => splitsAsPlain(bytes, run.python, run.size, run.workerMemoryMb),
  free: (dir: string) => number = freeBytes,
): Promise<Inflated> {
  let bytes: number;
  let need: number;
  try {
    bytes = statSync(path).size;
    if (!isGzip(path) || !pays(bytes * RATIO_GUESS)) return { copy: null, note: null };
    need = Math.max(bytes * RATIO_GUESS, lastMemberSize(path, bytes));
  } catch {
    return { copy: null, note: null }; // the read says why
  }
  // Not a disk filled to its last byte (other programs write there too) for a copy that would then fail.
  const room = free(dir);
  if (room < need * 1.1 + SPARE_BYTES) {
    const gb = (n: number) => `${(n / 1e9).toFixed(1)} GB`;
    return {
      copy: null,
      note: `${basename(path)} would take about ${gb(need)} decompressed and ${dir} has ${gb(room)} free: it is read as gzip, every row kept in memory (set TMPDIR to a folder with room)`,
    };
  }
  let folder: string;
  try {
    folder = mkdtempSync(join(dir, 'reward-studio-'));
  } catch (e) {
    return { copy: null, note: failed(path, e) };
  }
  const copy = held(folder, join(folder, basename(path).replace(/\.gz$/i, '') || 'data.jsonl'));
  try {
    await pipeline(
      createReadStream(path, { highWaterMark: 1 << 20 }),
      createGunzip({ chunkSize: CHUNK_BYTES }),
      checked(bytes),
      createWriteStream(copy.path, { flags: 'wx', mode: 0o600 }),
    );
    return { copy };
  } catch (e) {
    copy.dispose();
    const code = (e as NodeJS.ErrnoException).code;
    // zlib's and the checks' errors are the gzip read's to report; the file system's are said here.
    const ours = e instanceof NotJsonl || code?.startsWith('Z_') || (e as Error).message === 'inflates past the limit';
    return { copy: null, note: ours ? null : failed(path, e) };
  }
}

/** The inflated copies a run's data is read from, as [data file, copy] pairs; a note when one could not be made. */
export interface DataCopies {
  copies: [string, InflatedCopy][];
  note: string | null;
}

/**
 * Copies for a command line's data: its one gzip file's (`inflateCopy`), or every gzip file's of a dataset of several
 * when, inflated (guessed), they would be read lean (`partsTooLargeToKeep`); all of them or none.
 */
export async function inflateData(
  data: { single: string | null; parts: readonly { path: string }[] | null },
  run: { python: boolean; size: number; workerMemoryMb: number },
  dir = tmpdir(),
): Promise<DataCopies> {
  if (data.single !== null) {
    const made = await inflateCopy(data.single, run, dir);
    return made.copy ? { copies: [[data.single, made.copy]], note: null } : { copies: [], note: made.note };
  }
  const parts = data.parts ?? [];
  let guess = 0;
  const gzip: string[] = [];
  try {
    for (const p of parts) {
      const bytes = statSync(p.path).size;
      const gz = isGzip(p.path);
      if (gz) gzip.push(p.path);
      guess += gz ? bytes * RATIO_GUESS : bytes;
    }
  } catch {
    return { copies: [], note: null }; // the read says why
  }
  if (gzip.length === 0 || !partsTooLargeToKeep(guess, parts.length, run.size, run.workerMemoryMb)) return { copies: [], note: null };
  // A file a core at once (zlib runs on libuv's threads): three of 77 MB, scored on 2 cores, 7.0 → 6.1 s end to end.
  const made: Inflated[] = new Array(gzip.length);
  let next = 0;
  const inflateNext = async (): Promise<void> => {
    for (let k = next++; k < gzip.length; k = next++) {
      made[k] = await inflateCopy(gzip[k], run, dir, () => true);
      if (made[k].copy === null) next = gzip.length; // all or none: start no other
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), gzip.length) }, inflateNext));
  const copies = made.flatMap((m, k): [string, InflatedCopy][] => (m?.copy ? [[gzip[k], m.copy]] : []));
  if (copies.length === gzip.length) return { copies, note: null };
  for (const [, c] of copies) c.dispose();
  let note: string | null = null;
  for (const m of made) if (m?.copy === null) note ??= m.note;
  return { copies: [], note };
}

function failed(path: string, e: unknown): string {
  return `could not decompress ${basename(path)} into a temporary file (${e instanceof Error ? e.message : String(e)}): it is read as gzip, every row kept in memory`;
}

/** Passes the inflated bytes on while they stay within the import's limits and start as JSONL does (`{`). */
function checked(fileBytes: number): Transform {
  let out = 0;
  let head = true;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      const at = out;
      out += chunk.length;
      if (inflatesPastLimit(out, fileBytes)) return done(new Error('inflates past the limit'));
      if (head) {
        const i = firstCharacter(chunk, at === 0);
        if (i >= 0) {
          if (chunk[i] !== 0x7b) return done(new NotJsonl());
          head = false;
        }
      }
      done(null, chunk);
    },
  });
}

/** A copy at `path` in `folder`, removed by `dispose`, at exit, or on a signal (which then does what it would have). */
function held(folder: string, path: string): InflatedCopy {
  const remove = () => rmSync(folder, { recursive: true, force: true });
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const onSignal = (sig: NodeJS.Signals) => {
    dispose();
    // With no other listener, the signal's default: the process ends as it would have without this one.
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
  };
  const dispose = () => {
    remove();
    process.off('exit', remove);
    for (const s of signals) process.off(s, onSignal);
  };
  process.on('exit', remove);
  for (const s of signals) process.on(s, onSignal);
  return { path, dispose };
}
