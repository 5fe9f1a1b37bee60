/**
 * A file on disk as a Blob whose reads are positioned `fs` reads, one per slice. Node's own file Blob
 * (`fs.openAsBlob`) streams through 64 KiB chunks, promises and copies: 91 MB took ~200 ms there against ~25 ms by
 * whole-slice reads (bench/README, session 29), on the CLI worker's critical path. Like Node's, a read fails once the
 * file has changed since it was opened (size or modification time), rather than mixing two versions of it.
 */
import { open, stat } from 'node:fs/promises';

interface Stamp {
  size: number;
  mtimeMs: number;
}

/** Bytes per pull of a stream read without a buffer of the reader's own. */
const CHUNK = 1 << 20;

class FileBlob extends Blob {
  readonly #path: string;
  readonly #stamp: Stamp;
  readonly #start: number;
  readonly #end: number;

  // Every read goes through the methods below: the Blob underneath is empty (so a structured clone of this is too;
  // the CLI passes paths between threads, never these).
  constructor(path: string, stamp: Stamp, start: number, end: number) {
    super([]);
    this.#path = path;
    this.#stamp = stamp;
    this.#start = start;
    this.#end = end;
  }

  override get size(): number {
    return this.#end - this.#start;
  }

  override slice(start?: number, end?: number): Blob {
    // As the File API says: WebIDL's [Clamp] long long (NaN is 0, halves round to even), negatives from the end.
    const at = (x: number | undefined, d: number) => {
      if (x === undefined) return d;
      const i = Number.isNaN(x) ? 0 : Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x);
      return i < 0 ? Math.max(this.size + i, 0) : Math.min(i, this.size);
    };
    const a = at(start, 0);
    const b = Math.max(a, at(end, this.size));
    return new FileBlob(this.#path, this.#stamp, this.#start + a, this.#start + b);
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    const buffer = new ArrayBuffer(this.size);
    await this.#readInto(new Uint8Array(buffer), this.#start);
    return buffer;
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  /** A byte stream: a BYOB reader's view is filled by one read (`readSlice` reads a whole slice so). */
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    let at = this.#start;
    const end = this.#end;
    return new ReadableStream({
      type: 'bytes',
      autoAllocateChunkSize: CHUNK,
      pull: async (controller: ReadableByteStreamController) => {
        const req = controller.byobRequest;
        if (at >= end) {
          controller.close();
          req?.respond(0);
          return;
        }
        if (!req?.view) return; // never, with autoAllocateChunkSize: every pull has a view to fill
        const view = new Uint8Array(req.view.buffer, req.view.byteOffset, Math.min(req.view.byteLength, end - at));
        const from = at;
        at += view.length;
        await this.#readInto(view, from);
        req.respond(view.length);
      },
    });
  }

  /**
   * Fill `into` from file position `at`, or throw when the file is not the one opened. Asynchronous (one read on
   * libuv's threads): the thread parses the slice before while it is read, and other work (Pyodide's start) runs.
   */
  async #readInto(into: Uint8Array, at: number): Promise<void> {
    if (into.length === 0) return;
    const file = await open(this.#path, 'r');
    try {
      const now = await file.stat();
      if (now.size !== this.#stamp.size || now.mtimeMs !== this.#stamp.mtimeMs) throw changed();
      let done = 0;
      while (done < into.length) {
        const { bytesRead } = await file.read(into, done, into.length - done, at + done);
        if (bytesRead === 0) throw changed();
        done += bytesRead;
      }
    } finally {
      await file.close();
    }
  }
}

const changed = () => new DOMException('The file could not be read: it changed on disk after it was opened.', 'NotReadableError');

/** `path` as a Blob read by positioned reads (see above). Throws as `openAsBlob` does when it cannot be read. */
export async function openFile(path: string): Promise<Blob> {
  const s = await stat(path);
  if (!s.isFile()) throw new Error(`${path} is not a file`);
  return new FileBlob(path, { size: s.size, mtimeMs: s.mtimeMs }, 0, s.size);
}
