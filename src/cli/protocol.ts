/**
 * Messages between the CLI's main thread and its reward workers (node:worker_threads), after the browser's
 * `src/runtime/rewardProtocol.ts`: the same watch slot (one Int32 in a SharedArrayBuffer, the row now running),
 * the same run/result messages, the same typed-array results.
 */
import type { ColumnMapping, Detection, FormatId } from '../core/formats/types';
import type { RangeResult } from '../core/reward/runRows';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import type { ParseIssue } from '../core/trajectory';

/** `workerData.role` of a reward worker (the CLI's one bundle is both the command and the worker). */
export const WORKER_ROLE = 'reward-studio-cli-worker';

/** Watch slot values besides a row index. */
export const WATCH_IDLE = -1;
/** The worker is running the reward module's top-level code (compile); it is timed like a row. */
export const WATCH_COMPILING = -2;

export interface WorkerSetup {
  role: typeof WORKER_ROLE;
  /** Reward source (TypeScript or JavaScript). */
  code: string;
  dataPath: string;
  format: FormatId | null;
  mapping: ColumnMapping | null;
  /** Load this tokenizer before running (the code mentions `tokenCount`). */
  tokenizer: TokenizerId | null;
  watch: SharedArrayBuffer;
  /** The column to read labels from, for the meta reply (only the worker asked for meta computes it). */
  label: string | null;
  /** Send the per-row facts the diagnostics need (one worker does). */
  sendMeta: boolean;
}

/** Main → worker. */
export type ToWorker = { kind: 'run'; taskId: number; start: number; end: number };

/** Per-row facts the main thread needs besides the scores; computed by one worker from its own import. */
export interface DatasetMeta {
  rows: number;
  issues: ParseIssue[];
  detection: Detection;
  /** Group index per row, groups numbered in first-seen order. */
  groupOf: Int32Array;
  /** Group key (Trajectory.group) per group index. */
  groupKeys: string[];
  /** Completion length in UTF-16 code units (String.length). */
  lengths: Float64Array;
  /** Label per row (NaN when missing or not a label); null without --label. */
  labels: Float64Array | null;
  /** Rows where the label column is present at all. */
  labelPresent: number;
}

/** Worker → main. */
export type FromWorker =
  | { kind: 'compile-error'; message: string; line?: number }
  | { kind: 'load-failed'; message: string }
  /** Something else the worker needs could not be set up (the tokenizer). */
  | { kind: 'setup-failed'; message: string }
  | { kind: 'meta'; meta: DatasetMeta }
  | { kind: 'ready'; rows: number }
  | { kind: 'result'; taskId: number; result: RangeResult }
  | { kind: 'failed'; taskId: number; message: string };
