// AssemblyScript source of the text search's line test (compiled to find.wasm.ts by scripts/build-wasm.mjs; not
// part of the TypeScript project). See searchBytes.ts for what it is for.
//
// find() reads rows of raw JSONL bytes, each given by its start and end offset, and writes one byte of flags per row:
//   1: the row's bytes hold the needle, ASCII letters in either case;
//   2: an escape `\u`, 4: an escape `\/`, 8: an escaped backslash `\\` (escapes are read as JSON reads them: the
//      second backslash of `\\` starts nothing);
//   32 (when `arrays` is set): a `[`, which every list the record may hold starts with;
//   16 (when `numbers` is set): a run like a number (`-` or a digit after none of `0-9 . e E + -`, then those) that
//      holds a digit and is not an integer `String()` writes back as it is (`-?[1-9]\d{0,14}` or `0`).
// A row whose start equals the previous row's (the rows of one record) gets the previous row's flags.
// The needle is given with its letters in lower case; `anchor` is the index of the needle byte looked for first.
// Flags 1, 16 and 32 end a row's look: it is parsed either way. `options`: 1 numbers, 2 arrays.
// The input must be followed by 16 readable bytes.

export function heapStart(): usize {
  return __heap_base;
}

const MATCH: u8 = 1;
const U: u8 = 2;
const SLASH: u8 = 4;
const BACKSLASH: u8 = 8;
const NUMBER: u8 = 16;
const ARRAY: u8 = 32;

/** Whether b may be part of a number's text. */
@inline
function inRun(b: u32): bool {
  return b - 0x30 < 10 || b == 0x2e || b == 0x65 || b == 0x45 || b == 0x2b || b == 0x2d;
}

/** Whether the run at p (a `-` or a digit first) up to e holds a digit and is not a simple integer. */
function oddNumber(input: usize, p: i32, e: i32): bool {
  let q = p;
  let digits = 0;
  let other = false;
  while (q < e) {
    const b = <u32>load<u8>(input + <usize>q);
    if (!inRun(b)) break;
    if (b - 0x30 < 10) digits++;
    else if (q > p) other = true; // a sign first is the only other byte a simple integer has
    q++;
  }
  if (digits == 0) return false;
  if (other || digits > 15) return true;
  const first = <u32>load<u8>(input + <usize>(load<u8>(input + <usize>p) == 0x2d ? p + 1 : p));
  // 0 alone is simple; -0 and leading zeros are not.
  return first == 0x30 && (digits > 1 || load<u8>(input + <usize>p) == 0x2d);
}

@inline
function lower(b: u32): u32 {
  return b - 0x41 < 26 ? b | 0x20 : b;
}

/** Whether the needle's `m` bytes (lower case) are at p. */
@inline
function holds(p: usize, needle: usize, m: i32): bool {
  for (let i = 0; i < m; i++) if (lower(<u32>load<u8>(p + <usize>i)) != <u32>load<u8>(needle + <usize>i)) return false;
  return true;
}

/** The flags of the bytes [s, e) of `input`. */
function flagsOf(input: usize, s: i32, e: i32, needle: usize, m: i32, anchor: i32, numbers: bool, arrays: bool): u8 {
  const a = <u32>load<u8>(needle + <usize>anchor);
  const upper = a - 0x61 < 26 ? a & 0xdf : a;
  const va = i8x16.splat(<i8>a);
  const vu = i8x16.splat(<i8>upper);
  const vb = i8x16.splat(0x5c);
  const v0 = i8x16.splat(0x30);
  const v9 = i8x16.splat(0x39);
  const vminus = i8x16.splat(0x2d);
  const vbracket = i8x16.splat(0x5b);
  let flags: u8 = 0;
  // A backslash before `from` is the second of `\\`: it starts no escape.
  let from = s;
  for (let i = s; i < e; i += 16) {
    const v = v128.load(input + <usize>i);
    let found = v128.or(v128.or(i8x16.eq(v, va), i8x16.eq(v, vu)), i8x16.eq(v, vb));
    if (numbers) found = v128.or(found, v128.or(v128.and(i8x16.ge_u(v, v0), i8x16.le_u(v, v9)), i8x16.eq(v, vminus)));
    let bits = i8x16.bitmask(found);
    const tail = e - i < 16 ? (1 << (e - i)) - 1 : 0xffff;
    bits &= tail;
    if (arrays && (i8x16.bitmask(i8x16.eq(v, vbracket)) & tail) != 0) return flags | ARRAY;
    while (bits != 0) {
      const p = i + ctz(bits);
      bits &= bits - 1;
      if (load<u8>(input + <usize>p) == 0x5c) {
        if (p < from) continue;
        const next = p + 1 < e ? <u32>load<u8>(input + <usize>(p + 1)) : 0;
        if (next == 0x75) flags |= U;
        else if (next == 0x2f) flags |= SLASH;
        else if (next == 0x5c) {
          flags |= BACKSLASH;
          from = p + 2;
        }
        continue;
      }
      const b = <u32>load<u8>(input + <usize>p);
      if (numbers && (b - 0x30 < 10 || b == 0x2d) && (p == s || !inRun(<u32>load<u8>(input + <usize>(p - 1)))) && oddNumber(input, p, e))
        return flags | NUMBER;
      if (lower(b) != a) continue;
      // The anchor (the needle holds no backslash), also where it is an escape's letter (`\n`): raw text, as the
      // plain test of the decoded line reads it.
      const start = p - anchor;
      if (start >= s && start + m <= e && holds(input + <usize>start, needle, m)) return flags | MATCH;
    }
  }
  return flags;
}

/**
 * Flags for `n` rows: row k is the bytes [load<i32>(rows + 8k), load<i32>(rows + 8k + 4)) of `input`; its flags are
 * written to out + k.
 */
export function find(input: usize, rows: usize, n: i32, needle: usize, m: i32, anchor: i32, options: i32, out: usize): void {
  let lastStart = -1;
  let last: u8 = 0;
  for (let k = 0; k < n; k++) {
    const s = load<i32>(rows + (<usize>k << 3));
    const e = load<i32>(rows + (<usize>k << 3) + 4);
    if (s != lastStart) {
      last = flagsOf(input, s, e, needle, m, anchor, (options & 1) != 0, (options & 2) != 0);
      lastStart = s;
    }
    store<u8>(out + <usize>k, last);
  }
}
