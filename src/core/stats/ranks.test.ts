import { describe, expect, it } from 'vitest';
import { argsort, averageRanks, finitePairs, rank, sortFloat64 } from './ranks';

function rand(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('argsort (radix) and rank', () => {
  it('matches a stable comparator sort on mixed signs, -0, duplicates and extreme magnitudes', () => {
    const r = rand(3);
    const pool = [0, -0, 1, -1, 0.1, -0.1, 1e-300, -1e-300, 5e-324, 1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE, 2, 2.5];
    // 5,000: 11-bit digits; 70,000: 16-bit digits.
    for (const n of [5000, 70_000]) {
      const v = Float64Array.from({ length: n }, () => (r() < 0.5 ? pool[Math.floor(r() * pool.length)] : (r() - 0.5) * 10 ** Math.floor(r() * 20 - 10)));
      const got = argsort(v);
      const want = Array.from({ length: v.length }, (_, i) => i).sort(
        (a, b) => v[a] - v[b] || (Object.is(v[a], -0) && Object.is(v[b], 0) ? -1 : Object.is(v[a], 0) && Object.is(v[b], -0) ? 1 : a - b),
      );
      expect(Array.from(got)).toEqual(want);
    }
  });

  it('sortFloat64 gives the built-in typed-array sort, bit for bit: signs, -0, NaN, infinities, subnormals', () => {
    const r = rand(7);
    const pool = [
      0,
      -0,
      1,
      -1,
      0.1,
      -0.1,
      1e-300,
      -1e-300,
      5e-324,
      -5e-324,
      1e300,
      -1e300,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Infinity,
      -Infinity,
      NaN,
      2,
      2.5,
    ];
    const same = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
    for (const n of [0, 1, 2, 511, 512, 4095, 4096, 4097, 65_535, 65_536, 100_000]) {
      const v = Float64Array.from({ length: n }, () => (r() < 0.5 ? pool[Math.floor(r() * pool.length)] : (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20)));
      const want = v.slice().sort();
      const copy = v.slice();
      expect(sortFloat64(copy)).toBe(copy); // in place
      expect(same(copy, want)).toBe(true);
    }
    // Hand-checked small case through the radix path (4,096 values): -Infinity, -1, -0 × 2, 0 × 2, 1 × 4,089, NaN.
    const v = new Float64Array(4096).fill(1);
    v.set([NaN, 0, -0, -1, -Infinity, 0, -0]);
    const got = sortFloat64(v);
    expect(Array.from(got.subarray(0, 6))).toEqual([-Infinity, -1, -0, -0, 0, 0]);
    expect(Object.is(got[2], -0) && Object.is(got[3], -0) && Object.is(got[4], 0)).toBe(true);
    expect(got[4094]).toBe(1);
    expect(got[4095]).toBeNaN();
    // A subarray is sorted where it lies, the rest untouched; 0/1 rewards (radix passes skipped), both digit widths.
    for (const m of [5000, 70_000]) {
      const big = Float64Array.from({ length: m + 2000 }, (_, i) => (i * 7919) % 2);
      const mid = big.subarray(1000, 1000 + m);
      sortFloat64(mid);
      expect(Array.from(big.subarray(1000, 1000 + m / 2)).every((x) => x === 0)).toBe(true);
      expect(Array.from(big.subarray(1000 + m / 2, 1000 + m)).every((x) => x === 1)).toBe(true);
      expect(big[999]).toBe((999 * 7919) % 2);
      expect(big[1000 + m]).toBe(((1000 + m) * 7919) % 2);
    }
  });

  it('is stable for equal keys (large input takes the radix path)', () => {
    const v = Float64Array.from({ length: 2000 }, (_, i) => i % 3);
    const got = Array.from(argsort(v));
    expect(got.slice(0, 3)).toEqual([0, 3, 6]);
    expect(got.slice(-2)).toEqual([1994, 1997]); // the 2s: rows 2, 5, …, 1997
  });

  it('average and dense ranks (scipy rankdata "average" / "dense" − 1)', () => {
    const r = rank(Float64Array.from([10, 20, 20, 5, 20, -0, 0]));
    expect(Array.from(r.average)).toEqual([4, 6, 6, 3, 6, 1.5, 1.5]);
    expect(Array.from(r.dense)).toEqual([2, 3, 3, 1, 3, 0, 0]);
    expect(r.distinct).toBe(4);
    expect(rank(new Float64Array(0)).distinct).toBe(0);
  });

  it('averageRanks counts a column of integers in a small span; any other column takes rank().average', () => {
    // 1,000 values i % 4: 250 of each, so ranks 1–250 average 125.5, then 375.5, 625.5, 875.5 (worked by hand).
    const four = Float64Array.from({ length: 1000 }, (_, i) => i % 4);
    expect(Array.from(averageRanks(four).subarray(0, 5))).toEqual([125.5, 375.5, 625.5, 875.5, 125.5]);
    // Negative integers: 600 values (i % 3) − 1, 200 of each of −1, 0, 1.
    const three = Float64Array.from({ length: 600 }, (_, i) => (i % 3) - 1);
    expect(Array.from(averageRanks(three).subarray(0, 3))).toEqual([100.5, 300.5, 500.5]);
    // 0/1 rewards with one −0 (counting cannot keep it apart; rank() ties it with +0): 300 zeros, 300 ones.
    const signed = Float64Array.from({ length: 600 }, (_, i) => i % 2);
    signed[2] = -0;
    expect(Array.from(averageRanks(signed).subarray(0, 3))).toEqual([150.5, 450.5, 150.5]);
    // Against rank(): integers near and past the span limit (4 per value), fractions, a wide range, under 512 values.
    const r = rand(11);
    for (const [n, make] of [
      [5000, () => Math.floor(r() * 20_000) - 3] as const, // span ~20,000 ≤ 4n: counted
      [5000, () => Math.floor(r() * 40_000)] as const, // span ~40,000 > 4n: ranked by argsort
      [5000, () => Math.floor(r() * 50) + 0.5] as const,
      [3000, () => Math.floor(r() * 2 ** 40)] as const,
      [511, () => Math.floor(r() * 5)] as const,
    ]) {
      const v = Float64Array.from({ length: n }, make);
      expect(Array.from(averageRanks(v))).toEqual(Array.from(rank(v).average));
    }
  });

  it('sortFloat64 counts a column of integers in a small span, and gives the built-in sort', () => {
    const r = rand(5);
    for (const n of [4096, 10_000, 100_000]) {
      const v = Float64Array.from({ length: n }, () => Math.floor(r() * 3 * n) - n);
      const want = v.slice().sort();
      expect(Array.from(sortFloat64(v))).toEqual(Array.from(want));
    }
    // Lengths 0…3 over 4,100 values (worked by hand: 1,025 of each, ascending).
    const lengths = Float64Array.from({ length: 4100 }, (_, i) => 3 - (i % 4));
    const sorted = sortFloat64(lengths);
    expect([sorted[0], sorted[1024], sorted[1025], sorted[2050], sorted[3075], sorted[4099]]).toEqual([0, 0, 1, 2, 3, 3]);
    // −0 among integers: not counted, so it still sorts before +0 as the built-in sort puts it.
    const zeros = Float64Array.from({ length: 4096 }, (_, i) => i % 2);
    zeros[4095] = -0;
    const got = sortFloat64(zeros);
    expect(Object.is(got[0], -0) && Object.is(got[1], 0)).toBe(true);
  });

  it('finitePairs keeps rows where both sides are finite', () => {
    const p = finitePairs([1, NaN, 3, Infinity], [1, 2, 3, 4]);
    expect(Array.from(p.rows)).toEqual([0, 2]);
    expect(() => finitePairs([1], [1, 2])).toThrow('columns differ in length (1 vs 2)');
  });
});
