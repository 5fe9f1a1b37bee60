import type { ColumnMapping, FormatId } from '../core/formats/types';
import type { RangeResult } from '../core/reward/runRows';

/** Main thread → reward worker. */
export type RewardRequest =
  | { kind: 'init'; watch: SharedArrayBuffer | null }
  /** Read this file (same format and mapping as the import, so the trajectories are identical). */
  | { kind: 'load'; datasetId: string; blob: Blob; name: string; format: FormatId; mapping?: ColumnMapping }
  | { kind: 'run'; taskId: number; datasetId: string; code: string; start: number; end: number };

/** Reward worker → main thread. */
export type RewardReply =
  | { kind: 'loaded'; datasetId: string; rows: number }
  | { kind: 'load-failed'; datasetId: string; message: string }
  | { kind: 'result'; taskId: number; result: RangeResult }
  | { kind: 'compile-error'; taskId: number; message: string; line?: number }
  | { kind: 'failed'; taskId: number; message: string };

/**
 * The watch slot a worker shares with the pool: [0] Float64 wall-clock start (Date.now) of the row now running,
 * [2] Int32 row index now running (−1 when idle). The pool's watchdog reads it to time out a stuck row.
 */
export const WATCH_BYTES = 16;
export function watchViews(buf: SharedArrayBuffer): { started: Float64Array; row: Int32Array } {
  return { started: new Float64Array(buf, 0, 1), row: new Int32Array(buf, 8, 1) };
}
