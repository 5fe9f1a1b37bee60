/**
 * Parquet, read with hyparquet one row group at a time through an AsyncBuffer (random access over
 * `blob.slice()`, or an in-memory buffer for a gzipped file), so memory holds one row group, not the file.
 * Codecs: uncompressed, Snappy (hysnappy) and GZIP (fflate); others fail with a clear message.
 * INT64 values arrive as bigints: those that fit a JS number exactly become numbers, the others their exact decimal
 * string (also inside lists and structs), so no bigint reaches a row. Row numbers are 1-based.
 */
import { gunzipSync } from 'fflate';
import { snappyUncompressor } from 'hysnappy';
import { cachedAsyncBuffer, parquetMetadataAsync, parquetRead, parquetReadObjects, type AsyncBuffer, type Compressors, type FileMetaData } from 'hyparquet';
import type { RecordBatch } from './record-batch';
import { throwIfCancelled } from './cancel';
import { ImportError } from './types';

/** hysnappy's WebAssembly Snappy, made at the first Snappy page (a 4 KB module, compiled synchronously). */
let snappy: ((input: Uint8Array, outputLength: number) => Uint8Array) | null = null;

const compressors: Compressors = {
  GZIP: (input, outputLength) => gunzipSync(input, { out: new Uint8Array(outputLength) }),
  // hyparquet's own Snappy is JavaScript: 0.83 s of a 3.0 s import of 500,000 rows; this one took it to 2.0 s.
  SNAPPY: (input, outputLength) => (snappy ??= snappyUncompressor())(input, outputLength),
};

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export interface ParquetReadContext {
  name: string;
  signal?: AbortSignal;
  /** Size of the original file, for progress. */
  totalBytes: number;
}

/** Random access over a Blob for hyparquet. */
export function blobAsyncBuffer(blob: Blob): AsyncBuffer {
  return { byteLength: blob.size, slice: (start, end) => blob.slice(start, end).arrayBuffer() };
}

export async function* readParquet(file: AsyncBuffer, ctx: ParquetReadContext): AsyncGenerator<RecordBatch> {
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (e) {
    throw new ImportError('unreadable', `${ctx.name} is not a readable Parquet file (${messageOf(e)}).`);
  }
  const totalRows = Number(metadata.num_rows);
  const bigInts = bigIntColumns(metadata);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    throwIfCancelled(ctx.signal, ctx.name);
    const rowEnd = rowStart + Number(group.num_rows);
    if (rowEnd === rowStart) continue;
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, compressors });
    } catch (e) {
      throw unreadable(ctx.name, e);
    }
    const batch: RecordBatch = {
      records: rows,
      lines: new Array(rows.length),
      issues: [],
      bytesRead: totalRows > 0 ? Math.round((ctx.totalBytes * rowEnd) / totalRows) : ctx.totalBytes,
    };
    for (let i = 0; i < rows.length; i++) {
      if (bigInts.length > 0) numbersInColumns(rows[i], bigInts);
      batch.lines[i] = rowStart + i + 1;
    }
    yield batch;
    rowStart = rowEnd;
  }
}

/** A Parquet file read by ranges of rows (reward workers: the rows of their tasks), not whole. */
export interface ParquetRows {
  /** Rows in the file. */
  numRows: number;
  /** Records [start, end) (0-based), as `readParquet` gives them; fewer when the file has fewer. */
  read(start: number, end: number): Promise<Record<string, unknown>[]>;
}

/**
 * Columns of at most this many bytes per row (compressed: ids, steps, short labels) are read whole, once per row
 * group, and kept: their pages hold so many rows (a 1 MB page of an id column ~100,000) that any range read decodes
 * most of them again. In a million-row file, reading 8,192 rows of its four short columns took 91 ms, of its prompts
 * and completions 34 ms.
 */
const KEEP_BYTES_PER_ROW = 16;

/**
 * `blob` as a Parquet file read by ranges of rows, or null when its columns are not all flat (top-level, not
 * repeated): hyparquet skips the pages before a range only in flat columns, so any other would be decoded from its
 * row group's start for every range. Each column chunk's bytes are read once and kept (the file's size at most).
 */
export async function openParquetRows(blob: Blob): Promise<ParquetRows | null> {
  const file = cachedAsyncBuffer(blobAsyncBuffer(blob), { minSize: 0 });
  const metadata = await parquetMetadataAsync(file);
  const [root, ...columns] = metadata.schema;
  if (root.num_children !== columns.length || columns.some((c) => (c.num_children ?? 0) > 0 || c.repetition_type === 'REPEATED')) return null;
  const names = columns.map((c) => c.name);
  const bigInts = bigIntColumns(metadata);
  /** Rows [start, end) of `cols`, each row an array of their values in that order. */
  const readArrays = (cols: string[], rowStart: number, rowEnd: number) =>
    new Promise<unknown[][]>((resolve, reject) => {
      parquetRead({ file, metadata, columns: cols, rowStart, rowEnd, compressors, rowFormat: 'array', onComplete: resolve }).catch(reject);
    });
  let at = 0;
  const groups = metadata.row_groups.map((g) => {
    const start = at;
    at += Number(g.num_rows);
    const kept = new Set(
      g.columns
        .filter((c) => c.meta_data && Number(c.meta_data.total_compressed_size) <= KEEP_BYTES_PER_ROW * Number(g.num_rows))
        .map((c) => c.meta_data?.path_in_schema[0]),
    );
    const keptNames = names.filter((n) => kept.has(n));
    const rangedNames = names.filter((n) => !kept.has(n));
    // Where each column's value comes from, in the file's column order: a kept column, or the range read's row.
    const layout = names.map((n) => (kept.has(n) ? { kept: true, j: keptNames.indexOf(n) } : { kept: false, j: rangedNames.indexOf(n) }));
    return { start, end: at, kept: keptNames, ranged: rangedNames, layout, values: null as Promise<unknown[][]> | null };
  });
  return {
    numRows: Number(metadata.num_rows),
    async read(start, end) {
      const out: Record<string, unknown>[] = [];
      for (const g of groups) {
        const a = Math.max(start, g.start);
        const b = Math.min(end, g.end);
        if (a >= b) continue;
        // The kept columns' values by column, read on the group's first read.
        g.values ??= g.kept.length === 0 ? Promise.resolve([]) : readArrays(g.kept, g.start, g.end).then((rows) => g.kept.map((_, j) => rows.map((r) => r[j])));
        const [kept, ranged] = await Promise.all([g.values, g.ranged.length > 0 ? readArrays(g.ranged, a, b) : []]);
        // Each record's fields in the file's column order, as a whole read gives them.
        for (let i = a; i < b; i++) {
          const r = ranged[i - a];
          const record: Record<string, unknown> = {};
          for (let c = 0; c < names.length; c++) {
            const f = g.layout[c];
            record[names[c]] = f.kept ? kept[f.j][i - g.start] : r[f.j];
          }
          if (bigInts.length > 0) numbersInColumns(record, bigInts);
          out.push(record);
        }
      }
      return out;
    },
  };
}

/**
 * The top-level columns for which hyparquet may give bigints: 64- or 96-bit integers (nested ones too) or a VARIANT
 * (whose values may hold 64-bit integers). Only these are walked in each record (`numbersInColumns`).
 */
function bigIntColumns(metadata: FileMetaData): string[] {
  const { schema } = metadata;
  /** The end of the subtree of schema element j (elements are listed depth first). */
  const subtreeEnd = (j: number): number => {
    let end = j + 1;
    for (let c = 0; c < (schema[j].num_children ?? 0); c++) end = subtreeEnd(end);
    return end;
  };
  const out: string[] = [];
  for (let i = 1, end; i < schema.length; i = end) {
    end = subtreeEnd(i);
    if (schema.slice(i, end).some((e) => e.type === 'INT64' || e.type === 'INT96' || e.logical_type?.type === 'VARIANT')) out.push(schema[i].name);
  }
  return out;
}

/** `numbersFromBigInts` over the record's own values of `columns` only. */
function numbersInColumns(record: Record<string, unknown>, columns: readonly string[]): void {
  for (const k of columns) if (Object.hasOwn(record, k)) numberAt(record, k);
}

/** Replace bigints by numbers when exact, else by their decimal strings, in place, through lists and plain objects. */
function numbersFromBigInts(value: Record<string, unknown> | unknown[]): void {
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) numberAt(value as unknown as Record<number, unknown>, i);
  else for (const k of Object.keys(value)) numberAt(value, k);
}

/** The value at `k` of a record or list: a bigint replaced (see numbersFromBigInts), a list or plain object walked. */
function numberAt(container: Record<string | number, unknown>, k: string | number): void {
  const v = container[k];
  if (typeof v === 'bigint') container[k] = v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v.toString();
  else if (Array.isArray(v) || (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)) {
    numbersFromBigInts(v as Record<string, unknown>);
  }
}

function unreadable(name: string, e: unknown): ImportError {
  const codec = /compression codec:?\s*(\w+)/i.exec(messageOf(e))?.[1];
  if (codec) {
    return new ImportError('unreadable', `${name} uses ${codec} compression, which cannot be read here; save it with Snappy or gzip compression.`);
  }
  return new ImportError('unreadable', `${name} could not be read as Parquet (${messageOf(e)}).`);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
