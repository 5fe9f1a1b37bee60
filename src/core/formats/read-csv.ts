/**
 * CSV / TSV with a header row, parsed by papaparse, streamed: text is cut into blocks at newlines outside
 * quotes (quote parity), so a quoted field with commas or newlines never straddles two blocks. Every record
 * gets the physical line where it starts. Cells stay strings, exactly as in the file (the step column is read as
 * a number later). Blank lines are skipped; a row with the wrong number of fields or broken quotes is an issue.
 * Delimiter: tab for `.tsv` names, else the most frequent of , \t ; | in the header line.
 */
import Papa from 'papaparse';
import type { RecordBatch } from './record-batch';
import type { TextReadContext } from './read-jsonl';
import { throwIfCancelled } from './cancel';

export interface CsvReadContext extends TextReadContext {
  /** Forced delimiter (tab for `.tsv`). */
  delimiter?: string;
}

export async function* readCsv(chunks: AsyncIterable<string>, ctx: CsvReadContext): AsyncGenerator<RecordBatch> {
  const parser = new CsvBlockParser(ctx.delimiter);
  let pieces: string[] = [];
  let inQuote = false;
  for await (const chunk of chunks) {
    throwIfCancelled(ctx.signal, ctx.name);
    let lastBreak = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 34) inQuote = !inQuote;
      else if (c === 10 && !inQuote) lastBreak = i;
    }
    if (lastBreak < 0) {
      pieces.push(chunk);
      continue;
    }
    pieces.push(chunk.slice(0, lastBreak + 1));
    const block = pieces.join('');
    pieces = lastBreak + 1 < chunk.length ? [chunk.slice(lastBreak + 1)] : [];
    const batch = parser.parseBlock(block, ctx.bytesRead());
    if (batch.records.length > 0 || batch.issues.length > 0) yield batch;
  }
  const rest = pieces.join('');
  const batch = parser.parseBlock(rest, ctx.bytesRead());
  if (batch.records.length > 0 || batch.issues.length > 0) yield batch;
}

/** Parses consecutive blocks of one CSV file; the first non-blank row is the header. */
class CsvBlockParser {
  private header: string[] | undefined;
  private newline: '\n' | '\r\n' = '\n';
  private sniffed = false;
  /** Line number where the next block starts. */
  private blockLine = 1;

  constructor(private delimiter: string | undefined) {}

  parseBlock(text: string, bytesRead: number): RecordBatch {
    const batch: RecordBatch = { records: [], lines: [], issues: [], bytesRead };
    if (text.length === 0) return batch;
    if (!this.sniffed) this.sniffLayout(text);
    let line = this.blockLine;
    let counted = 0; // text[0..counted) has been scanned for newlines
    let rowStart = 0;
    Papa.parse<string[]>(text, {
      delimiter: this.delimiter,
      newline: this.newline,
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
    for (let i = counted; i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
    this.blockLine = line;
    return batch;
  }

  /** Newline style and (unless forced) delimiter, from the first non-blank line. */
  private sniffLayout(text: string): void {
    this.sniffed = true;
    let start = 0;
    let nl = text.indexOf('\n');
    while (nl >= 0 && text.slice(start, nl).trim() === '') {
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    const first = nl < 0 ? text.slice(start) : text.slice(start, nl);
    if (first.endsWith('\r')) this.newline = '\r\n';
    if (this.delimiter !== undefined) return;
    let best = ',';
    let bestCount = 0;
    for (const d of [',', '\t', ';', '|']) {
      const count = first.split(d).length - 1;
      if (count > bestCount) {
        best = d;
        bestCount = count;
      }
    }
    this.delimiter = best;
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
