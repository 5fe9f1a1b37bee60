/**
 * JSONL: one JSON object per line, read as a stream. Blank lines are skipped; a line that is not valid JSON, or
 * not an object, becomes a ParseIssue with its 1-based line number, and every other line still loads. One batch is
 * yielded per input chunk (per-line work is one `JSON.parse` and a type check).
 */
import type { RecordBatch } from './record-batch';
import { throwIfCancelled } from './cancel';
import { LineSplitter } from './line-splitter';
import { typeName } from './record-error';

export interface TextReadContext {
  name: string;
  signal?: AbortSignal;
  /** Bytes of the original file consumed so far. */
  bytesRead: () => number;
}

export async function* readJsonl(chunks: AsyncIterable<string>, ctx: TextReadContext): AsyncGenerator<RecordBatch> {
  let batch = newBatch();
  const splitter = new LineSplitter((line, n) => parseLine(line, n, batch));
  for await (const chunk of chunks) {
    throwIfCancelled(ctx.signal, ctx.name);
    splitter.push(chunk);
    if (batch.records.length > 0 || batch.issues.length > 0) {
      batch.bytesRead = ctx.bytesRead();
      yield batch;
      batch = newBatch();
    }
  }
  splitter.end();
  batch.bytesRead = ctx.bytesRead();
  if (batch.records.length > 0 || batch.issues.length > 0) yield batch;
}

function parseLine(line: string, n: number, batch: RecordBatch): void {
  if (line.length === 0) return;
  const c = line.charCodeAt(0);
  if ((c === 32 || c === 9 || c === 13) && line.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    batch.issues.push({ line: n, reason: e instanceof Error ? e.message : String(e) });
    return;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    batch.records.push(value as Record<string, unknown>);
    batch.lines.push(n);
  } else {
    batch.issues.push({ line: n, reason: `expected a JSON object, got ${typeName(value)}` });
  }
}

function newBatch(): RecordBatch {
  return { records: [], lines: [], issues: [], bytesRead: 0 };
}
