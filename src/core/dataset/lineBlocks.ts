/**
 * A plain JSONL import's rows read back from the file block by block, none kept: what the data worker does when a
 * question needs every row once (a text search, token counts, a preference check). At a million rows, reading them
 * into trajectories and keeping them held ~1.2 GB in the data worker.
 */
import type { ByteSource } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { unreadable, type LineRows } from './lineRows';

/** Bytes of one read, and reads asked for ahead of the one in use (the browser reads while this thread works). */
const READ_BYTES = 8 << 20;
const READS_AHEAD = 2;

/** Rows [first, first + n) of a file, from the bytes of their lines. */
export class LineBlock {
  /** Where each row's line is in `bytes`. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  private whole: { text: string; starts: Int32Array; ends: Int32Array } | null = null;
  private decodeEach = false;
  private produced: { k: number; rows: Trajectory[] } | null = null;

  constructor(
    private readonly source: ByteSource,
    private readonly rows: LineRows,
    readonly first: number,
    readonly n: number,
    readonly bytes: Uint8Array,
    private readonly decoder: TextDecoder,
  ) {
    const base = rows.start(first);
    this.starts = new Int32Array(n);
    this.ends = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      this.starts[k] = rows.start(first + k) - base;
      this.ends[k] = rows.end(first + k) - base;
    }
  }

  /** The block as one string, and where each row's line is in it. */
  text(): { text: string; starts: Int32Array; ends: Int32Array } {
    if (this.whole === null) {
      const text = this.decoder.decode(this.bytes);
      this.whole = { text, ...lineRanges(this.rows, this.first, this.n, this.bytes, text) };
    }
    return this.whole;
  }

  /** Decode lines one by one rather than the whole block (when few of its lines are wanted). */
  fewLines(): void {
    if (this.whole === null) this.decodeEach = true;
  }

  /** Row k's line. */
  line(k: number): string {
    if (this.decodeEach) return this.decoder.decode(this.bytes.subarray(this.starts[k], this.ends[k]));
    const w = this.text();
    return w.text.slice(w.starts[k], w.ends[k]);
  }

  /** Whether row k comes from the same line as row k − 1 (the rows of a preference record). */
  sameLine(k: number): boolean {
    return k > 0 && this.rows.sameLine(this.first + k);
  }

  /** Row k as the import made it: its line parsed (once for the rows of one record) and normalized. */
  row(k: number): Trajectory {
    let line = k;
    while (line > 0 && this.sameLine(line)) line--;
    if (this.produced?.k !== line) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(this.line(line)) as Record<string, unknown>;
      } catch (e) {
        throw unreadable(this.source.name, e);
      }
      this.produced = { k: line, rows: this.rows.produce(this.first + line, record) };
    }
    return this.rows.pick(this.first + k, this.produced.rows, this.source.name);
  }
}

/**
 * The rows `rows` lists in `source`, in blocks of lines of about `readBytes` (a longer line is a block of its own).
 * Throws when the file is no longer what the import read.
 */
export async function* lineBlocks(source: ByteSource, rows: LineRows, readBytes = READ_BYTES): AsyncGenerator<LineBlock> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const bounds = blockBounds(rows, readBytes);
  const read = (b: number): Promise<Uint8Array> => {
    const p = source.blob
      .slice(rows.start(bounds[b]), rows.end(bounds[b + 1] - 1))
      .arrayBuffer()
      .then((buf) => new Uint8Array(buf));
    p.catch(() => undefined); // reads ahead of a reader that stopped are never awaited
    return p;
  };
  const pending: Promise<Uint8Array>[] = [];
  let asked = 0;
  for (let b = 0; b + 1 < bounds.length; b++) {
    while (asked + 1 < bounds.length && asked <= b + READS_AHEAD) pending.push(read(asked++));
    let bytes: Uint8Array;
    try {
      bytes = await pending.shift()!;
    } catch (e) {
      throw unreadable(source.name, e);
    }
    const i = bounds[b];
    const n = bounds[b + 1] - i;
    if (bytes.length !== rows.end(i + n - 1) - rows.start(i)) throw unreadable(source.name, new Error('it is shorter than it was'));
    yield new LineBlock(source, rows, i, n, bytes, decoder);
  }
}

/** Call `visit` with every row, in order; false when `signal` aborted it first. */
export async function eachLineRow(source: ByteSource, rows: LineRows, visit: (t: Trajectory, i: number) => void, signal?: AbortSignal): Promise<boolean> {
  for await (const block of lineBlocks(source, rows)) {
    if (signal?.aborted) return false;
    for (let k = 0; k < block.n; k++) visit(block.row(k), block.first + k);
  }
  return true;
}

/** Row boundaries of the reads: rows [bounds[b], bounds[b + 1]), at least one row each, within `bytes` when they can. */
function blockBounds(rows: LineRows, bytes: number): number[] {
  const bounds = [0];
  for (let i = 0; i < rows.size;) {
    const limit = rows.start(i) + bytes;
    let j = i + 1;
    while (j < rows.size && rows.end(j) <= limit) j++;
    bounds.push(j);
    i = j;
  }
  return bounds;
}

/**
 * Where each of rows [i, i + n) lies in `text`, the decoded bytes of their lines. When every byte became one unit
 * (ASCII) offsets carry over; otherwise each row is found by counting the newlines before it, which decoding keeps.
 */
function lineRanges(rows: LineRows, i: number, n: number, bytes: Uint8Array, text: string): { starts: Int32Array; ends: Int32Array } {
  const base = rows.start(i);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const ascii = text.length === bytes.length;
  let at = 0; // in text: the end of the previous row's line
  let byteAt = base;
  for (let k = 0; k < n; k++) {
    const s = rows.start(i + k);
    if (ascii) {
      starts[k] = s - base;
      ends[k] = rows.end(i + k) - base;
      continue;
    }
    if (k > 0 && rows.sameLine(i + k)) {
      starts[k] = starts[k - 1];
      ends[k] = ends[k - 1];
      continue;
    }
    // Lines between the previous row and this one (its newline, blank or broken lines): skip as many in the text.
    for (let p = bytes.indexOf(10, byteAt - base); p >= 0 && p < s - base; p = bytes.indexOf(10, p + 1)) at = text.indexOf('\n', at) + 1;
    const e = text.indexOf('\n', at);
    starts[k] = at;
    ends[k] = e < 0 ? text.length : e;
    at = ends[k];
    byteAt = rows.end(i + k);
  }
  return { starts, ends };
}
