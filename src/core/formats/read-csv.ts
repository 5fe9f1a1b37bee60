/**
 * CSV / TSV with a header row, parsed by papaparse, streamed. `CsvRecordSplitter` cuts the text into blocks of whole
 * records (a quoted field with commas or newlines never straddles two blocks) and catches a quoted field that never
 * closes or closes badly: that line is an issue and reading goes on with the next line, instead of papaparse reading
 * to the end of the file as one field. Every record gets the physical line where it starts. Cells stay strings,
 * exactly as in the file (the step column is read as a number later). Blank lines are skipped; a row with the wrong
 * number of fields or broken quotes is an issue.
 * Delimiter: tab for `.tsv` names, else the most frequent of , \t ; | in the header line.
 */
import Papa from 'papaparse';
import type { RecordBatch } from './record-batch';
import type { TextReadContext } from './read-jsonl';
import { throwIfCancelled } from './cancel';
import { CsvRecordSplitter, type CsvPiece } from './csv-records';

export interface CsvReadContext extends TextReadContext {
  /** Forced delimiter (tab for `.tsv`). */
  delimiter?: string;
}

export async function* readCsv(chunks: AsyncIterable<string>, ctx: CsvReadContext): AsyncGenerator<RecordBatch> {
  const parser = new CsvBlockParser();
  let splitter: CsvRecordSplitter | null = null;
  /** Text before the layout is known (the first non-blank line has not ended yet). */
  let head = '';
  const batchOf = (pieces: CsvPiece[]): RecordBatch => {
    const batch: RecordBatch = { records: [], lines: [], issues: [], bytesRead: ctx.bytesRead() };
    for (const p of pieces) {
      if (p.kind === 'bad') batch.issues.push({ line: p.line, reason: p.reason });
      else parser.parseBlock(p.text, p.line, batch);
    }
    return batch;
  };
  for await (const chunk of chunks) {
    throwIfCancelled(ctx.signal, ctx.name);
    let text = chunk;
    if (!splitter) {
      head += chunk;
      const layout = sniffLayout(head, ctx.delimiter, false);
      if (!layout) continue;
      splitter = new CsvRecordSplitter(layout.delimiter, layout.newline === '\r\n');
      parser.setLayout(layout);
      text = head;
      head = '';
    }
    const batch = batchOf(splitter.push(text));
    if (batch.records.length > 0 || batch.issues.length > 0) yield batch;
  }
  let last: CsvPiece[] = [];
  if (!splitter) {
    // The whole file is one line (or blank).
    const layout = sniffLayout(head, ctx.delimiter, true)!;
    splitter = new CsvRecordSplitter(layout.delimiter, layout.newline === '\r\n');
    parser.setLayout(layout);
    last = splitter.push(head);
  }
  const batch = batchOf(last.concat(splitter.end()));
  if (batch.records.length > 0 || batch.issues.length > 0) yield batch;
}

interface CsvLayout {
  delimiter: string;
  newline: '\n' | '\r\n';
}

/**
 * Newline style and (unless forced) delimiter, from the first non-blank line; null while that line has not ended
 * (unless the text is all there is).
 */
function sniffLayout(text: string, forced: string | undefined, all: boolean): CsvLayout | null {
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl >= 0 && text.slice(start, nl).trim() === '') {
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  if (nl < 0 && !all) return null;
  const first = nl < 0 ? text.slice(start) : text.slice(start, nl);
  const newline = first.endsWith('\r') ? '\r\n' : '\n';
  if (forced !== undefined) return { delimiter: forced, newline };
  let best = ',';
  let bestCount = 0;
  for (const d of [',', '\t', ';', '|']) {
    const count = first.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return { delimiter: best, newline };
}

/** Parses blocks of whole records of one CSV file into a batch; the first non-blank row is the header. */
class CsvBlockParser {
  private header: string[] | undefined;
  private layout: CsvLayout = { delimiter: ',', newline: '\n' };

  setLayout(layout: CsvLayout): void {
    this.layout = layout;
  }

  /** Parse `text` (whole records, starting on line `firstLine`) into `batch`. */
  parseBlock(text: string, firstLine: number, batch: RecordBatch): void {
    if (text.length === 0) return;
    let line = firstLine;
    let counted = 0; // text[0..counted) has been scanned for newlines
    let rowStart = 0;
    Papa.parse<string[]>(text, {
      delimiter: this.layout.delimiter,
      newline: this.layout.newline,
      header: false,
      skipEmptyLines: false,
      step: (result) => {
        for (; counted < rowStart; counted++) if (text.charCodeAt(counted) === 10) line++;
        const row = result.data;
        rowStart = result.meta.cursor;
        if (row.length === 1 && row[0] === '' && result.errors.length === 0) return; // blank line
        if (result.errors.length > 0) {
          batch.issues.push({ line, reason: result.errors.map((e) => e.message).join('; ') });
        } else if (this.header === undefined) {
          this.header = headerNames(row);
        } else if (row.length !== this.header.length) {
          batch.issues.push({ line, reason: `expected ${this.header.length} fields, found ${row.length}` });
        } else {
          const record: Record<string, unknown> = {};
          for (let i = 0; i < row.length; i++) record[this.header[i]] = row[i];
          batch.records.push(record);
          batch.lines.push(line);
        }
      },
    });
  }
}

/** Header cells as column names: blank ones become `column_<n>`, repeats get `_2`, `_3`, … */
function headerNames(row: string[]): string[] {
  const seen = new Map<string, number>();
  return row.map((cell, i) => {
    const base = cell.trim() === '' ? `column_${i + 1}` : cell;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}_${n}`;
  });
}
