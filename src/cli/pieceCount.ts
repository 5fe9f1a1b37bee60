/**
 * How many pieces a plain JSONL data file is read in (pieces.ts), and so how many workers a reward's pool starts
 * with: kept apart from the reading so that the launcher can start those workers before it loads the scoring code.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

/**
 * No piece smaller than this: below it one worker reads the file before a second one has started. The environment
 * variable sets it for tests, which read small files in pieces (on any machine: see MIN_CORES).
 */
const TEST_PIECE_BYTES = Number(process.env.REWARD_STUDIO_MIN_PIECE_BYTES);
export const MIN_PIECE_BYTES = TEST_PIECE_BYTES || 8 << 20;
/**
 * Pieces need a core per parser and one more: one worker parsing a file already keeps a second core busy with V8's
 * garbage-collector helpers, and on 2 cores two pieces at once were no faster than one whole read (bench/README).
 * Not for Python: a Python worker's start and its rows cost far more than the read, which pieces share out.
 */
const MIN_CORES = 3;
/**
 * On 2 cores a TypeScript reward reads a file of at least this size in pieces all the same: once a read's buffers
 * stopped starting full GCs, two pieces took 0.98× a whole read's time at 273 MB, 0.79× at 913 MB and 0.66× at 1.3 GB
 * (bench/README, session 25), and 0.90× pandas against 0.83× at 91 MB.
 */
const TWO_CORE_PIECE_FILE_BYTES = 512 << 20;

/** Whether pieces pay for a file of `bytes` on `cores` cores (before the file's size and head are checked). */
export function piecesPay(cores: number, bytes: number, python: boolean): boolean {
  if (python) return true;
  return cores >= MIN_CORES || (cores === 2 && bytes >= TWO_CORE_PIECE_FILE_BYTES);
}

/**
 * Whether `path` may be read in pieces, checked before the workers start (so that a file read whole starts one, as
 * before): pieces pay on this machine (`piecesPay`; any machine for a Python reward), a file large enough for two
 * pieces, and its first character (after a byte-order mark and blanks) a `{`.
 */
export function mayReadInPieces(path: string, python = false): boolean {
  try {
    if (!piecesBySize(statSync(path).size, python)) return false;
  } catch {
    return false; // the whole-file read says why
  }
  return startsWithObject(path);
}

/** Whether a file of `bytes` may be read in pieces, as its size alone says (`mayReadInPieces` before the head). */
function piecesBySize(bytes: number, python: boolean): boolean {
  return (TEST_PIECE_BYTES > 0 || piecesPay(availableParallelism(), bytes, python)) && bytes >= 2 * MIN_PIECE_BYTES;
}

/** Whether `path`'s first character, after a byte-order mark and blanks, is a `{` (false when it cannot be read). */
function startsWithObject(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    const head = new Uint8Array(64);
    let got: number;
    try {
      got = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
    const i = firstCharacter(head.subarray(0, got), true);
    return i >= 0 && head[i] === 0x7b;
  } catch {
    return false;
  }
}

/** Where the first character after blanks (and, at a file's start, a byte-order mark) is in `bytes`; -1 if none. */
export function firstCharacter(bytes: Uint8Array, fileStart: boolean): number {
  let i = fileStart && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return i < bytes.length ? i : -1;
}

/** How many pieces `planPieces` cuts `path` into for `workers` workers, at most (as `mayReadInPieces`, after it). */
export function piecesFor(path: string, workers: number): number {
  try {
    return Math.max(1, Math.min(workers, Math.floor(statSync(path).size / MIN_PIECE_BYTES)));
  } catch {
    return 1;
  }
}

/**
 * The pieces in which a pool of `size` workers reads `path`, one worker each, all started at once; 0 when one worker
 * reads it whole first (null: several files, or none). A staged pool adds the other workers once a run shows it is
 * long (engine.ts, `grow`). A file too large to keep (`leanPieces`) is one lean piece where pieces do not pay or
 * there is one worker: read whole, its rows would all be kept.
 */
export function pieceCount(path: string | null, python: boolean, size: number, workerMemoryMb = 4096): number {
  if (path === null || size < 1) return 0;
  if (size >= 2 && mayReadInPieces(path, python)) return piecesFor(path, size);
  return leanPieces(path, 1, workerMemoryMb) && startsWithObject(path) ? 1 : 0;
}

/**
 * Bytes per piece from which a worker keeps none of its piece's rows (a lean read: its facts a batch at a time, then
 * each task reads its rows again and lets go of them). Kept rows take ~1.8× their bytes of heap and cost more and more
 * garbage collection as they grow; on 2 cores keeping them took 0.96× the time at 456 MB a piece, 1.16× at 913 MB and
 * 1.7× at 1.4 GB (bench/README, session 32). The environment variable sets it for tests and benches.
 */
const LEAN_PIECE_BYTES = Number(process.env.REWARD_STUDIO_LEAN_PIECE_BYTES) || 512 << 20;

/**
 * Bytes per piece from which a piece is read lean where its facts come from the scanner (a flat format, no `--label`
 * or `--group-by`: pieces.ts `planFilePieces`), which builds no row: on 2 cores lean took 1.03× the time of kept rows
 * at 45 MB a piece, 0.96× at 137 MB and 0.95× at 456 MB, with 0.55× and 0.36× the memory (bench/README, session 33).
 * The environment variable sets it, as LEAN_PIECE_BYTES.
 */
export const SCANNED_LEAN_PIECE_BYTES = Number(process.env.REWARD_STUDIO_LEAN_PIECE_BYTES) || 128 << 20;

/**
 * Whether the `pieces` pieces of `path` are read lean: a piece of LEAN_PIECE_BYTES, one whose kept rows would take
 * more than half a worker's heap limit (`workerMemoryMb`), or a file whose rows would take half the machine's memory.
 */
export function leanPieces(path: string, pieces: number, workerMemoryMb: number, memory = totalmem()): boolean {
  if (pieces <= 0) return false;
  try {
    return tooLargeToKeep(statSync(path).size, pieces, workerMemoryMb, memory);
  } catch {
    return false;
  }
}

/**
 * Whether a plain JSONL file of `bytes` would be read in pieces by a pool of `size` workers, or lean (`pieceCount`, as
 * its size alone says, before there is a file to look at): a gzip file's inflated copy is made only then (inflateCopy.ts).
 */
export function splitsAsPlain(bytes: number, python: boolean, size: number, workerMemoryMb: number, memory = totalmem()): boolean {
  return (size >= 2 && piecesBySize(bytes, python)) || tooLargeToKeep(bytes, 1, workerMemoryMb, memory);
}

/** Whether `bytes` read by `readers` workers at once are read lean: from `each` a reader (`leanPieces`). */
function tooLargeToKeep(bytes: number, readers: number, workerMemoryMb: number, memory: number, each = LEAN_PIECE_BYTES): boolean {
  if (process.env.REWARD_STUDIO_LEAN_PIECE_BYTES) return bytes / readers >= LEAN_PIECE_BYTES;
  return bytes / readers >= Math.min(each, workerMemoryMb * 2 ** 20 * 0.25) || 1.8 * bytes >= memory / 2;
}

/**
 * Bytes per worker from which several files are read lean. Read whole, one worker parses every file before the
 * others start, so reading a file a worker pays sooner than pieces do: on 2 cores, two files of 228 MB took 0.80× the
 * time lean (0.93× with `--label`, which builds the rows), two of 45 MB 1.14× (bench/README, session 32).
 */
const LEAN_PART_BYTES = 128 << 20;

/**
 * Whether the files of a dataset of several (`paths`, in order) are read lean, one file a worker at a time: each a
 * plain JSONL file (it starts with `{`), and together LEAN_PART_BYTES for each of up to `workers` workers, or too
 * large to keep as `leanPieces` says. Read whole, every worker would keep every file's rows.
 */
export function leanParts(paths: readonly string[], workers: number, workerMemoryMb: number, memory = totalmem()): boolean {
  if (paths.length === 0 || workers < 1) return false;
  let bytes = 0;
  try {
    for (const p of paths) bytes += statSync(p).size;
  } catch {
    return false;
  }
  return partsTooLargeToKeep(bytes, paths.length, workers, workerMemoryMb, memory) && paths.every(startsWithObject);
}

/** Whether `count` files of `bytes` in all would be read lean by `workers` workers, as their sizes alone say (`leanParts`). */
export function partsTooLargeToKeep(bytes: number, count: number, workers: number, workerMemoryMb: number, memory = totalmem()): boolean {
  return count > 0 && workers > 0 && tooLargeToKeep(bytes, Math.min(workers, count), workerMemoryMb, memory, LEAN_PART_BYTES);
}
