import type { ParseIssue, Trajectory } from '../trajectory';

/** The record-level formats the studio understands (DESIGN.md, "Formats to read"). */
export const FORMAT_IDS = [
  'trl-standard', // {prompt: string, completion: string}
  'trl-conversational', // {prompt: [{role, content}], completion: [{role, content}]} (TRL tool calls: arguments as object)
  'openai-messages', // {messages: [...]} with tool_calls[].function.arguments as a JSON string, role "tool" replies
  'verl-dump', // {input, output, gts, score, step, ...extra}
  'verl-dataset', // verl training parquet: {data_source, prompt: [{role, content}], ability, reward_model: {ground_truth, style}, extra_info}; no completion
  'trl-completions', // completions_{step}.parquet: {step, prompt, completion, <reward columns>, advantage}
  'preference', // {prompt, chosen, rejected} (TRL preference, RewardBench v1 {prompt, chosen, rejected, subset, id})
  'rewardbench2', // RewardBench 2: chosen / rejected are lists of strings
  'mapped', // anything else: the user maps columns once
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

/** Column mapping for the `mapped` format (the column-mapping dialog fills it). */
export interface ColumnMapping {
  prompt: string;
  completion: string;
  group?: string;
  groundTruth?: string;
  step?: string;
}

/** The file container, sniffed from bytes (and the name as a hint). */
export type ContainerKind = 'jsonl' | 'json' | 'csv' | 'parquet';

/** A file to import: a Blob (File in the browser, `openFile` in Node: engine/nodeFile.ts) plus its name. */
export interface ByteSource {
  name: string;
  blob: Blob;
}

export interface ImportOptions {
  /** Force a format instead of auto-detecting. */
  format?: FormatId;
  /** Required when format is `mapped`. */
  mapping?: ColumnMapping;
  /** Rows per emitted batch (default 2000). */
  batchSize?: number;
  signal?: AbortSignal;
  /**
   * The file is a piece of a JSONL file cut at a line boundary (a parallel import reads the later pieces in other
   * workers): no sniffing, `format` must be given, and a piece without rows ends normally instead of failing.
   */
  jsonlPiece?: boolean;
  /** With `jsonlPiece`: the physical lines before the piece, added to its line numbers (rows, ids and issues). */
  lineOffset?: number;
  /** End normally when no record gives a row (a parallel import counts the rows of all its pieces itself). */
  allowEmpty?: boolean;
}

/** What detection decided, with a human reason ("has prompt/chosen/rejected"). */
export interface Detection {
  container: ContainerKind;
  format: FormatId;
  detected: FormatId;
  reason: string;
  /** Column names seen in the first records (union, first-seen order). */
  columns: string[];
  /** Was gzip decompressed. */
  gzip: boolean;
}

/** Events streamed by `importStream`. */
export type ImportEvent =
  /** `sampled`: records the detection looked at; `spans`: whether the rows events carry byte spans. */
  | { type: 'meta'; detection: Detection; sampled: number; spans: boolean }
  /**
   * `spans` (plain JSONL): for row i, `spans[2i]`..`spans[2i + 1]` is the byte range of its source line in the file
   * (the rows of one record share it).
   */
  | { type: 'rows'; rows: Trajectory[]; issues: ParseIssue[]; bytesRead: number; totalBytes: number; spans?: Float64Array }
  /** `lineCount`: physical lines read (JSONL). */
  | { type: 'done'; rowCount: number; issueCount: number; lineCount?: number };

/** Why an import failed as a whole (the previous dataset stays loaded). */
export type ImportErrorCode = 'empty' | 'binary' | 'no-rows' | 'needs-mapping' | 'cancelled' | 'unreadable';

export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
    /** For `needs-mapping` and `no-rows`: what was found, so the UI can offer the mapping dialog. */
    readonly detail?: { columns?: string[]; sample?: Record<string, unknown>[]; issues?: ParseIssue[]; container?: ContainerKind },
  ) {
    super(message);
    this.name = 'ImportError';
  }
}
