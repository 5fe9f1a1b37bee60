/**
 * Shared building blocks for the statistics in this folder: finite pairs, ranks, sorted look-ups.
 * All O(n log n) and built on native typed-array sorts (no comparator callbacks on hot paths).
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
  return Float64Array.from(values).sort();
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Stable argsort of finite values, ascending: the row order that sorts `values`, equal values kept in row order.
 * LSD radix sort (4 passes of 16 bits) on the IEEE-754 bits mapped to an unsigned order, O(n); a comparator sort
 * below 512 values. −0 sorts just before +0 (they compare equal, so callers that walk runs with === see one run).
 */
export function argsort(values: Float64Array): Int32Array {
  const n = values.length;
  let idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  if (n < 512) return idx.sort((a, b) => values[a] - values[b] || a - b);
  const bits = new Uint32Array(Float64Array.from(values).buffer);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  const L = LITTLE_ENDIAN ? 0 : 1;
  for (let i = 0; i < n; i++) {
    let h = bits[2 * i + 1 - L];
    let l = bits[2 * i + L];
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    hi[i] = h;
    lo[i] = l;
  }
  let tmp = new Int32Array(n);
  const digit = new Uint16Array(n); // this pass's digit of each row, read back in the current order
  const count = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const d = (word[i] >>> shift) & 0xffff;
      digit[i] = d;
      count[d + 1]++;
    }
    if (count[digit[0] + 1] === n) continue; // every key shares this digit
    for (let d = 0; d < 65536; d++) count[d + 1] += count[d];
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
  for (let i = 0; i < n; ) {
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
