/**
 * Messages between the CLI's main thread and its reward workers (node:worker_threads), after the browser's
 * `src/runtime/rewardProtocol.ts`: the same watch slot (one Int32 in a SharedArrayBuffer, the row now running),
 * the same run/result messages, the same typed-array results.
 */
import type { ColumnMapping, Detection, FormatId } from '../core/formats/types';
import type { RewardKind } from '../core/python/signatures';
import type { RangeResult } from '../core/reward/runRows';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import type { ParseIssue } from '../core/trajectory';

/** `workerData.role` of a reward worker (the CLI's one bundle is both the command and the worker). */
export const WORKER_ROLE = 'reward-studio-cli-worker';

/** Watch slot values besides a row index. */
export const WATCH_IDLE = -1;
/** The worker is running the reward module's top-level code (compile); it is timed like a row. */
export const WATCH_COMPILING = -2;

/**
 * The watch buffer, Int32 slots: the row now running (for a Python call, its first row), the rows of that call
 * (1 for JavaScript), and Pyodide's interrupt buffer (the pool stores 2 there to raise KeyboardInterrupt).
 */
export const WATCH_ROW = 0;
export const WATCH_COUNT = 1;
export const WATCH_INTERRUPT = 2;
export const WATCH_SLOTS = 3;

/** Python reward options (null for TypeScript / JavaScript rewards). */
export interface PythonSetup {
  /** `--function`: the function to call; null: the first candidate in the file. */
  function: string | null;
  batchSize: number;
  /** For the messages of timed-out rows. */
  timeLimitMs: number;
}

/** A reward function found in a Python file. */
export interface PythonFunctionInfo {
  name: string;
  kind: RewardKind;
  line: number;
}

export interface WorkerSetup {
  role: typeof WORKER_ROLE;
  /** Reward source (TypeScript or JavaScript, or Python when `python` is set). */
  code: string;
  python: PythonSetup | null;
  dataPath: string;
  format: FormatId | null;
  mapping: ColumnMapping | null;
  /** Load this tokenizer before running (the code mentions `tokenCount`). */
  tokenizer: TokenizerId | null;
  /** WATCH_SLOTS Int32 slots (see WATCH_ROW). */
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
  /** Python: the function chosen and the other candidates, and the module's top-level print() output (first worker). */
  | { kind: 'python-reward'; chosen: PythonFunctionInfo; others: PythonFunctionInfo[]; stdout: string }
  | { kind: 'meta'; meta: DatasetMeta }
  | { kind: 'ready'; rows: number }
  /** `stdout`: Python print() output of the task (it goes to stderr). */
  | { kind: 'result'; taskId: number; result: RangeResult; stdout?: string }
  | { kind: 'failed'; taskId: number; message: string };
