/** What the container readers (JSONL, JSON, CSV, Parquet) hand to the importer: parsed records in batches. */
import type { ParseIssue } from '../trajectory';

export interface RecordBatch {
  /** Parsed records (plain objects), in source order. */
  records: Record<string, unknown>[];
  /** `lines[i]` is the 1-based source line (JSONL/CSV) or row (JSON array/Parquet) of `records[i]`. */
  lines: number[];
  /** Lines that could not be parsed into a record. */
  issues: ParseIssue[];
  /** Bytes of the original file consumed so far. */
  bytesRead: number;
  /**
   * Plain JSONL only: `spans[2i]`, `spans[2i + 1]` are the byte offsets in the file where the line of `records[i]`
   * starts and where its newline is (or the file ends), so the record can be read again by itself.
   */
  spans?: number[];
}
