import { NORMALIZERS } from '../formats/normalize';
import type { ColumnMapping, FormatId } from '../formats/types';
import type { Trajectory } from '../trajectory';

/** Where each row of a plain JSONL import came from (the import's byte spans and line numbers). */
export interface LineIndex {
  /** Per row: byte offsets of the start of its source line and of its end (newline or end of file). */
  spans: Float64Array;
  /** Per row: its 1-based source line. */
  lines: Int32Array;
}

/**
 * Rows read back from their source records, as the import made them: row i is trajectory number `part` of those the
 * format's normalizer makes of record `lines[i]` (a line of JSONL, a row of Parquet); a preference record gives
 * several rows, on consecutive rows with the same record.
 */
export class RecordRows {
  readonly size: number;
  /** Per row: which of its record's trajectories it is. */
  private readonly part: Int32Array;
  private readonly normalize: (typeof NORMALIZERS)[FormatId];

  constructor(
    /** Per row: its 1-based source line or row. */
    readonly lines: Int32Array,
    private readonly read: { format: FormatId; mapping?: ColumnMapping },
    /** What a record is called in messages. */
    private readonly unit = 'line',
  ) {
    this.size = lines.length;
    this.part = new Int32Array(this.size);
    for (let i = 1; i < this.size; i++) this.part[i] = lines[i] === lines[i - 1] ? this.part[i - 1] + 1 : 0;
    this.normalize = NORMALIZERS[read.format];
  }

  /** Whether row i comes from the same record as row i − 1. */
  sameLine(i: number): boolean {
    return this.part[i] > 0;
  }

  /** The trajectories the record of row i gives (every row of that record). */
  produce(i: number, record: Record<string, unknown>): Trajectory[] {
    return this.normalize(record, { line: this.lines[i], mapping: this.read.mapping });
  }

  /** Row i among the trajectories its record gave (`produce`). */
  pick(i: number, produced: Trajectory[], fileName: string): Trajectory {
    const t = produced[this.part[i]];
    if (t === undefined) throw new Error(`${this.unit} ${this.lines[i]} of ${fileName} no longer gives row ${i + 1}: has the file changed?`);
    t.index = i;
    return t;
  }
}

/**
 * Rows read back from their JSONL lines (the import's byte spans and line numbers). Used by the data worker (detail
 * view) and by reward workers, which read only the rows a run hands them.
 */
export class LineRows extends RecordRows {
  constructor(
    readonly index: LineIndex,
    read: { format: FormatId; mapping?: ColumnMapping },
  ) {
    super(index.lines, read);
  }

  /** Byte offset where row i's line starts in the file. */
  start(i: number): number {
    return this.index.spans[2 * i];
  }

  /** Byte offset where row i's line ends (its newline, or the end of the file). */
  end(i: number): number {
    return this.index.spans[2 * i + 1];
  }
}

/** The error for a file that cannot be read again as it was imported. */
export function unreadable(fileName: string, e: unknown): Error {
  // The browser's own words for a file that changed on disk ("could not be read, typically due to permission
  // problems…") do not say what to do: name the file and the way out.
  return new Error(
    `${fileName} could not be read again (${e instanceof Error ? e.message : String(e)}). It may have changed or moved since it was imported: import it again.`,
  );
}
