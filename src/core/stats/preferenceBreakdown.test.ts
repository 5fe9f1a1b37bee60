import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import { PairSide, pairOutcomes, Outcome } from './preference';
import { accuracyByKey, wilsonInterval, wrongPairs, Z95 } from './preferenceBreakdown';

// [k, n, low, high] from scripts/wilson-fixtures.py (an independent Python implementation, z from NormalDist).
const WILSON: [number, number, number, number][] = [
  [0, 3, 0.0, 0.5614970317550454],
  [1, 3, 0.06149194472039624, 0.7923403991979524],
  [2, 3, 0.20765960080204776, 0.9385080552796038],
  [3, 3, 0.43850296824495466, 1.0],
  [3, 6, 0.18761630648265057, 0.8123836935173494],
  [1, 1, 0.2065493143772375, 1.0],
  [50, 100, 0.4038315303659957, 0.5961684696340043],
  [812, 1000, 0.7866068125887822, 0.8350052901162316],
  [7, 2000, 0.0016964316970424183, 0.007207196253241744],
];

describe('wilsonInterval', () => {
  it('matches the Python reference', () => {
    for (const [k, n, lo, hi] of WILSON) {
      const [a, b] = wilsonInterval(k, n);
      expect(a).toBeCloseTo(lo, 12);
      expect(b).toBeCloseTo(hi, 12);
    }
  });

  it('has the closed forms at k = 0 and k = n, worked by hand', () => {
    // k = 0: low = 0, high = z² / (n + z²); k = n: low = n / (n + z²), high = 1. z² = 3.841458820694124.
    const z2 = Z95 * Z95;
    expect(z2).toBeCloseTo(3.841458820694124, 12);
    expect(wilsonInterval(0, 3)).toEqual([0, expect.closeTo(3.841458820694124 / 6.841458820694124, 12)]);
    expect(wilsonInterval(3, 3)[0]).toBeCloseTo(3 / 6.841458820694124, 12);
    expect(wilsonInterval(3, 3)[1]).toBe(1);
  });

  it('is NaN without trials or with impossible counts', () => {
    expect(wilsonInterval(0, 0)).toEqual([NaN, NaN]);
    expect(wilsonInterval(4, 3)).toEqual([NaN, NaN]);
    expect(wilsonInterval(-1, 3)).toEqual([NaN, NaN]);
  });
});

const { Ok, Null } = RowStatus;
const C = PairSide.Chosen;
const R = PairSide.Rejected;

// Six pairs, two rows each (chosen, rejected), scores by hand:
//   p0 3 vs 1 correct (margin −2)   p1 1 vs 4 wrong (margin 3)   p2 2 vs 2 tie
//   p3 0 vs 5 wrong (margin 5)      p4 5 vs null → unscored      p5 1 vs 2 wrong (margin 1)
const scores = Float64Array.from([3, 1, 1, 4, 2, 2, 0, 5, 5, NaN, 1, 2]);
const status = Uint8Array.from([Ok, Ok, Ok, Ok, Ok, Ok, Ok, Ok, Ok, Null, Ok, Ok]);
const pairs = {
  pairOf: Int32Array.from([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]),
  side: Uint8Array.from([C, R, C, R, C, R, C, R, C, R, C, R]),
  pairCount: 6,
};

describe('accuracyByKey', () => {
  it('counts per key with ties in the denominator and a Wilson interval', () => {
    const { outcome } = pairOutcomes(scores, status, pairs);
    expect(Array.from(outcome)).toEqual([Outcome.Correct, Outcome.Wrong, Outcome.Tie, Outcome.Wrong, Outcome.Skipped, Outcome.Wrong]);
    // model a: p0, p2, p4 → correct 1, tie 1, unscored 1: accuracy 1 / 2. model b: p1, p3, p5 → 0 / 3.
    // model c has no pair: no row. Key −1 (p? none here) would be left out.
    const rows = accuracyByKey(outcome, Int32Array.from([0, 1, 0, 1, 0, 1]), ['a', 'b', 'c']);
    expect(rows.map((r) => [r.key, r.pairs, r.used, r.correct, r.ties, r.wrong, r.unscored, r.accuracy])).toEqual([
      ['a', 3, 2, 1, 1, 0, 1, 0.5],
      ['b', 3, 3, 0, 0, 3, 0, 0],
    ]);
    // Wilson(1, 2) by hand: p = 1/2, centre = 1/2; half = z/(1 + z²/2) · √(1/8 + z²/16)
    //   = 1.959964 / 2.920729 · √(0.125 + 0.240091) = 0.671052 · 0.604228 = 0.405468 → [0.094532, 0.905468].
    expect(rows[0].low).toBeCloseTo(0.094532, 5);
    expect(rows[0].high).toBeCloseTo(0.905468, 5);
    expect([rows[1].low, rows[1].high]).toEqual([0, expect.closeTo(0.5614970317550454, 12)]);
  });

  it('leaves out pairs whose key is out of range and refuses misaligned keys', () => {
    const { outcome } = pairOutcomes(scores, status, pairs);
    const rows = accuracyByKey(outcome, Int32Array.from([0, -1, 0, 7, 0, -1]), ['a']);
    expect(rows.map((r) => [r.key, r.pairs])).toEqual([['a', 3]]);
    expect(() => accuracyByKey(outcome, new Int32Array(5), ['a'])).toThrow(RangeError);
  });
});

describe('wrongPairs', () => {
  it('lists the wrong pairs by margin, worst first', () => {
    // Wrong: p1 (4 − 1 = 3), p3 (5 − 0 = 5), p5 (2 − 1 = 1) → p3, p1, p5.
    expect(Array.from(wrongPairs(pairOutcomes(scores, status, pairs)))).toEqual([3, 1, 5]);
  });

  it('keeps pair order for equal margins, and is empty when nothing is wrong', () => {
    const s = Float64Array.from([0, 1, 5, 6]);
    const two = { pairOf: Int32Array.from([0, 0, 1, 1]), side: Uint8Array.from([C, R, C, R]), pairCount: 2 };
    expect(Array.from(wrongPairs(pairOutcomes(s, new Uint8Array(4).fill(Ok), two)))).toEqual([0, 1]);
    expect(Array.from(wrongPairs(pairOutcomes(Float64Array.from([1, 0, 1, 0]), new Uint8Array(4).fill(Ok), two)))).toEqual([]);
  });
});
