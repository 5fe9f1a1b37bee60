/**
 * A file on disk as a Blob whose reads are plain positioned `fs` reads. Node's own file Blob (`fs.openAsBlob`) streams
 * through 64 KiB chunks, promises and copies: 91 MB took ~200 ms there against ~25 ms by `readSync` (bench/README,
 * session 29), on the CLI worker's critical path. Like Node's, a read fails once the file has changed since it was
 * opened (size or modification time), rather than mixing two versions of it.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

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
    this.#readInto(new Uint8Array(buffer), this.#start);
    return buffer;
  }

  override async text(): Promise<string> {
    return new TextDecoder().decode(await this.arrayBuffer());
  }

  /** A byte stream: a BYOB reader's view is filled by one `readSync` (`readSlice` reads a whole slice so). */
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    let at = this.#start;
    const end = this.#end;
    return new ReadableStream({
      type: 'bytes',
      autoAllocateChunkSize: CHUNK,
      pull: (controller: ReadableByteStreamController) => {
        const req = controller.byobRequest;
        if (at >= end || req === null || req.view === null) {
          if (at >= end) {
            controller.close();
            req?.respond(0);
          }
          return;
        }
        const view = new Uint8Array(req.view.buffer, req.view.byteOffset, Math.min(req.view.byteLength, end - at));
        this.#readInto(view, at);
        at += view.length;
        req.respond(view.length);
      },
    });
  }

  /** Fill `into` from file position `at`, or throw when the file is not the one opened. */
  #readInto(into: Uint8Array, at: number): void {
    if (into.length === 0) return;
    const fd = openSync(this.#path, 'r');
    try {
      const now = fstatSync(fd);
      if (now.size !== this.#stamp.size || now.mtimeMs !== this.#stamp.mtimeMs) throw changed();
      let done = 0;
      while (done < into.length) {
        const n = readSync(fd, into, done, into.length - done, at + done);
        if (n === 0) throw changed();
        done += n;
      }
    } finally {
      closeSync(fd);
    }
  }
}

const changed = () => new DOMException('The file could not be read: it changed on disk after it was opened.', 'NotReadableError');

/** `path` as a Blob read by positioned reads (see above). Throws as `openAsBlob` does when it cannot be read. */
export function openFile(path: string): Promise<Blob> {
  try {
    const s = statSync(path);
    if (!s.isFile()) return Promise.reject(new Error(`${path} is not a file`));
    return Promise.resolve(new FileBlob(path, { size: s.size, mtimeMs: s.mtimeMs }, 0, s.size));
  } catch (e) {
    return Promise.reject(e);
  }
}
