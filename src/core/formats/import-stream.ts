/**
 * `importStream`: a file in, normalized trajectories out, as a stream of events.
 *
 *   meta  (first): container, detected and used format, columns of the first records
 *   rows  (many):  up to `batchSize` trajectories and the issues found meanwhile, with bytes read for progress
 *   done  (last):  totals
 *
 * The format is detected on the first 50 records unless `opts.format` is given. A record that cannot be parsed or
 * normalized is a ParseIssue and the import goes on; the import as a whole fails (ImportError) only when the file
 * is empty, binary or unreadable, the columns are not recognised and no mapping is given, it yields no usable rows,
 * or it is cancelled through `opts.signal`.
 */
import type { ParseIssue, Trajectory } from '../trajectory';
import type { ByteSource, ContainerKind, Detection, FormatId, ImportEvent, ImportOptions } from './types';
import type { RecordBatch } from './record-batch';
import { ImportError } from './types';
import { openFile } from './container';
import { detectFormat } from './detect';
import { NORMALIZERS } from './normalize';
import { throwIfCancelled } from './cancel';

/** How many records format detection looks at. */
export const DETECTION_SAMPLE = 50;
/** Rows per batch unless the caller asks otherwise. */
export const DEFAULT_BATCH_SIZE = 2000;
/** How many issues a `no-rows` error carries. */
const ISSUES_IN_ERROR = 20;

/** Rows per batch that `opts` asks for (DEFAULT_BATCH_SIZE unless it asks for at least 1). */
export function batchSizeOf(opts: ImportOptions): number {
  return opts.batchSize !== undefined && opts.batchSize >= 1 ? Math.floor(opts.batchSize) : DEFAULT_BATCH_SIZE;
}

export async function* importStream(source: ByteSource, opts: ImportOptions = {}): AsyncGenerator<ImportEvent> {
  const { name } = source;
  const { signal } = opts;
  const batchSize = batchSizeOf(opts);
  const totalBytes = source.blob.size;
  throwIfCancelled(signal, name);
  if (opts.jsonlPiece && !opts.format) throw new Error('importStream: a JSONL piece needs its format');
  const opened = await openFile(source, { signal, jsonlPiece: opts.jsonlPiece, lineOffset: opts.lineOffset });
  const allowEmpty = opts.allowEmpty || opts.jsonlPiece;
  const batches = opened.batches;
  try {
    // 1. Read until the detection sample is full (or the file ends).
    const early: RecordBatch[] = [];
    const sample: Record<string, unknown>[] = [];
    while (sample.length < DETECTION_SAMPLE) {
      const next = await batches.next();
      if (next.done) break;
      early.push(next.value);
      for (const r of next.value.records) if (sample.length < DETECTION_SAMPLE) sample.push(r);
    }
    if (sample.length === 0 && !allowEmpty)
      throw noRows(
        name,
        opened.container,
        early.flatMap((b) => b.issues),
      );

    // 2. Decide the format.
    const columns = columnsOf(sample);
    const guess = detectFormat(sample);
    const format: FormatId = opts.format ?? guess.format;
    if (format === 'mapped' && !opts.mapping) {
      throw new ImportError(
        'needs-mapping',
        `Could not recognise the columns of ${name} (${columns.join(', ')}). Choose which columns hold the prompt and the completion.`,
        { columns, sample: sample.slice(0, 5), container: opened.container },
      );
    }
    const detection: Detection = {
      container: opened.container,
      format,
      detected: guess.format,
      reason: guess.reason,
      columns,
      gzip: opened.gzip,
    };
    yield { type: 'meta', detection, sampled: sample.length, spans: opened.spans };

    // 3. Normalize every record, emitting batches.
    const normalize = NORMALIZERS[format];
    const ctx = { line: 0, mapping: opts.mapping };
    let rows: Trajectory[] = [];
    /** Byte spans of `rows` (start, end per row), when the reader gives them. */
    let spans: number[] = [];
    let issues: ParseIssue[] = [];
    const firstIssues: ParseIssue[] = [];
    let rowCount = 0;
    let issueCount = 0;
    const addIssue = (issue: ParseIssue) => {
      issues.push(issue);
      issueCount++;
      if (firstIssues.length < ISSUES_IN_ERROR) firstIssues.push(issue);
    };
    /**
     * Rows before `head` are handed out: batches are taken from the front without copying the rest each time (a
     * Parquet row group of a million rows arrives as one record batch; slicing the rest per batch was quadratic).
     */
    let head = 0;
    const take = (bytesRead: number): ImportEvent => {
      const end = Math.min(rows.length, head + batchSize);
      const out = head === 0 && end === rows.length ? rows : rows.slice(head, end);
      const outSpans = spans.slice(2 * head, 2 * end);
      head = end;
      if (head === rows.length) {
        rows = [];
        spans = [];
        head = 0;
      }
      const event: ImportEvent = { type: 'rows', rows: out, issues, bytesRead, totalBytes };
      if (opened.spans) event.spans = Float64Array.from(outSpans);
      issues = [];
      return event;
    };

    /** Normalize a batch; reading issues and normalization issues are reported in line order. */
    const process = (batch: RecordBatch) => {
      const { records, lines, issues: readIssues, spans: recordSpans } = batch;
      let j = 0;
      for (let i = 0; i < records.length; i++) {
        const line = lines[i];
        while (j < readIssues.length && readIssues[j].line < line) addIssue(readIssues[j++]);
        ctx.line = line;
        let produced: Trajectory[];
        try {
          produced = normalize(records[i], ctx);
        } catch (e) {
          addIssue({ line, reason: e instanceof Error ? e.message : String(e) });
          continue;
        }
        for (const t of produced) {
          t.index = rowCount++;
          rows.push(t);
          if (recordSpans !== undefined) spans.push(recordSpans[2 * i], recordSpans[2 * i + 1]);
        }
      }
      while (j < readIssues.length) addIssue(readIssues[j++]);
    };

    for (let batch: RecordBatch | undefined = early.shift(); ; batch = early.shift()) {
      if (batch === undefined) {
        const next = await batches.next();
        if (next.done) break;
        batch = next.value;
      }
      throwIfCancelled(signal, name);
      process(batch);
      while (rows.length - head >= batchSize || issues.length >= batchSize) {
        throwIfCancelled(signal, name);
        yield take(batch.bytesRead);
      }
      if (head > 0) {
        rows = rows.slice(head);
        spans = spans.slice(2 * head);
        head = 0;
      }
    }

    if (rowCount === 0 && !allowEmpty) throw noRows(name, opened.container, firstIssues, issueCount);
    throwIfCancelled(signal, name);
    if (rows.length > 0 || issues.length > 0) yield take(totalBytes);
    const lineCount = opened.lineCount?.();
    yield lineCount === undefined ? { type: 'done', rowCount, issueCount } : { type: 'done', rowCount, issueCount, lineCount };
  } finally {
    await batches.return(undefined);
  }
}

/** Column names of the sample records: union of keys, in first-seen order. */
function columnsOf(sample: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const r of sample) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

export function noRows(name: string, container: ContainerKind, issues: ParseIssue[], count = issues.length): ImportError {
  const unit = container === 'jsonl' || container === 'csv' ? 'line' : 'row';
  const first = issues[0];
  const message =
    count === 0
      ? `No usable rows in ${name}: it holds no records.`
      : `No usable rows in ${name}: ${count} ${unit}${count === 1 ? '' : 's'} failed (first: ${unit} ${first.line}: ${first.reason}).`;
  return new ImportError('no-rows', message, { issues: issues.slice(0, ISSUES_IN_ERROR), container });
}
