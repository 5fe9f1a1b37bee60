import { describe, expect, it } from 'vitest';
import { argsort, finitePairs, rank } from './ranks';

function rand(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('argsort (radix) and rank', () => {
  it('matches a stable comparator sort on mixed signs, -0, duplicates and extreme magnitudes', () => {
    const r = rand(3);
    const pool = [0, -0, 1, -1, 0.1, -0.1, 1e-300, -1e-300, 5e-324, 1e300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE, 2, 2.5];
    const v = Float64Array.from({ length: 5000 }, () => (r() < 0.5 ? pool[Math.floor(r() * pool.length)] : (r() - 0.5) * 10 ** Math.floor(r() * 20 - 10)));
    const got = argsort(v);
    const want = Array.from({ length: v.length }, (_, i) => i).sort((a, b) => v[a] - v[b] || (Object.is(v[a], -0) && Object.is(v[b], 0) ? -1 : Object.is(v[a], 0) && Object.is(v[b], -0) ? 1 : a - b));
    expect(Array.from(got)).toEqual(want);
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

  it('finitePairs keeps rows where both sides are finite', () => {
    const p = finitePairs([1, NaN, 3, Infinity], [1, 2, 3, 4]);
    expect(Array.from(p.rows)).toEqual([0, 2]);
    expect(() => finitePairs([1], [1, 2])).toThrow('columns differ in length (1 vs 2)');
  });
});
