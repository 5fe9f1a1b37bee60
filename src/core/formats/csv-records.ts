/**
 * Where the records of a CSV/TSV text end, read as papaparse reads quotes: a quote opens a quoted field only at the
 * start of a field; inside it `""` is a quote, and a quote closes the field only when what follows it (after spaces)
 * is the delimiter, the end of the line or the end of the file. Delimiters and newlines inside a quoted field belong
 * to the field, so a record can span several lines.
 *
 * A quoted field that never closes (the file ends inside it), or whose closing quote is followed by anything else,
 * cannot be read: papaparse would read on to the end of the file as one field and swallow every row after it. Here
 * the line where that record starts is reported as an issue, and reading goes on with the next line as a new row.
 * A record with a good multi-line quoted field is kept whole. (The one case this cannot tell apart: a stray quote whose
 * run to the next quote happens to read as a well-formed field; then the rows in between are one field, as in any
 * CSV reader.)
 *
 * Text arrives in chunks cut anywhere; the scan carries its state across them and never looks ahead.
 */

/** Complete, well-quoted records (`text` starts on line `line`), or a line that could not be read. */
export type CsvPiece = { kind: 'rows'; text: string; line: number } | { kind: 'bad'; line: number; reason: string };

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: `""`, or the field's end. */
const QUOTE_SEEN = 3;
/** After a closing quote and spaces: only the delimiter or the line's end may follow. */
const AFTER_CLOSE = 4;
/** The rest of a line that could not be read: skipped up to its newline. */
const SKIP_LINE = 5;

const NL = 10;
const CR = 13;
const QUOTE = 34;

/** Whitespace as String.prototype.trim sees it (papaparse allows it between a closing quote and what follows). */
const isSpace = (c: number) =>
  c === 32 ||
  c === 9 ||
  c === 11 ||
  c === 12 ||
  c === CR ||
  c === 0xa0 ||
  c === 0xfeff ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;

export class CsvRecordSplitter {
  private readonly delim: number;
  private state = FIELD_START;
  /** Text not handed out yet: the start of the record being read (a record ends at a newline outside quotes). */
  private open: string[] = [];
  /** Line where the record being read starts; line of the scan. */
  private recLine: number;
  private line: number;
  /** Line where the current quoted field opened. */
  private quoteLine = 0;
  private prev = -1;

  /**
   * @param delimiter one character (`,`, tab, `;`, `|`)
   * @param crlf lines end with `\r\n` (papaparse is given that newline; a lone `\n` is then part of a field)
   * @param firstLine line number of the first character
   */
  constructor(
    delimiter: string,
    private readonly crlf: boolean,
    firstLine = 1,
  ) {
    this.delim = delimiter.charCodeAt(0);
    this.recLine = firstLine;
    this.line = firstLine;
  }

  /** Feed the next chunk: the pieces it completes, in order. */
  push(text: string): CsvPiece[] {
    const out: CsvPiece[] = [];
    let input: string | null = text;
    while (input !== null) input = this.scan(input, out);
    return out;
  }

  /** The input has ended: the last record, or the line of a quoted field left open (and the lines after it). */
  end(): CsvPiece[] {
    const out: CsvPiece[] = [];
    for (;;) {
      const rest = this.open.join('');
      this.open = [];
      if (rest.length === 0 || this.state === SKIP_LINE) return out;
      if (this.state !== QUOTED) {
        // The last record, without a newline (a quote closed by the end of the file is fine, as in papaparse).
        out.push({ kind: 'rows', text: rest, line: this.recLine });
        return out;
      }
      let input = this.resync(rest, `unterminated quote: the quoted field opened on ${this.where(this.quoteLine)} never closes`, out);
      while (input !== null) input = this.scan(input, out);
    }
  }

  private where(line: number): string {
    return line === this.recLine ? 'this line' : `line ${line}`;
  }

  /**
   * Report the record being read (its text is `record`) as its first line, and start again on the next line: returns
   * the text to read from there, or null when the record had no newline (the rest of its line is skipped).
   */
  private resync(record: string, reason: string, out: CsvPiece[]): string | null {
    out.push({ kind: 'bad', line: this.recLine, reason: `${reason}; the line is skipped and the next one read as a new row` });
    const nl = record.indexOf('\n');
    this.open = [];
    this.prev = -1;
    if (nl < 0) {
      // The line goes on in the next chunk: skipped up to its newline (the scan is still on the reported line).
      this.state = SKIP_LINE;
      this.line = this.recLine;
      return null;
    }
    this.state = FIELD_START;
    this.recLine += 1;
    this.line = this.recLine;
    return record.slice(nl + 1);
  }

  /** Read a chunk, handing out complete records; returns text to read again after a line could not be read. */
  private scan(text: string, out: CsvPiece[]): string | null {
    const delim = this.delim;
    let state = this.state;
    let line = this.line;
    let prev = this.prev;
    /** Text before `start` in this chunk is handed out or skipped; `[start, lastEnd)` holds complete records. */
    let start = 0;
    let lastEnd = 0;
    /** The line after the last complete record. */
    let nextLine = this.recLine;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (state === QUOTED) {
        if (c === QUOTE) state = QUOTE_SEEN;
      } else if (state === QUOTE_SEEN && c === QUOTE) {
        state = QUOTED; // "" is a quote
      } else if (state === SKIP_LINE) {
        if (c === NL) {
          // The end of a line that could not be read: the next record starts after it.
          state = FIELD_START;
          this.open = [];
          start = lastEnd = i + 1;
          this.recLine = nextLine = line + 1;
        }
      } else if (c === NL && (!this.crlf || prev === CR)) {
        state = FIELD_START;
        lastEnd = i + 1;
        nextLine = line + 1;
      } else if (state === QUOTE_SEEN || state === AFTER_CLOSE) {
        if (c === delim) state = FIELD_START;
        else if (isSpace(c) || c === NL) state = AFTER_CLOSE;
        else {
          // A closing quote followed by what cannot follow it: the record cannot be read. The records before it go out.
          this.flush(text, start, lastEnd, nextLine, out);
          const record = this.open.join('') + text.slice(lastEnd);
          const closed = line === this.recLine ? 'the same line' : `line ${line}`;
          return this.resync(
            record,
            `broken quote: the quoted field opened on ${this.where(this.quoteLine)} is closed on ${closed} by a quote followed by ${JSON.stringify(text[i])}, not by the delimiter or the end of the line`,
            out,
          );
        }
      } else if (state === FIELD_START) {
        if (c === QUOTE) {
          state = QUOTED;
          this.quoteLine = line;
        } else if (c !== delim) state = UNQUOTED;
      } else if (c === delim) state = FIELD_START; // in an unquoted field
      if (c === NL) line++;
      prev = c;
    }
    this.state = state;
    this.line = line;
    this.prev = prev;
    this.flush(text, start, lastEnd, nextLine, out);
    if (state !== SKIP_LINE && lastEnd < text.length) this.open.push(text.slice(lastEnd));
    return null;
  }

  /** Hand out the records that ended in this chunk (`text[start, end)`), after the text kept from earlier chunks. */
  private flush(text: string, start: number, end: number, nextLine: number, out: CsvPiece[]): void {
    if (end <= start) return;
    this.open.push(text.slice(start, end));
    out.push({ kind: 'rows', text: this.open.join(''), line: this.recLine });
    this.open = [];
    this.recLine = nextLine;
  }
}
