/**
 * Split streamed text into lines. Lines may span any number of chunks (the pieces are joined once, when the
 * line completes, so a many-megabyte line costs one join, not repeated concatenation); "\r\n" and "\n" both end
 * a line (a "\r" split from its "\n" across chunks included); a last line without a newline is flushed by `end`.
 * Line numbers are 1-based and count every physical line, blank ones too.
 */

/** `newline`: the index of the line's ending "\n" in the chunk just pushed, −1 for a last line flushed by `end`. */
export type LineSink = (line: string, lineNumber: number, newline: number) => void;

export class LineSplitter {
  private pieces: string[] = [];
  private nextLine = 1;

  constructor(private readonly sink: LineSink) {}

  push(chunk: string): void {
    let nl = chunk.indexOf('\n');
    if (nl === -1) {
      if (chunk.length > 0) this.pieces.push(chunk);
      return;
    }
    let first = chunk.slice(0, nl);
    if (this.pieces.length > 0) {
      this.pieces.push(first);
      first = this.pieces.join('');
      this.pieces = [];
    }
    this.emit(first, nl);
    let start = nl + 1;
    while ((nl = chunk.indexOf('\n', start)) !== -1) {
      this.emit(chunk.slice(start, nl), nl);
      start = nl + 1;
    }
    if (start < chunk.length) this.pieces.push(chunk.slice(start));
  }

  /** Flush a last line that has no newline. */
  end(): void {
    if (this.pieces.length === 0) return;
    const last = this.pieces.join('');
    this.pieces = [];
    this.emit(last, -1);
  }

  /** Physical lines emitted so far. */
  get lineCount(): number {
    return this.nextLine - 1;
  }

  private emit(line: string, newline: number): void {
    const n = this.nextLine++;
    const len = line.length;
    this.sink(len > 0 && line.charCodeAt(len - 1) === 13 ? line.slice(0, len - 1) : line, n, newline);
  }
}
