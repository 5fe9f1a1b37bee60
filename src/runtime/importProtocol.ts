import type { Categories } from '../core/dataset/categories';
import type { LabelColumn } from '../core/dataset/labelColumns';
import type { PairColumn } from '../core/dataset/pairColumns';
import type { PackedBatch } from '../core/dataset/packed';
import type { ColumnValues } from '../core/table/columns';
import type { ExportFormat, ExportInput } from '../core/table/rowExport';
import type { PreferenceAccuracy, PreferencePairs } from '../core/stats/preference';
import type { OverSteps, StepColumns } from '../core/steps/overSteps';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { ImportError, type Detection, type ImportErrorCode, type ImportOptions } from '../core/formats/types';
import type { ParseIssue, Trajectory } from '../core/trajectory';

/** Failure of a whole import, as it crosses the worker boundary. */
export interface ImportFailure {
  code: ImportErrorCode | 'internal';
  message: string;
  detail?: { columns?: string[]; sample?: Record<string, unknown>[]; issues?: { line: number; reason: string }[]; container?: string };
}

/** What a worker caught, as an ImportFailure: an ImportError keeps its code and detail, anything else is internal. */
export function importFailure(e: unknown): ImportFailure {
  if (e instanceof ImportError) return { code: e.code, message: e.message, detail: e.detail };
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

/**
 * Main thread → data worker. The worker imports files and keeps the trajectories of the import the page shows (its
 * `jobId` is the dataset's key) to answer queries for whole rollouts and text search.
 */
export type DataRequest =
  /**
   * `minPieceBytes`: the smallest piece of a parallel import (default pieceWorkers' MIN_PIECE_BYTES; tests set less);
   * `pieces`: how many pieces at most (default pieceWorkers').
   */
  | {
      kind: 'import';
      jobId: number;
      blob: Blob;
      name: string;
      opts: Omit<ImportOptions, 'signal'>;
      minPieceBytes?: number;
      pieces?: number;
      /** A dataset of several files, in reading order (core/dataset/parts.ts): `blob` is then unused. */
      parts?: { blob: Blob; name: string; step: number | null }[];
    }
  /** Stop import `jobId`, or drop it if it has ended: the page will not show it (unless it already does). */
  | { kind: 'cancel'; jobId: number }
  /** The page now shows the import with this key (its job id): the worker drops the rows of any other. */
  | { kind: 'adopt'; key: number }
  | { kind: 'get'; reqId: number; key: number; indices: number[] }
  | { kind: 'search'; reqId: number; key: number; needle: string }
  /** Columns of the source records usable as a trusted label. */
  | { kind: 'labels'; reqId: number; key: number }
  /** Token count of every completion with this tokenizer. */
  | { kind: 'tokens'; reqId: number; key: number; tokenizer: TokenizerId }
  /** The values of one column as categories (group-by). */
  | { kind: 'categories'; reqId: number; key: number; column: string }
  /** One top-level field of every row, as a table column (core/table/columns `fieldColumn`). */
  | { kind: 'field'; reqId: number; key: number; name: string }
  /** Preference accuracy with its bootstrap intervals (seconds of work on large data: kept off the page's thread). */
  | { kind: 'preference'; reqId: number; scores: Float64Array; status: Uint8Array; pairs: PreferencePairs }
  /** `truncation`: the columns' `truncated` made here (stats/truncation truncatedRows), not on the page's thread. */
  | { kind: 'over-steps'; reqId: number; columns: StepColumns; truncation?: { fields: Float64Array; maxLength: number | null } }
  /** Categorical columns of the pairs' records (core/dataset/pairColumns), for accuracy by column. */
  | { kind: 'pair-columns'; reqId: number; key: number; pairOf: Int32Array; pairCount: number }
  /** The bytes of **Download rows** (core/table/rowExport): seconds of work for 100k rows, kept off the page's thread. */
  | { kind: 'export'; reqId: number; format: ExportFormat; input: ExportInput };

/** Data worker → main thread, in order on one port. Nothing throws across: failures are tagged. */
export type DataReply =
  | { kind: 'meta'; jobId: number; detection: Detection }
  | { kind: 'batch'; jobId: number; batch: PackedBatch }
  /**
   * `spans`: per row, the byte offsets of its line in the file (start, end), for a plain JSONL file; `decompressed`:
   * a gzip file's bytes decompressed, which the spans point into and workers read instead of the file.
   */
  | { kind: 'done'; jobId: number; spans?: Float64Array; decompressed?: Blob }
  /** While a gzip file is decompressed before its rows come (bytes of the compressed file). */
  | { kind: 'progress'; jobId: number; bytesRead: number; totalBytes: number }
  /**
   * A dataset of several files: part `index` starts (`rows` absent) or is read (`rows`; `spans` for a plain JSONL
   * file; `failure` when it failed). Once the first part with rows is read, the worker answers queries for the rows
   * read so far under the job's key: the page may show them while the rest load.
   */
  | { kind: 'part'; jobId: number; index: number; rows?: number; spans?: Float64Array; decompressed?: Blob; failure?: ParseIssue }
  | { kind: 'failed'; jobId: number; error: ImportFailure }
  /** `error`: why the rows could not be read (e.g. the file changed on disk since the import). */
  | { kind: 'rows'; reqId: number; rows: Trajectory[] | null; error?: string }
  | { kind: 'hits'; reqId: number; hits: Int32Array | null; error?: string }
  | { kind: 'labels'; reqId: number; columns: LabelColumn[] | null }
  | { kind: 'tokens'; reqId: number; counts: Int32Array | null; error?: string }
  | { kind: 'tokens-progress'; reqId: number; done: number; total: number }
  /** Rows of a **Download rows** file written so far. */
  | { kind: 'export-progress'; reqId: number; done: number; total: number }
  | { kind: 'export'; reqId: number; bytes: Uint8Array<ArrayBuffer> | null; error?: string }
  | { kind: 'field'; reqId: number; column: ColumnValues | null; error?: string }
  | { kind: 'categories'; reqId: number; categories: Categories | null; error?: string }
  | { kind: 'preference'; reqId: number; result: PreferenceAccuracy | null; error?: string }
  | { kind: 'over-steps'; reqId: number; result: OverSteps | null; error?: string }
  | { kind: 'pair-columns'; reqId: number; columns: PairColumn[] | null; error?: string };
