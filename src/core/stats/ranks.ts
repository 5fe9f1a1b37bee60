/**
 * Shared building blocks for the statistics in this folder: finite pairs, ranks, sorted look-ups.
 * O(n) radix sorts on the numbers' bits for large columns (no comparator callbacks on hot paths).
 */

/** Throws when two aligned columns differ in length: that is a programming error, never a data condition. */
export function checkSameLength(what: string, a: ArrayLike<number>, b: ArrayLike<number>): void {
  if (a.length !== b.length) throw new RangeError(`${what}: columns differ in length (${a.length} vs ${b.length})`);
}

/** The rows where both x and y are finite, with their values, in row order. */
export interface FinitePairs {
  rows: Int32Array;
  x: Float64Array;
  y: Float64Array;
}

export function finitePairs(x: ArrayLike<number>, y: ArrayLike<number>, what = 'pairs'): FinitePairs {
  checkSameLength(what, x, y);
  const n = x.length;
  const rows = new Int32Array(n);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const a = x[i];
    const b = y[i];
    if (Number.isFinite(a) && Number.isFinite(b)) {
      rows[k] = i;
      xs[k] = a;
      ys[k] = b;
      k++;
    }
  }
  return { rows: rows.subarray(0, k), x: xs.subarray(0, k), y: ys.subarray(0, k) };
}

/** First index in ascending `sorted` whose value is not below v. */
export function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Ascending copy (finite input assumed). */
export function sortedCopy(values: Float64Array): Float64Array {
  return sortFloat64(Float64Array.from(values));
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The IEEE-754 bits of each value mapped to unsigned 64-bit keys (high and low words) that order as the numbers do:
 * negative values have every bit flipped, the others their sign bit set. −0 gets the key just below +0's; a NaN gets
 * the largest key (after +Infinity, where TypedArray sort puts it).
 */
function orderedKeys(values: Float64Array): { hi: Uint32Array; lo: Uint32Array } {
  const n = values.length;
  const bits = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  const L = LITTLE_ENDIAN ? 0 : 1;
  for (let i = 0; i < n; i++) {
    let h = bits[2 * i + 1 - L];
    let l = bits[2 * i + L];
    if (values[i] !== values[i]) {
      h = 0xffffffff;
      l = 0xffffffff;
    } else if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    hi[i] = h;
    lo[i] = l;
  }
  return { hi, lo };
}

/**
 * From this many values on, a column of integers within a span of at most 4 per value (0/1 rewards, lengths in
 * characters) is sorted and ranked by counting: a pass to count, one to place. A report's first sorts and ranks of
 * 100,000 such values ran before V8 had optimised the radix passes, ~70 ms of a CLI run's ~100 ms report.
 */
const COUNT_FROM = 512;

/** The least value and the span of a column of integers that counting suits; null for any other column (−0 included). */
function integerSpan(values: Float64Array): { min: number; span: number } | null {
  const n = values.length;
  if (n < COUNT_FROM) return null;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    // NaN and ±Infinity fail the first test, fractions the second; −0 must sort before +0, which counting cannot keep.
    if (v - v !== 0 || v !== Math.floor(v) || (v === 0 && 1 / v < 0)) return null;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max - min + 1;
  return span <= 4 * n ? { min, span } : null;
}

/** How many values equal min + k, for each k < span. */
function countsOf(values: Float64Array, min: number, span: number): Int32Array {
  const count = new Int32Array(span);
  for (let i = 0; i < values.length; i++) count[values[i] - min]++;
  return count;
}

/**
 * 1-based ranks of finite values, ties given the average of the ranks they span: `rank(values).average`
 * (`scipy.stats.rankdata(method="average")`), by counting for a column of integers within a small span.
 */
export function averageRanks(values: Float64Array): Float64Array {
  const c = integerSpan(values);
  if (c === null) return rank(values).average;
  const { min, span } = c;
  const count = countsOf(values, min, span);
  // The m values equal to min + k take ranks below + 1 … below + m, whose mean is below + (m + 1) / 2.
  const avg = new Float64Array(span);
  let below = 0;
  for (let k = 0; k < span; k++) {
    const m = count[k];
    avg[k] = below + (m + 1) / 2;
    below += m;
  }
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = avg[values[i] - min];
  return out;
}

/** Below this many values `sortFloat64` takes the built-in sort: a radix pass's counts cost more than the values. */
const BUILTIN_SORT_BELOW = 4096;

/**
 * The digits of a radix sort of n 64-bit keys, low to high: [word (0 low, 1 high), shift, width]. 16-bit digits (4
 * passes) from 65,536 keys on; 11-bit ones (6 passes) below, where clearing and summing 65,536 counts per pass cost
 * more than the keys: 1,000 values took 0.2–0.3 ms, and Over steps sorts one column per step (bench/README.md).
 */
function digits(n: number): ReadonlyArray<readonly [number, number, number]> {
  return n >= 1 << 16 ? DIGITS_16 : DIGITS_11;
}
const DIGITS_16 = [
  [0, 0, 16],
  [0, 16, 16],
  [1, 0, 16],
  [1, 16, 16],
] as const;
const DIGITS_11 = [
  [0, 0, 11],
  [0, 11, 11],
  [0, 22, 10],
  [1, 0, 11],
  [1, 11, 11],
  [1, 22, 10],
] as const;

/**
 * Stable argsort of finite values, ascending: the row order that sorts `values`, equal values kept in row order.
 * LSD radix sort on the IEEE-754 bits mapped to an unsigned order (`digits`), O(n); a comparator sort below 512
 * values. −0 sorts just before +0 (they compare equal, so callers that walk runs with === see one run).
 */
export function argsort(values: Float64Array): Int32Array {
  const n = values.length;
  let idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  if (n < 512) return idx.sort((a, b) => values[a] - values[b] || a - b);
  const { hi, lo } = orderedKeys(values);
  let tmp = new Int32Array(n);
  const digit = new Uint16Array(n); // this pass's digit of each row, read back in the current order
  const plan = digits(n);
  const count = new Int32Array((1 << plan[0][2]) + 1);
  for (const [w, shift, width] of plan) {
    const word = w === 0 ? lo : hi;
    const mask = (1 << width) - 1;
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const d = (word[i] >>> shift) & mask;
      digit[i] = d;
      count[d + 1]++;
    }
    if (count[digit[0] + 1] === n) continue; // every key shares this digit
    for (let d = 0; d < mask; d++) count[d + 1] += count[d];
    for (let i = 0; i < n; i++) {
      const r = idx[i];
      tmp[count[digit[r]]++] = r;
    }
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  return idx;
}

/**
 * Sort `values` ascending in place and return it: the order of `Float64Array.prototype.sort()` (−0 before +0, NaN
 * last), by the same radix passes as `argsort` from 4,096 values on. In Chromium the built-in sort took 14–38 ms for
 * 100,000 values, and a run's statistics sort several such columns on the page's thread; below 4,096 it is faster.
 * A column of integers within a small span is sorted by counting (`integerSpan`).
 */
export function sortFloat64(values: Float64Array): Float64Array {
  const n = values.length;
  if (n < BUILTIN_SORT_BELOW) return values.sort();
  const c = integerSpan(values);
  if (c !== null) {
    const count = countsOf(values, c.min, c.span);
    let at = 0;
    for (let k = 0; k < c.span; k++) {
      if (count[k] === 0) continue;
      values.fill(c.min + k, at, at + count[k]);
      at += count[k];
    }
    return values;
  }
  const keys = orderedKeys(values);
  let hi: Uint32Array = keys.hi;
  let lo: Uint32Array = keys.lo;
  let hi2: Uint32Array = new Uint32Array(n);
  let lo2: Uint32Array = new Uint32Array(n);
  const plan = digits(n);
  const count = new Int32Array((1 << plan[0][2]) + 1);
  for (const [w, shift, width] of plan) {
    const word = w === 0 ? lo : hi;
    const mask = (1 << width) - 1;
    count.fill(0);
    for (let i = 0; i < n; i++) count[((word[i] >>> shift) & mask) + 1]++;
    if (count[((word[0] >>> shift) & mask) + 1] === n) continue; // every key shares this digit
    for (let d = 0; d < mask; d++) count[d + 1] += count[d];
    for (let i = 0; i < n; i++) {
      const at = count[(word[i] >>> shift) & mask]++;
      hi2[at] = hi[i];
      lo2[at] = lo[i];
    }
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
  }
  // Back from keys to the numbers' bits.
  const bits = new Uint32Array(values.buffer, values.byteOffset, 2 * n);
  const L = LITTLE_ENDIAN ? 0 : 1;
  for (let i = 0; i < n; i++) {
    const h = hi[i];
    if (h & 0x80000000) {
      bits[2 * i + 1 - L] = h & 0x7fffffff;
      bits[2 * i + L] = lo[i];
    } else {
      bits[2 * i + 1 - L] = ~h >>> 0;
      bits[2 * i + L] = ~lo[i] >>> 0;
    }
  }
  return values;
}

/** Everything a rank statistic needs from one argsort. */
export interface Ranking {
  /** Stable ascending argsort. */
  order: Int32Array;
  /** 1-based ranks, ties given the average of the ranks they span (`scipy.stats.rankdata(method="average")`). */
  average: Float64Array;
  /** 0-based dense ranks: equal values share a rank, ranks are consecutive. */
  dense: Int32Array;
  /** Number of distinct values. */
  distinct: number;
}

/** Ranks of finite values. O(n) after the O(n) radix argsort. */
export function rank(values: Float64Array): Ranking {
  const order = argsort(values);
  const n = values.length;
  const average = new Float64Array(n);
  const dense = new Int32Array(n);
  let d = 0;
  for (let i = 0; i < n;) {
    let j = i;
    const v = values[order[i]];
    while (j + 1 < n && values[order[j + 1]] === v) j++;
    // sorted positions i..j (0-based) are ranks i+1..j+1; their mean is (i + j) / 2 + 1.
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) {
      average[order[k]] = avg;
      dense[order[k]] = d;
    }
    d++;
    i = j + 1;
  }
  return { order, average, dense, distinct: d };
}

/** Is every value equal to the first? (Exact test: a mean-based variance can be a rounding crumb instead of 0.) */
export function isConstant(values: Float64Array): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}
