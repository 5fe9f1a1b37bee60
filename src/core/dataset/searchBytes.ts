/**
 * The text search's line test on raw bytes, for a needle of ASCII characters: a small WebAssembly module
 * (find.as.ts, AssemblyScript with SIMD) looks through each row's line for the needle, ASCII letters in either case,
 * and for the escapes that may hide it, without decoding the bytes to a string. At a million rows, decoding
 * (~0.5 s) and a regex over the text (~0.3 s) were most of a search's own work.
 */
import { FIND_WASM_BASE64 } from './find.wasm';
import { compileBase64Wasm } from '../wasm';

/** Flags find() writes per row. */
export const MATCH = 1;
export const U = 2;
export const SLASH = 4;
export const BACKSLASH = 8;
export const NUMBER = 16;
export const ARRAY = 32;

interface FindExports {
  memory: WebAssembly.Memory;
  heapStart(): number;
  find(input: number, rows: number, n: number, needle: number, m: number, anchor: number, options: number, out: number): void;
}

let compiled: Promise<WebAssembly.Module> | undefined;

const PAGE = 65536;
/** Bytes readable after the input (the module loads 16 bytes at a time). */
const PADDING = 16;

/** English letters from the most to the least frequent: the needle byte looked for first is the rarest. */
const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';

/** An ASCII unit with its letters in lower case (as find() compares the needle's bytes). */
export const fold = (u: number) => (u >= 0x41 && u <= 0x5a ? u | 0x20 : u);

/** How common a byte (letters in lower case) is in text, higher for rarer (a rough order: the anchor only makes the search faster). */
function rarity(b: number): number {
  if (b === 0x20) return 0;
  const letter = LETTERS.indexOf(String.fromCharCode(b));
  if (letter >= 0) return 10 + letter;
  if (b >= 0x30 && b <= 0x39) return 20;
  return 30;
}

/** A needle as find() takes it: its bytes with letters in lower case, and the index of its rarest byte. */
export interface ByteNeedle {
  bytes: Uint8Array;
  anchor: number;
}

/** The needle (as a line writes it) for find(), or null when it is only backslashes (the module looks for a byte of
 * text first, and a backslash starts an escape). */
export function byteNeedle(written: string): ByteNeedle | null {
  const bytes = new Uint8Array(written.length);
  let anchor = -1;
  for (let i = 0; i < written.length; i++) {
    const c = written.charCodeAt(i);
    bytes[i] = fold(c);
    if (c !== 0x5c && (anchor < 0 || rarity(bytes[i]) > rarity(bytes[anchor]))) anchor = i;
  }
  return anchor < 0 ? null : { bytes, anchor };
}

export class ByteFinder {
  private readonly w: FindExports;
  private readonly base: number;

  private constructor(instance: WebAssembly.Instance) {
    this.w = instance.exports as unknown as FindExports;
    this.base = (this.w.heapStart() + 15) & ~15;
  }

  static async create(): Promise<ByteFinder> {
    compiled ??= compileBase64Wasm(FIND_WASM_BASE64);
    return new ByteFinder(await WebAssembly.instantiate(await compiled, { env: { abort: () => undefined } }));
  }

  /**
   * Flags (MATCH, U, SLASH, BACKSLASH; NUMBER with `numbers`, ARRAY with `arrays`) of each row: row k is bytes
   * [starts[k], ends[k]) of `bytes`. NUMBER: the line holds a number-like run other than an integer String() writes
   * back as it is; ARRAY: it holds a `[`.
   */
  flags(bytes: Uint8Array, starts: Int32Array, ends: Int32Array, needle: ByteNeedle, { numbers = false, arrays = false } = {}): Uint8Array {
    const n = starts.length;
    const m = needle.bytes.length;
    const needleAt = this.base;
    const rowsAt = (needleAt + m + 15) & ~15;
    const outAt = rowsAt + 8 * n;
    const inputAt = (outAt + n + 15) & ~15;
    const end = inputAt + bytes.length + PADDING;
    const memory = this.w.memory;
    if (end > memory.buffer.byteLength) memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE));
    const u8 = new Uint8Array(memory.buffer);
    u8.set(needle.bytes, needleAt);
    u8.set(bytes, inputAt);
    const rows = new Int32Array(memory.buffer, rowsAt, 2 * n);
    for (let k = 0; k < n; k++) {
      rows[2 * k] = starts[k];
      rows[2 * k + 1] = ends[k];
    }
    this.w.find(inputAt, rowsAt, n, needleAt, m, needle.anchor, (numbers ? 1 : 0) | (arrays ? 2 : 0), outAt);
    return new Uint8Array(memory.buffer, outAt, n).slice();
  }
}
