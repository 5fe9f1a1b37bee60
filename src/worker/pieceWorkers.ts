/**
 * The data worker's helpers for a parallel import (src/core/dataset/importPacked.ts): one worker per later piece of
 * a large JSONL file, started on the first such import and kept for the next ones. A cancelled or failed piece's
 * worker is terminated (it may still be reading) and replaced next time.
 */
import { EventQueue, type Parallelism, type PieceEvent, type PieceOptions, type PieceRange, type PieceRun } from '../core/dataset/importPacked';
import type { ByteSource } from '../core/formats/types';
import type { ImportFailure } from '../runtime/importProtocol';
import { ImportError } from '../core/formats/types';

export interface PieceRequest {
  id: number;
  blob: Blob;
  name: string;
  range: PieceRange;
  opts: PieceOptions;
}

export type PieceReply = { id: number; event: PieceEvent } | { id: number; error: ImportFailure };

/** Pieces smaller than this are not worth a worker: starting one and reading 16 MB take about as long. */
export const MIN_PIECE_BYTES = 16 << 20;
/**
 * The data worker's own piece, relative to the others: it also passes their batches on to the page, so it gets
 * less to read (measured with bench/import.bench.mjs: see bench/README.md).
 */
const FIRST_WEIGHT = 0.5;
/** At most this many pieces (workers reading at once), whatever the number of cores. */
const MAX_PIECES = 4;

const idle: Worker[] = [];
let nextId = 1;

function startWorker(): Worker {
  return new Worker(new URL('../../workers/import-piece.worker.ts', import.meta.url), { type: 'module', name: 'import-piece' });
}

function runInWorker(source: ByteSource, range: PieceRange, opts: PieceOptions, signal: AbortSignal): PieceRun {
  const worker = idle.pop() ?? startWorker();
  const id = nextId++;
  const queue = new EventQueue<PieceEvent>();
  let read = 0;
  let finished = false;
  const finish = (ok: boolean) => {
    if (finished) return;
    finished = true;
    signal.removeEventListener('abort', onAbort);
    worker.onmessage = null;
    worker.onerror = null;
    if (ok) idle.push(worker);
    else worker.terminate();
  };
  const onAbort = () => {
    finish(false);
    queue.fail(new ImportError('cancelled', `Import of ${source.name} was cancelled.`));
  };
  worker.onmessage = (ev: MessageEvent<PieceReply>) => {
    const m = ev.data;
    if (m.id !== id) return;
    if ('error' in m) {
      finish(false);
      queue.fail(m.error.code === 'internal' ? new Error(m.error.message) : new ImportError(m.error.code, m.error.message));
      return;
    }
    if (m.event.kind === 'batch') read = m.event.batch.bytesRead;
    queue.push(m.event);
    if (m.event.kind === 'end') {
      finish(true);
      queue.end();
    }
  };
  worker.onerror = (ev) => {
    finish(false);
    queue.fail(new Error(`the worker reading bytes ${range.start}–${range.end} of ${source.name} failed: ${ev.message || 'no message'}`));
  };
  if (signal.aborted) onAbort();
  else {
    signal.addEventListener('abort', onAbort);
    const request: PieceRequest = { id, blob: source.blob, name: source.name, range, opts };
    worker.postMessage(request);
  }
  return { events: queue, bytesRead: () => read };
}

/**
 * Parallelism for the data worker: one piece per core but one (up to MAX_PIECES), each at least `minPieceBytes`;
 * `pieces` overrides the count. The browser's own threads that read the file need a core: on 2 cores, once the reads
 * went into a reused buffer, two pieces were no faster than one (0.89× and 1.02× its speed in two bench runs:
 * bench/README.md) for twice the workers and memory, so there a file is read in one piece.
 */
export function pieceWorkers(minPieceBytes = MIN_PIECE_BYTES, pieces?: number): Parallelism {
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency > 0 ? navigator.hardwareConcurrency : 2;
  return { pieces: pieces ?? Math.min(MAX_PIECES, Math.max(1, cores - 1)), minPieceBytes, firstWeight: FIRST_WEIGHT, run: runInWorker };
}
