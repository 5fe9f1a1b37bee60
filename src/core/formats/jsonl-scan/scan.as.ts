// AssemblyScript source of the JSONL line scanner (compiled to scan.wasm.ts by scripts/build-wasm.mjs; not part of
// the TypeScript project). See scanner.ts for what it is for and how its output is read.
//
// scan() walks complete lines of JSONL bytes and, for every line, writes one record to the output:
//
//   header (4 × i32): line start, line end (the offset of its '\n'), status, number of fields
//     status 0: blank (only spaces, tabs and CRs); 1: a JSON object this scanner fully validated, fields follow;
//     2: anything else (invalid JSON, not an object, or something the caller must parse itself: see below)
//   per field (8 × i32): key id, value type, value start, value end, UTF-16 length (strings), flags (F_WIDE: the
//     preview holds a unit above 0xFF),
//     then either the preview end and, for the preview key's strings, where their UTF-16 preview starts in the
//     preview area (strings: 2 × i32), or the value (numbers, f64 over the last two words)
//
// The preview key (setPreview) is the completion column: the first `preview` UTF-16 units of its string values are
// written, unescaped, to the preview area as UTF-16 (one more unit when a surrogate pair straddles the end).
//
// A line gets status 2, to be parsed by JSON.parse in the caller, when it is not valid JSON, is not an object, or
// when this scanner cannot give exactly what JSON.parse would: a key with an escape or invalid UTF-8, a key that
// looks like an array index (JavaScript orders those first), a key seen twice, a top-level string with invalid
// UTF-8, more than MAX_FIELDS keys, more distinct keys than the key table holds, or nesting deeper than MAX_DEPTH.
//
// Offsets are relative to the input pointer. The input must end with '\n' and be followed by 16 readable bytes.

const MAX_FIELDS: i32 = 64;
const MAX_DEPTH: i32 = 512;
const RECORD_WORDS: i32 = 4 + 8 * MAX_FIELDS;

const T_STRING: i32 = 1;
const T_NUMBER: i32 = 2;
const T_TRUE: i32 = 3;
const T_FALSE: i32 = 4;
const T_NULL: i32 = 5;
const T_OBJECT: i32 = 6;
const T_ARRAY: i32 = 7;

/** Field flags. */
const F_ESCAPE: i32 = 1; // a string holds at least one escape
const F_INEXACT: i32 = 2; // a number this scanner cannot convert exactly: the caller converts its text
const F_BAD_UTF8: i32 = 4;
const F_WIDE: i32 = 8; // a preview-key string whose preview holds a UTF-16 unit above 0xFF (not Latin-1)

const KEY_CAP: i32 = 1024;
const HASH_SLOTS: i32 = 4096;
const KEY_BYTES: i32 = 1 << 16;

// Tables after the heap base: key metadata (offset, length, stamp, flags per key), the hash table, key bytes,
// the nesting stack, the last object's key ids.
const keyMeta: usize = __heap_base;
const hashTable: usize = keyMeta + <usize>(KEY_CAP * 16);
const keyBytes: usize = hashTable + <usize>(HASH_SLOTS * 4);
const depthStack: usize = keyBytes + <usize>KEY_BYTES;
/** The key ids of the last object's fields, in order (guesses for the next one), −1 where none. */
const lastKeys: usize = (depthStack + <usize>MAX_DEPTH + 3) & ~(<usize>3);
const tablesEnd: usize = (lastKeys + <usize>(MAX_FIELDS * 4) + 15) & ~(<usize>15);

let keyCount: i32 = 0;
let keyBytesUsed: i32 = 0;
let rowSerial: i32 = 0;
let outWords: i32 = 0;
/** The key whose string values get a UTF-16 preview, the preview area and how many units it holds. */
let previewKey: i32 = -1;
let previewArea: usize = 0;
let previewCap: i32 = 0;
let previewUsed: i32 = 0;
/** The last transcode wrote a unit above 0xFF. */
let transcodeWide: bool = false;
/** The offset of the '\n' ending the line `line` just scanned (status 0 and 1). */
let lineEnd: usize = 0;

const POW10 = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]);

/** Where the caller may put its own buffers. */
export function heapStart(): usize {
  return tablesEnd;
}

/** Forget every key (a new import). */
export function reset(): void {
  keyCount = 0;
  keyBytesUsed = 0;
  rowSerial = 0;
  memory.fill(hashTable, 0, <usize>(HASH_SLOTS * 4));
  memory.fill(keyMeta, 0, <usize>(KEY_CAP * 16));
  memory.fill(lastKeys, 0xff, <usize>(MAX_FIELDS * 4));
}

/** Intern a key before scanning (the caller's key names, e.g. the completion column): its id, -1 when unusable. */
export function internKey(p: usize, n: i32): i32 {
  return intern(p, n);
}

/** Write UTF-16 previews of key `key`'s string values to `area` (room for `capacity` units) during each scan. */
export function setPreview(key: i32, area: usize, capacity: i32): void {
  previewKey = key;
  previewArea = area;
  previewCap = capacity;
}

/** Units written to the preview area by the last scan. */
export function previewUnits(): i32 {
  return previewUsed;
}

export function keys(): i32 {
  return keyCount;
}

export function keyOffset(id: i32): usize {
  return keyBytes + <usize>load<i32>(keyMeta + <usize>(id * 16));
}

export function keyLength(id: i32): i32 {
  return load<i32>(keyMeta + <usize>(id * 16) + 4);
}

/** Words written to the output by the last scan. */
export function written(): i32 {
  return outWords;
}

// Scan state of the current top-level string (set by topString).
let sUnits: i32 = 0;
let sFlags: i32 = 0;
let sPreviewEnd: i32 = 0;
// The current number (set by number()).
let nValue: f64 = 0;
let nFlags: i32 = 0;

@inline function isWs(b: i32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0d;
}

@inline function ws(p: usize): usize {
  while (isWs(<i32>load<u8>(p))) p++;
  return p;
}

/** A block of 16 bytes holds a quote, a backslash, a control character or a non-ASCII byte. */
@inline function special16(p: usize): i32 {
  const v = v128.load(p);
  const m = v128.or(v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))), i8x16.lt_s(v, i8x16.splat(0x20)));
  return i8x16.bitmask(m);
}

/** A block of 16 bytes holds a quote, a backslash or a control character (non-ASCII bytes pass). */
@inline function stop16(p: usize): i32 {
  const v = v128.load(p);
  const m = v128.or(v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))), i8x16.lt_u(v, i8x16.splat(0x20)));
  return i8x16.bitmask(m);
}

@inline function isHex(b: i32): bool {
  return (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x66);
}

/** Length of a valid escape at p (p at the backslash), 0 when invalid. */
@inline function escapeLength(p: usize): i32 {
  const e = <i32>load<u8>(p + 1);
  if (e == 0x22 || e == 0x5c || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74) return 2;
  if (e == 0x75 && isHex(<i32>load<u8>(p + 2)) && isHex(<i32>load<u8>(p + 3)) && isHex(<i32>load<u8>(p + 4)) && isHex(<i32>load<u8>(p + 5))) return 6;
  return 0;
}

/**
 * Length of a valid UTF-8 sequence at p (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
 * 0 when invalid.
 */
@inline function utf8Length(p: usize, b: i32): i32 {
  const c1 = <i32>load<u8>(p + 1);
  if (b >= 0xc2 && b <= 0xdf) return (c1 & 0xc0) == 0x80 ? 2 : 0;
  const c2 = <i32>load<u8>(p + 2);
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b == 0xe0 ? 0xa0 : 0x80;
    const hi = b == 0xed ? 0x9f : 0xbf;
    return c1 >= lo && c1 <= hi && (c2 & 0xc0) == 0x80 ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b == 0xf0 ? 0x90 : 0x80;
    const hi = b == 0xf4 ? 0x8f : 0xbf;
    const c3 = <i32>load<u8>(p + 3);
    return c1 >= lo && c1 <= hi && (c2 & 0xc0) == 0x80 && (c3 & 0xc0) == 0x80 ? 4 : 0;
  }
  return 0;
}

/**
 * A top-level string whose opening quote is at p - 1: its UTF-16 length, flags and the end of the first `preview`
 * UTF-16 units (the offset after the character or escape that reaches them) in sUnits / sFlags / sPreviewEnd.
 * Returns the offset of the closing quote, or 0 when the string is invalid JSON.
 */
function topString(p: usize, base: usize, preview: i32): usize {
  let units: i32 = 0;
  let flags: i32 = 0;
  let previewEnd: i32 = -1;
  for (;;) {
    const mask = special16(p);
    if (mask == 0) {
      if (units < preview && units + 16 >= preview) previewEnd = <i32>(p - base) + (preview - units);
      units += 16;
      p += 16;
      continue;
    }
    const skip = ctz(mask);
    if (units < preview && units + skip >= preview) previewEnd = <i32>(p - base) + (preview - units);
    units += skip;
    p += <usize>skip;
    const b = <i32>load<u8>(p);
    let len: i32 = 1;
    let u: i32 = 1;
    if (b == 0x22) break;
    if (b == 0x5c) {
      len = escapeLength(p);
      if (len == 0) return 0;
      flags |= F_ESCAPE;
    } else if (b < 0x20) {
      return 0;
    } else if (b >= 0x80) {
      len = utf8Length(p, b);
      if (len == 0) {
        flags |= F_BAD_UTF8;
        len = 1;
      } else if (len == 4) u = 2;
    }
    p += <usize>len;
    if (units < preview && units + u >= preview) previewEnd = <i32>(p - base);
    units += u;
  }
  sUnits = units;
  sFlags = flags;
  sPreviewEnd = previewEnd < 0 ? <i32>(p - base) : previewEnd;
  return p;
}

@inline function hexValue(b: i32): i32 {
  return b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x57;
}

/**
 * Write the UTF-16 of JSON string content [p, end) (validated by topString: valid escapes, valid UTF-8) to the
 * preview area, unescaped; returns the number of units.
 */
function transcode(p: usize, end: usize): i32 {
  let out = previewArea + (<usize>previewUsed << 1);
  const start = out;
  let wide: i32 = 0;
  while (p < end) {
    if (p + 16 <= end) {
      const v = v128.load(p);
      const m = v128.or(i8x16.eq(v, i8x16.splat(0x5c)), i8x16.lt_s(v, i8x16.splat(0)));
      if (!v128.any_true(m)) {
        v128.store(out, i16x8.extend_low_i8x16_u(v));
        v128.store(out + 16, i16x8.extend_high_i8x16_u(v));
        p += 16;
        out += 32;
        continue;
      }
    }
    const c = <i32>load<u8>(p);
    let unit: i32 = c;
    if (c == 0x5c) {
      const e = <i32>load<u8>(p + 1);
      p += 2;
      if (e == 0x75) {
        unit = (hexValue(<i32>load<u8>(p)) << 12) | (hexValue(<i32>load<u8>(p + 1)) << 8) | (hexValue(<i32>load<u8>(p + 2)) << 4) | hexValue(<i32>load<u8>(p + 3));
        p += 4;
      } else if (e == 0x62) unit = 0x08;
      else if (e == 0x66) unit = 0x0c;
      else if (e == 0x6e) unit = 0x0a;
      else if (e == 0x72) unit = 0x0d;
      else if (e == 0x74) unit = 0x09;
      else unit = e; // " \ /
    } else if (c < 0x80) {
      p++;
    } else if (c < 0xe0) {
      unit = ((c & 0x1f) << 6) | (<i32>load<u8>(p + 1) & 0x3f);
      p += 2;
    } else if (c < 0xf0) {
      unit = ((c & 0x0f) << 12) | ((<i32>load<u8>(p + 1) & 0x3f) << 6) | (<i32>load<u8>(p + 2) & 0x3f);
      p += 3;
    } else {
      const cp = (((c & 0x07) << 18) | ((<i32>load<u8>(p + 1) & 0x3f) << 12) | ((<i32>load<u8>(p + 2) & 0x3f) << 6) | (<i32>load<u8>(p + 3) & 0x3f)) - 0x10000;
      store<u16>(out, <u16>(0xd800 + (cp >> 10)));
      out += 2;
      unit = 0xdc00 + (cp & 0x3ff);
      p += 4;
    }
    wide |= unit;
    store<u16>(out, <u16>unit);
    out += 2;
  }
  transcodeWide = wide > 0xff;
  return <i32>((out - start) >> 1);
}

/** Skip a string inside a container (opening quote at p - 1): the offset after its closing quote, 0 when invalid. */
function skipString(p: usize): usize {
  for (;;) {
    const mask = stop16(p);
    if (mask == 0) {
      p += 16;
      continue;
    }
    p += <usize>ctz(mask);
    const b = <i32>load<u8>(p);
    if (b == 0x22) return p + 1;
    if (b < 0x20) return 0;
    const len = escapeLength(p);
    if (len == 0) return 0;
    p += <usize>len;
  }
  return 0; // not reached (AssemblyScript wants a return after an endless loop)
}

@inline function isDigit(b: i32): bool {
  return b >= 0x30 && b <= 0x39;
}

/**
 * A JSON number at p: the offset after it (0 when invalid), its value in nValue when `convert` and it converts
 * exactly (at most 15 significant digits and a decimal exponent within ±22: one correctly rounded IEEE operation,
 * Clinger's fast path), else F_INEXACT in nFlags.
 */
function number(p: usize, convert: bool): usize {
  let neg = false;
  if (load<u8>(p) == 0x2d) {
    neg = true;
    p++;
  }
  let m: u64 = 0;
  let digits: i32 = 0; // significant digits taken into m
  let exp10: i32 = 0;
  let inexact = false;
  let b = <i32>load<u8>(p);
  if (b == 0x30) {
    p++;
  } else if (b >= 0x31 && b <= 0x39) {
    while (isDigit((b = <i32>load<u8>(p)))) {
      if (digits < 19) {
        m = m * 10 + <u64>(b - 0x30);
        digits++;
      } else {
        inexact = true;
        exp10++;
      }
      p++;
    }
  } else return 0;
  if (load<u8>(p) == 0x2e) {
    p++;
    if (!isDigit(<i32>load<u8>(p))) return 0;
    while (isDigit((b = <i32>load<u8>(p)))) {
      if (m == 0 && b == 0x30) exp10--;
      else if (digits < 19) {
        m = m * 10 + <u64>(b - 0x30);
        digits++;
        exp10--;
      } else inexact = true;
      p++;
    }
  }
  b = <i32>load<u8>(p);
  if (b == 0x65 || b == 0x45) {
    p++;
    let eneg = false;
    b = <i32>load<u8>(p);
    if (b == 0x2b || b == 0x2d) {
      eneg = b == 0x2d;
      p++;
    }
    if (!isDigit(<i32>load<u8>(p))) return 0;
    let e: i32 = 0;
    while (isDigit((b = <i32>load<u8>(p)))) {
      if (e < 100000) e = e * 10 + (b - 0x30);
      p++;
    }
    exp10 += eneg ? -e : e;
  }
  if (convert) {
    nFlags = 0;
    if (m == 0) nValue = 0;
    else if (inexact || digits > 15 || exp10 > 22 || exp10 < -22) {
      nFlags = F_INEXACT;
      nValue = 0;
    } else if (exp10 >= 0) nValue = <f64>m * load<f64>(POW10 + (<usize>exp10 << 3));
    else nValue = <f64>m / load<f64>(POW10 + (<usize>(-exp10) << 3));
    if (neg) nValue = -nValue;
  }
  return p;
}

/** Skip a literal (true, false, null) at p: the offset after it, 0 when it is not that literal. */
@inline function literal(p: usize, b: i32): usize {
  if (b == 0x74) return load<u32>(p) == 0x65757274 ? p + 4 : 0; // "true"
  if (b == 0x6e) return load<u32>(p) == 0x6c6c756e ? p + 4 : 0; // "null"
  return load<u32>(p) == 0x736c6166 && load<u8>(p + 4) == 0x65 ? p + 5 : 0; // "false"
}

/** From a member's key (p at its opening quote) to its value: the value's offset, 0 when invalid. */
@inline function memberValue(p: usize): usize {
  if (load<u8>(p) != 0x22) return 0;
  p = skipString(p + 1);
  if (p == 0) return 0;
  p = ws(p);
  if (load<u8>(p) != 0x3a) return 0;
  return ws(p + 1);
}

/** Result of skipContainer when nesting is too deep for this scanner (the line goes to JSON.parse). */
const TOO_DEEP: usize = 1;

/**
 * Skip (and validate) an object or array whose opening bracket is at p: the offset after its closing bracket, 0
 * when invalid, TOO_DEEP when nested deeper than MAX_DEPTH.
 */
function skipContainer(p: usize): usize {
  let depth: i32 = 0;
  // Each iteration starts at a value (or, after an opening bracket, at its first member or closing bracket).
  for (;;) {
    let b = <i32>load<u8>(p);
    if (b == 0x7b || b == 0x5b) {
      if (depth == MAX_DEPTH) return TOO_DEEP;
      store<u8>(depthStack + <usize>depth, <u8>b);
      depth++;
      p = ws(p + 1);
      const c = <i32>load<u8>(p);
      if (c == (b == 0x7b ? 0x7d : 0x5d)) {
        depth--; // empty: on to what follows it
        p++;
      } else if (b == 0x7b) {
        p = memberValue(p);
        if (p == 0) return 0;
        continue;
      } else continue; // at the array's first value
    } else if (b == 0x22) {
      p = skipString(p + 1);
      if (p == 0) return 0;
    } else if (b == 0x2d || isDigit(b)) {
      p = number(p, false);
      if (p == 0) return 0;
    } else if (b == 0x74 || b == 0x66 || b == 0x6e) {
      p = literal(p, b);
      if (p == 0) return 0;
    } else return 0;
    // After a value: commas and closing brackets until the next value or the end of the outermost container.
    for (;;) {
      if (depth == 0) return p;
      p = ws(p);
      b = <i32>load<u8>(p);
      const open = <i32>load<u8>(depthStack + <usize>(depth - 1));
      if (b == 0x2c) {
        p = ws(p + 1);
        if (open == 0x7b) {
          p = memberValue(p);
          if (p == 0) return 0;
        }
        break; // at the next value
      }
      if ((open == 0x7b && b == 0x7d) || (open == 0x5b && b == 0x5d)) {
        depth--;
        p++;
        continue;
      }
      return 0;
    }
  }
  return 0; // not reached
}

/**
 * The id of the key in [p, p + n), interned on first sight; -1 when it cannot be used (an array-index-like key,
 * or the key table is full).
 */
function intern(p: usize, n: i32): i32 {
  let h: u32 = 2166136261;
  for (let i: i32 = 0; i < n; i++) h = (h ^ <u32>load<u8>(p + <usize>i)) * 16777619;
  let slot = <i32>(h & <u32>(HASH_SLOTS - 1));
  for (;;) {
    const entry = load<i32>(hashTable + <usize>(slot * 4));
    if (entry == 0) break;
    const id = entry - 1;
    const meta = keyMeta + <usize>(id * 16);
    if (load<i32>(meta + 4) == n && memory.compare(keyBytes + <usize>load<i32>(meta), p, <usize>n) == 0) {
      return load<i32>(meta + 12) != 0 ? -1 : id;
    }
    slot = (slot + 1) & (HASH_SLOTS - 1);
  }
  if (keyCount == KEY_CAP || keyBytesUsed + n > KEY_BYTES) return -1;
  const id = keyCount++;
  const meta = keyMeta + <usize>(id * 16);
  memory.copy(keyBytes + <usize>keyBytesUsed, p, <usize>n);
  store<i32>(meta, keyBytesUsed);
  store<i32>(meta + 4, n);
  store<i32>(meta + 8, -1);
  store<i32>(meta + 12, indexLike(p, n) ? 1 : 0);
  keyBytesUsed += n;
  store<i32>(hashTable + <usize>(slot * 4), id + 1);
  return load<i32>(meta + 12) != 0 ? -1 : id;
}

/** "0", or digits without a leading zero below 2^32 - 1: JavaScript lists such keys first, in numeric order. */
function indexLike(p: usize, n: i32): bool {
  if (n == 0 || n > 10) return false;
  let v: u64 = 0;
  for (let i: i32 = 0; i < n; i++) {
    const b = <i32>load<u8>(p + <usize>i);
    if (!isDigit(b)) return false;
    v = v * 10 + <u64>(b - 0x30);
  }
  if (n > 1 && load<u8>(p) == 0x30) return false;
  return v < 4294967295;
}

/** Scan one line at p into the record at out (its fields and field count): the line's status. */
function line(p: usize, base: usize, out: usize, preview: i32): i32 {
  p = ws(p);
  let b = <i32>load<u8>(p);
  if (b == 0x0a) {
    lineEnd = p;
    return 0;
  }
  if (b != 0x7b) return 2;
  rowSerial++;
  let fields: i32 = 0;
  p = ws(p + 1);
  if (load<u8>(p) == 0x7d) p++;
  else
    for (;;) {
      if (load<u8>(p) != 0x22) return 2;
      const keyStart = p + 1;
      p = topString(keyStart, base, 0);
      if (p == 0 || sFlags != 0) return 2;
      // Rows of a file usually have the same keys in the same order: try the key the previous row had here first.
      const n = <i32>(p - keyStart);
      const guess = load<i32>(lastKeys + <usize>(fields << 2));
      let key: i32 = -1;
      if (guess >= 0) {
        const gm = keyMeta + <usize>(guess * 16);
        if (load<i32>(gm + 4) == n && memory.compare(keyBytes + <usize>load<i32>(gm), keyStart, <usize>n) == 0) key = guess;
      }
      if (key < 0) key = intern(keyStart, n);
      if (key < 0) return 2;
      store<i32>(lastKeys + <usize>(fields << 2), key);
      const meta = keyMeta + <usize>(key * 16);
      if (load<i32>(meta + 8) == rowSerial) return 2; // a key seen twice
      store<i32>(meta + 8, rowSerial);
      if (fields == MAX_FIELDS) return 2;
      p = ws(p + 1);
      if (load<u8>(p) != 0x3a) return 2;
      p = ws(p + 1);
      const f = out + <usize>(16 + fields * 32);
      const start = p;
      b = <i32>load<u8>(p);
      let type: i32 = 0;
      if (b == 0x22) {
        p = topString(p + 1, base, preview);
        if (p == 0 || (sFlags & F_BAD_UTF8) != 0) return 2;
        p++;
        type = T_STRING;
        store<i32>(f + 16, sUnits);
        store<i32>(f + 20, sFlags);
        store<i32>(f + 24, sPreviewEnd);
        if (key == previewKey) {
          store<i32>(f + 28, previewUsed);
          previewUsed += transcode(start + 1, base + <usize>sPreviewEnd);
          if (transcodeWide) store<i32>(f + 20, sFlags | F_WIDE);
        }
      } else if (b == 0x2d || isDigit(b)) {
        p = number(p, true);
        if (p == 0) return 2;
        type = T_NUMBER;
        store<i32>(f + 20, nFlags);
        store<f64>(f + 24, nValue);
      } else if (b == 0x7b || b == 0x5b) {
        p = skipContainer(p);
        if (p <= TOO_DEEP) return 2;
        type = b == 0x7b ? T_OBJECT : T_ARRAY;
      } else if (b == 0x74 || b == 0x66 || b == 0x6e) {
        p = literal(p, b);
        if (p == 0) return 2;
        type = b == 0x74 ? T_TRUE : b == 0x66 ? T_FALSE : T_NULL;
      } else return 2;
      store<i32>(f, key);
      store<i32>(f + 4, type);
      store<i32>(f + 8, <i32>(start - base));
      store<i32>(f + 12, <i32>(p - base));
      fields++;
      p = ws(p);
      b = <i32>load<u8>(p);
      if (b == 0x2c) {
        p = ws(p + 1);
        continue;
      }
      if (b != 0x7d) return 2;
      p++;
      break;
    }
  p = ws(p);
  if (load<u8>(p) != 0x0a) return 2;
  lineEnd = p;
  store<i32>(out + 12, fields);
  return 1;
}

/**
 * Scan the complete lines of [input, input + length) (the last byte is '\n'), writing one record per line at
 * `output`, which holds `capacity` words. Stops early when the output has no room for another line's record.
 * Returns the number of input bytes scanned (whole lines); `written()` tells the words written.
 */
export function scan(input: usize, length: i32, output: usize, capacity: i32, preview: i32): i32 {
  let p = input;
  const end = input + <usize>length;
  let words: i32 = 0;
  previewUsed = 0;
  // Room for another line: its record, and one preview (at most preview + 1 units).
  while (p < end && capacity - words >= RECORD_WORDS && (previewKey < 0 || previewCap - previewUsed > preview)) {
    const out = output + <usize>(words * 4);
    lineEnd = 0;
    let status = line(p, input, out, preview);
    let stop: usize;
    if (status == 2) {
      stop = p;
      while (load<u8>(stop) != 0x0a) stop++;
      store<i32>(out + 12, 0);
    } else stop = lineEnd;
    if (status == 0) store<i32>(out + 12, 0);
    store<i32>(out, <i32>(p - input));
    store<i32>(out + 4, <i32>(stop - input));
    store<i32>(out + 8, status);
    words += 4 + (status == 1 ? 8 * load<i32>(out + 12) : 0);
    p = stop + 1;
  }
  outWords = words;
  return <i32>(p - input);
}
