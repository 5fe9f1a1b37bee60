/**
 * Rows for Python in CPython's `marshal` format (version 2 codes: no back-references), written in JS and read with
 * one `marshal.loads` in Pyodide: 3–5× cheaper there than `json.loads` of the same rows' JSON (strings arrive as
 * UTF-8 with their length, nothing to unescape). Values come out in Python exactly as `json.loads(JSON.stringify(v))`
 * would give them (marshal.test.ts checks it): `toJSON`, bigints (as numbers, as strings past 2^53), typed arrays as
 * lists, NaN/±Infinity as None, integral numbers below 1e21 as int and others as float, undefined/functions dropped
 * from objects and None in arrays, lone surrogates kept (marshal reads UTF-8 with "surrogatepass").
 */

const enc = new TextEncoder();
/** Strings shorter than this are tried as ASCII first (keys, labels, numbers as text). */
const SHORT = 64;
const hasWellFormed = typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string): boolean => (hasWellFormed ? (s as unknown as { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(s));

const isPlainObject = (v: object): boolean => {
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
};

/** The value JSON.stringify (with runPython's replacer) would serialize, as a primitive, array or plain object; `undefined` when it would be skipped. */
export function jsonValue(v: unknown): unknown {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (typeof v !== 'object') return undefined; // undefined, functions, symbols
  if (Array.isArray(v) && !('toJSON' in v)) return v;
  if (isPlainObject(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') return v;
  // Anything else (Date, typed arrays, boxed primitives, class instances...): let JSON decide.
  const text = JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'bigint') return Number.isSafeInteger(Number(x)) ? Number(x) : x.toString();
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return Array.from(x as unknown as ArrayLike<number>);
    return x;
  });
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** Whether a value (after `jsonValue`) arrives in Python as a mutable container (list or dict). */
export const isContainer = (v: unknown): boolean => typeof v === 'object' && v !== null;

export class MarshalWriter {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  /** `scratch`: a buffer to write into (a previous writer's `buf`, whose bytes are no longer needed), else a new one. */
  constructor(scratch?: Uint8Array) {
    this.buf = scratch ?? new Uint8Array(1 << 16);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  int32(n: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, n, true);
    this.pos += 4;
  }

  /** Start a list or tuple of `n` items ('[' or '('). */
  seq(code: '[' | '(', n: number): void {
    this.byte(code.charCodeAt(0));
    this.int32(n);
  }

  /** Start a `bytes` object whose content is written next; returns the position to pass to `endBytes`. */
  beginBytes(): number {
    this.byte(0x73); // 's'
    this.int32(0);
    return this.pos;
  }

  endBytes(at: number): void {
    this.view.setInt32(at - 4, this.pos - at, true);
  }

  str(s: string): void {
    this.ensure(5 + s.length * 3);
    const at = this.pos;
    this.pos += 5;
    // encodeInto writes a lone surrogate as U+FFFD: a string that did not encode to one byte per character (so it
    // is not ASCII) and is not well-formed is written again, keeping its surrogates. ASCII text is scanned once.
    let written = s.length < SHORT ? this.ascii(s) : -1;
    if (written < 0) written = enc.encodeInto(s, this.buf.subarray(this.pos)).written;
    if (written !== s.length && !wellFormed(s)) written = this.wtf8(s);
    // ASCII ('a') when every character took one byte, else UTF-8 ('u').
    this.buf[at] = written === s.length ? 0x61 : 0x75;
    this.view.setInt32(at + 1, written, true);
    this.pos += written;
  }

  /** A short string copied byte by byte when it is ASCII (cheaper than a call to encodeInto); -1 when it is not. */
  private ascii(s: string): number {
    const b = this.buf;
    const p = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return -1;
      b[p + i] = c;
    }
    return s.length;
  }

  /** UTF-8 with lone surrogates as 3-byte sequences (what Python's "surrogatepass" reads back). */
  private wtf8(s: string): number {
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c < 0x80) b[p++] = c;
      else if (c < 0x800) {
        b[p++] = 0xc0 | (c >> 6);
        b[p++] = 0x80 | (c & 63);
      } else if (c < 0x10000) {
        b[p++] = 0xe0 | (c >> 12);
        b[p++] = 0x80 | ((c >> 6) & 63);
        b[p++] = 0x80 | (c & 63);
      } else {
        b[p++] = 0xf0 | (c >> 18);
        b[p++] = 0x80 | ((c >> 12) & 63);
        b[p++] = 0x80 | ((c >> 6) & 63);
        b[p++] = 0x80 | (c & 63);
      }
    }
    return p - this.pos;
  }

  number(v: number): void {
    if (Number.isInteger(v) && Math.abs(v) < 1e21) {
      if (v >= -0x80000000 && v <= 0x7fffffff) {
        this.byte(0x69); // 'i'
        this.int32(v | 0);
        return;
      }
      // 'l': signed count of 15-bit digits, least significant first. The value JSON's text names (its shortest
      // decimal form, not the double's exact value past 2^53).
      let m = BigInt(String(Math.abs(v)));
      const digits: number[] = [];
      while (m > 0n) {
        digits.push(Number(m & 0x7fffn));
        m >>= 15n;
      }
      this.byte(0x6c);
      this.int32(v < 0 ? -digits.length : digits.length);
      this.ensure(digits.length * 2);
      for (const d of digits) {
        this.view.setUint16(this.pos, d, true);
        this.pos += 2;
      }
      return;
    }
    this.byte(0x67); // 'g': binary float
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** Any value, as json.loads(JSON.stringify(value)) gives it (`undefined` at the top: None). */
  value(raw: unknown): void {
    const v = jsonValue(raw);
    if (v === null || v === undefined)
      this.byte(0x4e); // 'N'
    else if (typeof v === 'string') this.str(v);
    else if (typeof v === 'number') this.number(v);
    else if (typeof v === 'boolean') this.byte(v ? 0x54 : 0x46);
    else if (Array.isArray(v)) {
      this.seq('[', v.length);
      for (const x of v) this.value(x);
    } else {
      this.byte(0x7b); // '{'
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        const x = jsonValue(o[k]);
        if (x === undefined) continue;
        this.str(k);
        this.value(x);
      }
      this.byte(0x30); // '0': end of dict
    }
  }

  /** Bytes already in marshal format, as they are. */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** One value in marshal format (tests). */
export function marshalValue(v: unknown): Uint8Array {
  const w = new MarshalWriter();
  w.value(v);
  return w.bytes();
}
