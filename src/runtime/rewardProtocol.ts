import type { RangeResult } from '../core/reward/runRows';
import type { SignatureScan, RewardKind } from '../core/python/signatures';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import type { DatasetFile } from './workerRows';

/** Main thread → reward worker. */
export type RewardRequest =
  | { kind: 'init'; watch: SharedArrayBuffer | null }
  /** Read this file (same format and mapping as the import, so the trajectories are identical). */
  | ({ kind: 'load' } & DatasetFile)
  /** `tokenizer`: load it (once) before running, for `ctx.tokenCount`. */
  /** `models`: reward-model scores of rows [start, end) by model name, for `ctx.models` (TypeScript rewards). */
  | { kind: 'run'; taskId: number; datasetId: string; code: string; start: number; end: number; tokenizer?: TokenizerId; python?: PythonCall; models?: Record<string, Float64Array> }
  /**
   * A run has ended with every row scored, and no task of it is left in this worker. The worker uses the pause to
   * get ready for the next run: it reads the rows of its block [start, end) it does not hold yet (the rows a pool
   * hands it first, runtime/taskQueue.ts: the last run may have given some of them to another worker), and a Python
   * worker makes the next run's argument copies ahead (runPython.ts, preparePython).
   */
  | { kind: 'idle'; block: [number, number] }
  /** Python workers: list the reward functions the code defines (parsed, not run). */
  | { kind: 'scan'; reqId: number; code: string };

/** Which Python function to call, and how (see src/core/python/runPython.ts). */
export interface PythonCall {
  name: string;
  kind: RewardKind;
  /** Rows per call for the batch conventions (TRL, verl-batch, OpenRLHF). */
  batchSize: number;
}

/** Reward worker → main thread. */
export type RewardReply =
  | { kind: 'loaded'; datasetId: string; rows: number }
  | { kind: 'load-failed'; datasetId: string; message: string }
  | { kind: 'result'; taskId: number; result: RangeResult & { stdout?: string } }
  | { kind: 'scanned'; reqId: number; scan: SignatureScan }
  | { kind: 'compile-error'; taskId: number; message: string; line?: number; stdout?: string }
  | { kind: 'failed'; taskId: number; message: string };

/**
 * The watch slot a worker shares with the pool: Int32 [0] the row index now running (−1 when idle), [1] the
 * interrupt flag handed to Pyodide's `setInterruptBuffer` (the pool stores 2 to raise KeyboardInterrupt in Python
 * code), [2] how many rows the running call covers (a batched Python call: its limit is rows × the per-row limit).
 * The worker writes [0] before each row or call (a plain store: one aligned int32 cannot tear); the pool's watchdog
 * notes when it first saw each index and acts on one it has seen running for longer than the limit. No clock is read
 * per row.
 */
export const WATCH_BYTES = 12;
export function watchViews(buf: SharedArrayBuffer): { row: Int32Array; interrupt: Int32Array; rows: Int32Array } {
  return { row: new Int32Array(buf, 0, 1), interrupt: new Int32Array(buf, 4, 1), rows: new Int32Array(buf, 8, 1) };
}
