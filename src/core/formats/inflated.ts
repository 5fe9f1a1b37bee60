/**
 * Byte ranges of a gzip file's decompressed bytes, for reading rows back by the spans a gzip JSONL import gives
 * (`LineIndex.gzip`). Gzip has no random access: the file is decompressed as a stream, front to back, and a range
 * before the stream's position starts it again from the beginning. Readers ask for ascending ranges (a worker's
 * tasks go forward), so a run decompresses the file about once; the last range given is kept, so that a range
 * starting inside it (a read ahead cut short by the next task) does not start again.
 */
export class InflatedReader {
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** Decompressed bytes read from the stream and not yet given out, and their offset. */
  private rest: Uint8Array = new Uint8Array(0);
  private restStart = 0;
  /** The last range given out. */
  private last: { start: number; bytes: Uint8Array } | null = null;
  /** Reads one at a time, in the order asked. */
  private queue: Promise<unknown> = Promise.resolve();
  /** How many times the stream was started (tests read it). */
  starts = 0;

  constructor(private readonly blob: Blob) {}

  /** Bytes [start, end) of the decompressed file; throws when it ends before `end` or cannot be decompressed. */
  read(start: number, end: number): Promise<Uint8Array> {
    const p = this.queue.then(() => this.readNow(start, end));
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** Stop decompressing (another dataset came). */
  close(): void {
    const r = this.reader;
    this.reader = null;
    this.last = null;
    this.rest = new Uint8Array(0);
    if (r) r.cancel().catch(() => undefined);
  }

  private async readNow(start: number, end: number): Promise<Uint8Array> {
    const out = new Uint8Array(Math.max(0, end - start));
    let at = start;
    const last = this.last;
    if (last && start >= last.start && start < last.start + last.bytes.length) {
      const from = last.bytes.subarray(start - last.start, Math.min(end, last.start + last.bytes.length) - last.start);
      out.set(from);
      at += from.length;
    }
    if (at < end) {
      if (this.reader === null || at < this.restStart) this.restart();
      while (at < end) {
        if (this.restStart + this.rest.length <= at) {
          // Nothing kept reaches `at`: skip what is kept and read on.
          this.restStart += this.rest.length;
          this.rest = await this.next(end);
          continue;
        }
        const from = this.rest.subarray(at - this.restStart, Math.min(end - this.restStart, this.rest.length));
        out.set(from, at - start);
        at += from.length;
        this.rest = this.rest.subarray(at - this.restStart);
        this.restStart = at;
      }
    }
    this.last = { start, bytes: out };
    return out;
  }

  private restart(): void {
    this.close();
    this.starts++;
    const stream = this.blob.stream().pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>);
    this.reader = stream.getReader();
    this.restStart = 0;
    this.rest = new Uint8Array(0);
  }

  private async next(end: number): Promise<Uint8Array> {
    const r = await this.reader!.read();
    if (r.done) throw new Error(`the decompressed file ends at byte ${this.restStart}, before byte ${end}`);
    return r.value;
  }
}
