import type { ColumnMapping, FormatId } from '../core/formats/types';
import type { RangeResult } from '../core/reward/runRows';
import type { TokenizerId } from '../core/tokenize/tokenizers';

/** Main thread → reward worker. */
export type RewardRequest =
  | { kind: 'init'; watch: SharedArrayBuffer | null }
  /** Read this file (same format and mapping as the import, so the trajectories are identical). */
  | { kind: 'load'; datasetId: string; blob: Blob; name: string; format: FormatId; mapping?: ColumnMapping }
  /** `tokenizer`: load it (once) before running, for `ctx.tokenCount`. */
  | { kind: 'run'; taskId: number; datasetId: string; code: string; start: number; end: number; tokenizer?: TokenizerId };

/** Reward worker → main thread. */
export type RewardReply =
  | { kind: 'loaded'; datasetId: string; rows: number }
  | { kind: 'load-failed'; datasetId: string; message: string }
  | { kind: 'result'; taskId: number; result: RangeResult }
  | { kind: 'compile-error'; taskId: number; message: string; line?: number }
  | { kind: 'failed'; taskId: number; message: string };

/**
 * The watch slot a worker shares with the pool: one Int32, the row index now running (−1 when idle). The worker
 * writes it before each row (a plain store: one aligned int32 cannot tear); the pool's watchdog notes when it
 * first saw each index and times out a row it has seen running for longer than the limit. No clock is read per row.
 */
export const WATCH_BYTES = 4;
export function watchViews(buf: SharedArrayBuffer): { row: Int32Array } {
  return { row: new Int32Array(buf, 0, 1) };
}
