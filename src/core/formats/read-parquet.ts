/**
 * Parquet, read with hyparquet one row group at a time through an AsyncBuffer (random access over
 * `blob.slice()`, or an in-memory buffer for a gzipped file), so memory holds one row group, not the file.
 * Codecs: uncompressed, Snappy (hyparquet) and GZIP (fflate); others fail with a clear message.
 * INT64 values arrive as bigints: those that fit a JS number exactly become numbers, the others their exact decimal
 * string (also inside lists and structs), so no bigint reaches a row. Row numbers are 1-based.
 */
import { gunzipSync } from 'fflate';
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer, type Compressors, type FileMetaData } from 'hyparquet';
import type { RecordBatch } from './record-batch';
import { throwIfCancelled } from './cancel';
import { ImportError } from './types';

const compressors: Compressors = {
  GZIP: (input, outputLength) => gunzipSync(input, { out: new Uint8Array(outputLength) }),
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
      numbersFromBigInts(rows[i]);
      batch.lines[i] = rowStart + i + 1;
    }
    yield batch;
    rowStart = rowEnd;
  }
}

/** Replace bigints by numbers when exact, else by their decimal strings, in place, through lists and plain objects. */
function numbersFromBigInts(value: Record<string, unknown> | unknown[]): void {
  const keys = Array.isArray(value) ? null : Object.keys(value);
  const n = keys ? keys.length : (value as unknown[]).length;
  for (let i = 0; i < n; i++) {
    const k = keys ? keys[i] : i;
    const v = (value as Record<string | number, unknown>)[k];
    if (typeof v === 'bigint') {
      (value as Record<string | number, unknown>)[k] = v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v.toString();
    } else if (Array.isArray(v) || (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)) {
      numbersFromBigInts(v as Record<string, unknown>);
    }
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
