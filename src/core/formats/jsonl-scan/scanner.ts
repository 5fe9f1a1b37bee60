/**
 * The JSONL line scanner: a small WebAssembly module (scan.as.ts, AssemblyScript with SIMD) that walks the raw
 * bytes of JSONL lines, validates each line as JSON and reports, per top-level field of an object, its key, type and
 * byte span, with the UTF-16 length and preview end of strings and the value of numbers. A large import reads only
 * what it needs from those spans (see dataset/scanJsonl.ts), instead of decoding the whole file to a string and
 * building every record with JSON.parse. Lines the scanner cannot answer for exactly are marked for JSON.parse.
 *
 * `LineScanner` holds the module's memory: an output area, then the input area, which grows with the longest
 * run of bytes fed to it (a line longer than a read is carried over until its end arrives).
 */
import { SCAN_WASM_BASE64 } from './scan.wasm';
import { compileBase64Wasm } from '../../wasm';

/** Line status. */
export const BLANK = 0;
export const FIELDS = 1;
export const PARSE = 2;

/** Value types. */
export const T_STRING = 1;
export const T_NUMBER = 2;
export const T_TRUE = 3;
export const T_FALSE = 4;
export const T_NULL = 5;
export const T_OBJECT = 6;
export const T_ARRAY = 7;

/** Field flags. */
export const F_ESCAPE = 1;
export const F_INEXACT = 2;
/** A preview-key string whose preview has a UTF-16 unit above 0xFF. */
export const F_WIDE = 8;

/** Words per line header and per field in the output. */
export const HEADER_WORDS = 4;
export const FIELD_WORDS = 8;

interface ScanExports {
  memory: WebAssembly.Memory;
  heapStart(): number;
  reset(): void;
  keys(): number;
  keyOffset(id: number): number;
  keyLength(id: number): number;
  written(): number;
  internKey(p: number, n: number): number;
  setPreview(key: number, area: number, capacity: number): void;
  scan(input: number, length: number, output: number, capacity: number, preview: number): number;
}

let compiled: Promise<WebAssembly.Module> | undefined;

/** ASCII strings up to this many units are made from their bytes (`shortTextAt`). */
const SHORT_TEXT = 32;

/** Word offset of the line after the scanned line at word `r` (a blank line, or one left to JSON.parse, has no fields). */
export function nextLine(i32: Int32Array, r: number): number {
  const status = i32[r + 2];
  return r + HEADER_WORDS + (status === PARSE || status === BLANK ? 0 : i32[r + 3] * FIELD_WORDS);
}

/** Output area: room for many lines per call (a line with the most fields takes 516 words). */
const OUTPUT_WORDS = 1 << 18;
/** Preview area: UTF-16 units of the previews of one scan call. */
const PREVIEW_AREA_UNITS = 1 << 19;
/** Bytes readable after the input (the scanner loads 16 bytes at a time). */
const PADDING = 64;
const PAGE = 65536;

/** The lines of one scan call, to be read by the caller before the next one. */
export interface ScannedLines {
  /** Output words (`i32`) and the same memory as `f64` (field values), bytes (the input) and `u16` (previews). */
  i32: Int32Array;
  f64: Float64Array;
  bytes: Uint8Array;
  u16: Uint16Array;
  /** Index in `u16` of the preview area (field word 7 of a preview-key string is relative to it). */
  previewBase: number;
  /** Word offset of the first record in `i32` and the end of the records. */
  first: number;
  end: number;
  /** Byte offset in `bytes` that the records' offsets are relative to, and its offset in the stream. */
  base: number;
  streamBase: number;
}

export class LineScanner {
  private readonly w: ScanExports;
  private readonly output: number;
  private readonly previews: number;
  private readonly input: number;
  /** Bytes held in the input area (the start of an unfinished line), and the stream offset of the first. */
  private held = 0;
  private heldFrom = 0;
  private keyNames: string[] = [];
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  private constructor(
    instance: WebAssembly.Instance,
    private readonly preview: number,
  ) {
    this.w = instance.exports as unknown as ScanExports;
    this.output = (this.w.heapStart() + 15) & ~15;
    this.previews = this.output + OUTPUT_WORDS * 4;
    this.input = this.previews + PREVIEW_AREA_UNITS * 2;
    this.ensure(this.input + (1 << 20)); // the scanner's own tables lie below `output`
    this.w.reset();
  }

  /** A scanner whose string previews stop at `preview` UTF-16 units. */
  static async create(preview: number): Promise<LineScanner> {
    compiled ??= compileBase64Wasm(SCAN_WASM_BASE64);
    const instance = await WebAssembly.instantiate(await compiled, {
      env: {
        abort: () => {
          throw new Error('jsonl scanner: abort');
        },
      },
    });
    return new LineScanner(instance, preview);
  }

  /**
   * Have the first `preview` UTF-16 units of key `name`'s string values written, unescaped, to the preview area
   * (field word 7). Call before feeding.
   */
  previewKey(name: string): void {
    const key = new TextEncoder().encode(name);
    new Uint8Array(this.w.memory.buffer).set(key, this.input);
    const id = this.w.internKey(this.input, key.length);
    if (id >= 0) this.w.setPreview(id, this.previews, PREVIEW_AREA_UNITS);
  }

  /** Key names by id (the scanner numbers keys in first-seen order). */
  get keys(): readonly string[] {
    const n = this.w.keys();
    if (n > this.keyNames.length) {
      const bytes = new Uint8Array(this.w.memory.buffer);
      for (let id = this.keyNames.length; id < n; id++) {
        const at = this.w.keyOffset(id);
        this.keyNames.push(this.decoder.decode(bytes.subarray(at, at + this.w.keyLength(id))));
      }
    }
    return this.keyNames;
  }

  /**
   * Feed the next bytes of the stream (`last`: they end it) and scan every line they complete, calling `take` with
   * each batch of scanned lines. `chunk` is copied; the start of a line it leaves unfinished is held for the next.
   */
  feed(chunk: Uint8Array, streamOffset: number, last: boolean, take: (lines: ScannedLines) => void): void {
    if (this.held === 0) this.heldFrom = streamOffset;
    const total = this.held + chunk.length;
    this.ensure(this.input + total + 1 + PADDING);
    let bytes = new Uint8Array(this.w.memory.buffer);
    bytes.set(chunk, this.input + this.held);
    // The held bytes have no newline (every line they started was scanned): look in the new bytes only.
    const nl = bytes.subarray(this.input + this.held, this.input + total).lastIndexOf(10);
    let complete = nl < 0 ? 0 : this.held + nl + 1;
    if (last && complete < total) {
      bytes[this.input + total] = 10; // the last line has no newline: a stand-in, at the stream's end offset
      complete = total + 1;
    }
    let done = 0;
    while (done < complete) {
      const used = this.w.scan(this.input + done, complete - done, this.output, OUTPUT_WORDS, this.preview);
      const buffer = this.w.memory.buffer;
      take({
        i32: new Int32Array(buffer),
        f64: new Float64Array(buffer, 0, buffer.byteLength >> 3),
        bytes: (bytes = new Uint8Array(buffer)),
        u16: new Uint16Array(buffer, 0, buffer.byteLength >> 1),
        previewBase: this.previews >> 1,
        first: this.output >> 2,
        end: (this.output >> 2) + this.w.written(),
        base: this.input + done,
        streamBase: this.heldFrom + done,
      });
      done += used;
    }
    const rest = Math.max(0, total - done);
    if (rest > 0) bytes.copyWithin(this.input, this.input + done, this.input + total);
    this.heldFrom += done;
    this.held = rest;
  }

  /** A string value's text: `start`..`end` spans it with its quotes. */
  text(bytes: Uint8Array, start: number, end: number, flags: number): string {
    if ((flags & F_ESCAPE) === 0) return this.decoder.decode(bytes.subarray(start + 1, end - 1));
    return JSON.parse(this.decoder.decode(bytes.subarray(start, end))) as string;
  }

  /** Any bytes as text (a line the caller parses itself, a number's digits). */
  decode(bytes: Uint8Array, start: number, end: number): string {
    return this.decoder.decode(bytes.subarray(start, end));
  }

  // Readers of one field of a scanned line (`f`: the word offset of its field words), as JSON.parse gives its value.

  /** A number field's value. */
  numberAt(s: ScannedLines, f: number): number {
    const { i32 } = s;
    return (i32[f + 5] & F_INEXACT) === 0 ? s.f64[(f + 6) >> 1] : Number(this.decode(s.bytes, s.base + i32[f + 2], s.base + i32[f + 3]));
  }

  /** A string field's text. */
  textAt(s: ScannedLines, f: number): string {
    return this.text(s.bytes, s.base + s.i32[f + 2], s.base + s.i32[f + 3], s.i32[f + 5]);
  }

  /**
   * A string field's text; a short ASCII one (no escape, one byte per unit) is made from its bytes: in Chromium a
   * TextDecoder call costs ~1.8 µs, four times this, and a GRPO dump has one new group key per group.
   */
  shortTextAt(s: ScannedLines, f: number): string {
    const { i32 } = s;
    const a = s.base + i32[f + 2];
    const n = s.base + i32[f + 3] - a;
    const units = i32[f + 4];
    if ((i32[f + 5] & F_ESCAPE) === 0 && units === n - 2 && units <= SHORT_TEXT) {
      return String.fromCharCode.apply(null, s.bytes.subarray(a + 1, a + n - 1) as unknown as number[]);
    }
    return this.textAt(s, f);
  }

  /** A number's or a literal's value; undefined for strings, lists and objects. */
  literalAt(s: ScannedLines, f: number): unknown {
    switch (s.i32[f + 1]) {
      case T_NUMBER:
        return this.numberAt(s, f);
      case T_TRUE:
        return true;
      case T_FALSE:
        return false;
      case T_NULL:
        return null;
      default:
        return undefined;
    }
  }

  /** Any field's value (a list or an object parsed from its bytes). */
  valueAt(s: ScannedLines, f: number): unknown {
    const type = s.i32[f + 1];
    if (type === T_STRING) return this.shortTextAt(s, f);
    if (type === T_OBJECT || type === T_ARRAY) return JSON.parse(this.decode(s.bytes, s.base + s.i32[f + 2], s.base + s.i32[f + 3]));
    return this.literalAt(s, f);
  }

  private ensure(bytes: number): void {
    const have = this.w.memory.buffer.byteLength;
    if (bytes > have) this.w.memory.grow(Math.ceil((Math.max(bytes, have * 1.25) - have) / PAGE));
  }
}
