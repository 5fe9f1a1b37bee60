/**
 * Pull-based reading of a byte stream with look-ahead: `peek` buffers the head of the stream for sniffing
 * without consuming it, `read` then replays the buffered chunks before reading on. Chunks are handed out at most
 * `MAX_CHUNK` bytes at a time (an in-memory Blob streams as one chunk of its whole size in Node; decoding and
 * splitting that at once is slow and gives no progress). Web-standard APIs only.
 */

export const MAX_CHUNK = 1 << 16;

/** Bytes per read when streaming a Blob by slices. */
export const SLICE_BYTES = 4 << 20;
/** Bytes of the first read. */
const FIRST_SLICE_BYTES = 256 << 10;

/** Buffers `sliceStream` read, which nothing outside this module holds: a ByteReader may free them (`freeUsed`). */
const OWNED = new WeakSet<ArrayBufferLike>();

/**
 * Free a buffer of bytes read from a file now. A read's buffer outlives V8's young generation while its bytes are
 * parsed, and then waits for a full GC; V8 counts such memory and starts a full GC for every ~64 MB of it ("external
 * memory pressure"), each marking everything the thread holds: reading a million chat rows in one worker spent most
 * of its time there (bench/README.md, session 25). Transferred to a clone that nothing keeps, it is freed at the next
 * scavenge. Views of it read as empty afterwards: only for a buffer the caller alone holds.
 */
export function freeBuffer(buffer: ArrayBufferLike): void {
  if (buffer instanceof ArrayBuffer && buffer.byteLength > 0) structuredClone(buffer, { transfer: [buffer] });
}

/**
 * The streams and readers of the reads in progress, held here: in Chromium a Blob's stream that only a suspended
 * reader refers to can be collected mid-read, and its pending read then never settles (the import stopped, once
 * in every ~8 imports of a 91 MB file in bench runs; never in 52 with them held). WebKit fixed the same fault in
 * its engine (WebKit/WebKit#54097: "the stream reader could be GCed. This lead to read promises to never resolve").
 */
export const READING = new Set<unknown>();

/** Node's `Blob.arrayBuffer()` gathers a slice's chunks in buffers of their own before copying them into one. */
const GATHERS = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/**
 * The bytes of `part`. In Node, read into one buffer of ours by a BYOB reader: `arrayBuffer()`'s own chunk buffers
 * outlived the young generation while rows were parsed, and started full GCs (`freeBuffer`); a CLI run of a million
 * chat rows spent most of its time in them. A browser's `arrayBuffer()` makes one buffer, and was ~3 % faster than a
 * BYOB read there (the first run after a million-row import, bench/README, session 25).
 */
export async function readSlice(part: Blob): Promise<ArrayBuffer> {
  if (!GATHERS) return part.arrayBuffer();
  let stream: ReadableStream;
  let reader: ReadableStreamBYOBReader;
  try {
    stream = part.stream();
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    return part.arrayBuffer();
  }
  const held = { stream, reader, part };
  READING.add(held); // see READING
  try {
    let buffer = new ArrayBuffer(part.size);
    let filled = 0;
    while (filled < buffer.byteLength) {
      const { done, value } = await reader.read(new Uint8Array(buffer, filled));
      if (value) {
        buffer = value.buffer as ArrayBuffer;
        filled += value.byteLength;
      }
      if (done) break;
    }
    if (filled < buffer.byteLength) throw new Error(`the file ended after ${filled} of the ${buffer.byteLength} bytes asked for`);
    return buffer;
  } finally {
    READING.delete(held);
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A Blob as a stream of large slices. In Chromium, reading a File through `blob.stream()` (64 KiB chunks) takes about
 * twice as long as reading it by multi-megabyte `slice().arrayBuffer()` calls.
 *
 * Each slice after the first is read while the one before it is used. The second is read only once asked for: a
 * large JSONL import reads the head here to decide the format, then the rest by other means (scanJsonl), and a
 * second slice read ahead was 4 MB read for nothing on the cores the import needs.
 */
export function sliceStream(blob: Blob, sliceBytes = SLICE_BYTES): ReadableStream<Uint8Array> {
  let offset = 0;
  let next: Promise<ArrayBuffer> | null = null;
  const read = () => {
    // The first slice is small: sniffing and format detection need only the head of the file.
    const end = Math.min(blob.size, offset + (offset === 0 ? Math.min(sliceBytes, FIRST_SLICE_BYTES) : sliceBytes));
    const p = readSlice(blob.slice(offset, end));
    p.catch(() => undefined); // a read ahead that is never taken (the stream cancelled) is no unhandled rejection
    offset = end;
    return p;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (next === null && offset >= blob.size) return controller.close();
        const first = offset === 0;
        const bytes = new Uint8Array(await (next ?? read()));
        OWNED.add(bytes.buffer);
        next = !first && offset < blob.size ? read() : null;
        controller.enqueue(bytes);
      },
      cancel() {
        next = null;
      },
    },
    // Pulled only when read: the read ahead is `next`, above.
    { highWaterMark: 0 },
  );
}

export class ByteReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private buffered: Uint8Array[] = [];
  private bufferedBytes = 0;
  private ended = false;
  /** Bytes handed out by `read` so far. */
  consumed = 0;
  /** Bytes the stream has given so far. */
  private produced = 0;
  /** Why the stream ended early, when `endsEarly` let it end as if it were complete. */
  truncated: string | null = null;
  /** After `freeUsed`: the buffer of the last chunk `read` handed out. */
  private lastBuffer: ArrayBufferLike | null = null;
  private freeing = false;

  /**
   * @param mapError turns a stream error (e.g. a corrupt gzip) into the error the caller should see
   * @param endsEarly says whether an error after some bytes only cut the stream short (a truncated .gz): it then ends
   */
  constructor(
    stream: ReadableStream<Uint8Array>,
    private readonly mapError: (e: unknown) => unknown = (e) => e,
    private readonly endsEarly: (e: unknown) => boolean = () => false,
  ) {
    this.reader = stream.getReader();
  }

  /**
   * At least `n` bytes from the current position (all that is left when the stream is shorter), not consumed.
   * `eof` tells whether the returned bytes are everything that is left.
   */
  async peek(n: number): Promise<{ bytes: Uint8Array; eof: boolean }> {
    while (this.bufferedBytes < n && !this.ended) {
      const chunk = await this.pull();
      if (chunk === undefined) break;
      this.buffered.push(chunk);
      this.bufferedBytes += chunk.length;
    }
    if (this.buffered.length > 1) this.buffered = [concatBytes(this.buffered, this.bufferedBytes)];
    return { bytes: this.buffered[0] ?? new Uint8Array(0), eof: this.ended };
  }

  /**
   * From now on the caller keeps no chunk past the next `read`: a buffer `sliceStream` read is freed once `read` has
   * handed out the last of it (`freeBuffer`).
   */
  freeUsed(): void {
    this.freeing = true;
  }

  /** The next chunk (at most MAX_CHUNK bytes), or undefined at the end. */
  async read(): Promise<Uint8Array | undefined> {
    const chunk = await this.next();
    if (this.freeing) {
      const buffer = chunk?.buffer ?? null;
      if (this.lastBuffer !== null && this.lastBuffer !== buffer && OWNED.has(this.lastBuffer)) freeBuffer(this.lastBuffer);
      this.lastBuffer = buffer;
    }
    return chunk;
  }

  private async next(): Promise<Uint8Array | undefined> {
    let chunk = this.buffered.shift();
    if (chunk !== undefined) {
      this.bufferedBytes -= chunk.length;
    } else {
      chunk = this.ended ? undefined : await this.pull();
      if (chunk === undefined) return undefined;
    }
    if (chunk.length > MAX_CHUNK) {
      const rest = chunk.subarray(MAX_CHUNK);
      this.buffered.unshift(rest);
      this.bufferedBytes += rest.length;
      chunk = chunk.subarray(0, MAX_CHUNK);
    }
    this.consumed += chunk.length;
    return chunk;
  }

  /** Everything that is left, in one array. */
  async readAll(): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (let c = await this.read(); c !== undefined; c = await this.read()) {
      chunks.push(c);
      total += c.length;
    }
    return concatBytes(chunks, total);
  }

  /** The rest of the bytes as a ReadableStream (e.g. to pipe through a DecompressionStream). */
  toStream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const chunk = await this.read();
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
      cancel: () => this.cancel(),
    });
  }

  async cancel(): Promise<void> {
    this.ended = true;
    this.buffered = [];
    this.bufferedBytes = 0;
    await this.reader.cancel().catch(() => undefined);
  }

  private async pull(): Promise<Uint8Array | undefined> {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await this.reader.read();
    } catch (e) {
      this.ended = true;
      if (this.produced > 0 && this.endsEarly(e)) {
        this.truncated = e instanceof Error ? e.message : String(e);
        return undefined;
      }
      throw this.mapError(e);
    }
    if (result.done) {
      this.ended = true;
      return undefined;
    }
    this.produced += result.value.length;
    return result.value;
  }
}

function concatBytes(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
