/**
 * JSONL: one JSON object per line, read as a stream. Blank lines are skipped; a line that is not valid JSON, or
 * not an object, becomes a ParseIssue with its 1-based line number, and every other line still loads. One batch is
 * yielded per input chunk (per-line work is one `JSON.parse` and a type check).
 *
 * Given chunks with their bytes (`TextChunk`), each record also gets the byte span of its line in the stream
 * (`RecordBatch.spans`), so that the line can be read again from the file alone.
 */
import type { RecordBatch } from './record-batch';
import type { TextChunk } from './text-chunks';
import { throwIfCancelled } from './cancel';
import { LineSplitter } from './line-splitter';
import { typeName } from './record-error';

export interface TextReadContext {
  name: string;
  signal?: AbortSignal;
  /** Bytes of the original file consumed so far. */
  bytesRead: () => number;
  /** Told the number of physical lines when the text has been read to its end. */
  onEnd?: (lineCount: number) => void;
  /** Added to every line number (a piece of a file numbered as in the whole file); `onEnd` still counts the piece's. */
  lineOffset?: number;
}

export async function* readJsonl(chunks: AsyncIterable<string> | AsyncIterable<TextChunk>, ctx: TextReadContext): AsyncGenerator<RecordBatch> {
  let batch = newBatch();
  /** Byte spans: where the current line starts, and the chunk being split. */
  let lineStart = 0;
  let streamEnd = 0;
  let chunk: TextChunk | undefined;
  /** In a chunk that is not one-to-one: where to look for the next 0x0A byte. */
  let byteCursor = 0;
  const lineOffset = ctx.lineOffset ?? 0;
  const splitter = new LineSplitter((line, n, newline) => {
    let end = streamEnd;
    if (chunk !== undefined && newline >= 0) {
      if (chunk.oneToOne) end = chunk.start + newline;
      else {
        const at = chunk.bytes.indexOf(10, byteCursor);
        byteCursor = at + 1;
        end = chunk.start + at;
      }
    }
    if (parseLine(line, n + lineOffset, batch) && chunk !== undefined) batch.spans!.push(lineStart, end);
    lineStart = end + 1;
  });
  for await (const c of chunks) {
    throwIfCancelled(ctx.signal, ctx.name);
    if (typeof c === 'string') splitter.push(c);
    else {
      if (batch.spans === undefined) batch.spans = [];
      if (chunk === undefined) lineStart = c.start; // after a byte-order mark
      chunk = c;
      byteCursor = 0;
      streamEnd = c.start + c.bytes.length;
      splitter.push(c.text);
    }
    if (batch.records.length > 0 || batch.issues.length > 0) {
      batch.bytesRead = ctx.bytesRead();
      yield batch;
      batch = newBatch(chunk !== undefined);
    }
  }
  splitter.end();
  ctx.onEnd?.(splitter.lineCount);
  batch.bytesRead = ctx.bytesRead();
  if (batch.records.length > 0 || batch.issues.length > 0) yield batch;
}

/** Parse one line into the batch; true when it became a record. */
function parseLine(line: string, n: number, batch: RecordBatch): boolean {
  const r = parseJsonlLine(line);
  if (r === undefined) return false;
  if (typeof r === 'string') {
    batch.issues.push({ line: n, reason: r });
    return false;
  }
  batch.records.push(r);
  batch.lines.push(n);
  return true;
}

/**
 * One line of JSONL (without its line ending): the record, the reason it is none (a string), or undefined for a
 * blank line.
 */
export function parseJsonlLine(line: string): Record<string, unknown> | string | undefined {
  if (line.length === 0) return undefined;
  const c = line.charCodeAt(0);
  if ((c === 32 || c === 9 || c === 13) && line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return `expected a JSON object, got ${typeName(value)}`;
}

function newBatch(spans = false): RecordBatch {
  return spans ? { records: [], lines: [], issues: [], bytesRead: 0, spans: [] } : { records: [], lines: [], issues: [], bytesRead: 0 };
}
