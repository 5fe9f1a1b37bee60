/**
 * Open a file and turn its bytes into a stream of record batches: sniff the container from the bytes
 * (gzip → decompress as a stream and sniff again; `PAR1` → Parquet; `[` → JSON array; `{` → JSONL; anything
 * else → CSV, tab-separated for `.tsv` names), reject empty and binary files with a clear message.
 *
 * A file starting with `[` is one JSON document (read whole), unless it does not parse and its first line does on
 * its own: then it is JSONL whose first line is not an object (reported as an issue).
 * A file starting with `{` is JSONL unless its first line is not valid JSON and does not end with `}`
 * (e.g. a lone `{`, as in pretty-printed JSON): then the whole text is tried as one JSON document, and if that
 * fails too it is read as JSONL after all, so the broken lines are reported one by one.
 */
import type { ByteSource, ContainerKind } from './types';
import type { RecordBatch } from './record-batch';
import { ImportError } from './types';
import { ByteReader, sliceStream } from './byte-reader';
import { SNIFF_BYTES, sniffBytes } from './sniff';
import { textChunks, textChunksWithBytes } from './text-chunks';
import { readJsonl, type TextReadContext } from './read-jsonl';
import { jsonBatches } from './read-json';
import { readCsv } from './read-csv';
import { blobAsyncBuffer, readParquet } from './read-parquet';
import { throwIfCancelled } from './cancel';
import { GZIP_RATIO, inflatesPastLimit } from './gzipLimits';

export interface OpenedFile {
  container: ContainerKind;
  gzip: boolean;
  batches: AsyncGenerator<RecordBatch>;
  /** Whether the batches carry byte spans (plain JSONL read as a stream: `RecordBatch.spans`). */
  spans: boolean;
  /** JSONL: the number of physical lines, once the batches have ended. */
  lineCount?: () => number | undefined;
}

export interface OpenOptions {
  signal?: AbortSignal;
  /**
   * The bytes are a piece of a JSONL file cut at a line boundary (a parallel import's later part): read them as
   * JSONL with byte spans, without sniffing (the piece may start with a malformed or blank line).
   */
  jsonlPiece?: boolean;
  /** With `jsonlPiece`: the physical lines before the piece (its lines are numbered from lineOffset + 1). */
  lineOffset?: number;
}

/** How much decoded text is inspected to decide JSONL vs one JSON document. */
const FIRST_LINE_BYTES = 64 * 1024;
export const MAX_GZIP_LAYERS = 3;

export async function openFile(source: ByteSource, opts: OpenOptions = {}): Promise<OpenedFile> {
  const { name, blob } = source;
  const { signal } = opts;
  const raw = new ByteReader(sliceStream(blob));
  let reader = raw;
  if (opts.jsonlPiece) return jsonlStream(reader, { name, signal, bytesRead: () => raw.consumed, lineOffset: opts.lineOffset }, false);
  try {
    let gzip = false;
    let layers = 0;
    for (;;) {
      throwIfCancelled(signal, name);
      let window = SNIFF_BYTES;
      let sniff = sniffBytes(...(await peek(reader, window)));
      while (sniff.kind === 'need-more') {
        window *= 4;
        sniff = sniffBytes(...(await peek(reader, window)));
      }
      switch (sniff.kind) {
        case 'gzip':
          if (++layers > MAX_GZIP_LAYERS) throw binary(name);
          gzip = true;
          reader = gunzipReader(reader, blob.size, name);
          continue;
        case 'empty':
          throw new ImportError('empty', `The file ${name} is empty.`);
        case 'binary':
          throw binary(name, sniff.hint);
        case 'parquet':
          return { container: 'parquet', gzip, batches: parquet(source, reader, gzip, signal), spans: false };
        case 'text': {
          const ctx: TextReadContext = { name, signal, bytesRead: () => raw.consumed };
          const delimiter = /\.tsv(\.gz)?$/i.test(name) ? '\t' : undefined;
          const opened: OpenedFile =
            sniff.first === '['
              ? await openBracketFile(reader, ctx, gzip, blob.size)
              : sniff.first === '{'
                ? await openBraceFile(reader, ctx, gzip, blob.size)
                : { container: 'csv', gzip, batches: readCsv(textChunks(reader), { ...ctx, delimiter }), spans: false };
          return gzip ? { ...opened, batches: noteTruncation(opened.batches, reader) } : opened;
        }
      }
    }
  } catch (e) {
    await reader.cancel();
    throw e;
  }
}

/**
 * `reader`'s bytes decompressed: a corrupt stream is an ImportError; one that fails after some bytes is cut short
 * (`truncated`), and the bytes before that are read.
 */
export function gunzipReader(reader: ByteReader, fileBytes: number, name: string): ByteReader {
  return new ByteReader(
    gunzip(reader.toStream(), fileBytes, name),
    (e) => (e instanceof ImportError ? e : corruptGzip(name, e)),
    (e) => !(e instanceof ImportError),
  );
}

/** A gzip decompressor as a transform stream of bytes. */
export type Gunzip = () => TransformStream<Uint8Array, Uint8Array>;

// DecompressionStream's DOM typing (writable: BufferSource) does not line up with pipeThrough's; the runtime does.
const webGunzip: Gunzip = () => new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>;
let decompressor: Gunzip = webGunzip;

/**
 * Decompress gzip with `make` from now on (the CLI: Node's zlib, engine/nodeGunzip.ts); the platform's
 * DecompressionStream when it is null. Both are zlib, with the same output and errors for the same bytes.
 */
export function useGunzip(make: Gunzip | null): void {
  decompressor = make ?? webGunzip;
}

export function gunzip(stream: ReadableStream<Uint8Array>, fileBytes: number, name: string): ReadableStream<Uint8Array> {
  let out = 0;
  const cap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      out += chunk.length;
      if (inflatesPastLimit(out, fileBytes)) {
        controller.error(
          new ImportError(
            'unreadable',
            `${name} decompresses to more than ${GZIP_RATIO} times its size, which is what a decompression bomb does: it was not loaded. Decompress it yourself if you expect that.`,
          ),
        );
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return stream.pipeThrough(decompressor()).pipeThrough(cap);
}

/** After the last batch of a gzip file that ended early: one issue saying so (the rows before it are loaded). */
async function* noteTruncation(batches: AsyncIterable<RecordBatch>, reader: ByteReader): AsyncGenerator<RecordBatch> {
  let line = 0;
  let bytesRead = 0;
  for await (const b of batches) {
    if (b.lines.length) line = Math.max(line, b.lines[b.lines.length - 1]);
    for (const i of b.issues) line = Math.max(line, i.line);
    bytesRead = b.bytesRead;
    yield b;
  }
  if (reader.truncated === null) return;
  const reason = `the gzip stream ends early, so the file is cut short (${reader.truncated}): the rows before this point were loaded`;
  yield { records: [], lines: [], issues: [{ line: line + 1, reason }], bytesRead };
}

async function peek(reader: ByteReader, n: number): Promise<[Uint8Array, boolean]> {
  const { bytes, eof } = await reader.peek(n);
  return [bytes, eof];
}

async function openBraceFile(reader: ByteReader, ctx: TextReadContext, gzip: boolean, size: number): Promise<OpenedFile> {
  const { bytes } = await reader.peek(FIRST_LINE_BYTES);
  const head = new TextDecoder().decode(bytes.subarray(0, FIRST_LINE_BYTES));
  // JSONL unless the first line (blank lines aside) starts a document: it neither ends a record nor parses, and
  // neither does the next one (a broken first record is followed by whole ones; a pretty document's second line is
  // a piece). A document is read whole, and a large JSONL file read so would lose its byte spans, or not fit a string.
  const lines = head.split('\n');
  const complete = lines
    .slice(0, -1)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const [first, second] = complete;
  if (first === undefined || first.endsWith('}') || parses(first) || (second !== undefined && second.endsWith('}') && isObject(second)))
    return jsonlStream(reader, ctx, gzip);
  const text = await readText(reader);
  try {
    const document: unknown = JSON.parse(text);
    return { container: 'json', gzip, batches: documentBatches(document, size), spans: false };
  } catch {
    return { container: 'jsonl', gzip, batches: readJsonl(once(text), ctx), spans: false };
  }
}

/** JSONL read as a stream; with byte spans unless the bytes are decompressed (spans must point into the file). */
function jsonlStream(reader: ByteReader, ctx: TextReadContext, gzip: boolean): OpenedFile {
  let lines: number | undefined;
  const counted: TextReadContext = { ...ctx, onEnd: (n) => (lines = n) };
  const batches = gzip ? readJsonl(textChunks(reader), counted) : readJsonl(textChunksWithBytes(reader), counted);
  return { container: 'jsonl', gzip, batches, spans: !gzip, lineCount: () => lines };
}

async function openBracketFile(reader: ByteReader, ctx: TextReadContext, gzip: boolean, size: number): Promise<OpenedFile> {
  const text = await readText(reader);
  throwIfCancelled(ctx.signal, ctx.name);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (e) {
    const nl = text.indexOf('\n');
    if (nl >= 0 && parses(text.slice(0, nl))) return { container: 'jsonl', gzip, batches: readJsonl(once(text), ctx), spans: false };
    throw new ImportError('unreadable', `${ctx.name} starts with "[" but is not valid JSON (${(e as Error).message}).`);
  }
  return { container: 'json', gzip, batches: documentBatches(document, size), spans: false };
}

async function* documentBatches(document: unknown, size: number): AsyncGenerator<RecordBatch> {
  yield* jsonBatches(document, size);
}

async function* parquet(source: ByteSource, reader: ByteReader, gzip: boolean, signal?: AbortSignal): AsyncGenerator<RecordBatch> {
  let file;
  if (gzip) {
    const bytes = await reader.readAll();
    file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  } else {
    await reader.cancel();
    file = blobAsyncBuffer(source.blob);
  }
  yield* readParquet(file, { name: source.name, signal, totalBytes: source.blob.size });
}

async function readText(reader: ByteReader): Promise<string> {
  const bytes = await reader.readAll();
  return new TextDecoder().decode(bytes);
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

/** What a text that is not JSON parses to. */
const NOT_JSON = Symbol('not JSON');

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

const parses = (text: string) => parsed(text) !== NOT_JSON;

function isObject(text: string): boolean {
  const v = parsed(text);
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function binary(name: string, hint?: string): ImportError {
  const base = `${name} looks like a binary file, not JSONL/JSON/CSV/Parquet.`;
  return new ImportError('binary', hint ? `${base} ${hint}` : base);
}

export function corruptGzip(name: string, e: unknown): ImportError {
  const why = e instanceof Error ? e.message : String(e);
  return new ImportError('unreadable', `${name} looks gzip-compressed but could not be decompressed (${why}).`);
}
