import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import { diff, f64, i32, type Num } from './fixtures/check';
import fixture from './fixtures/preference.json';
import { bestOfN, mulberry32, PairSide, percentileLinear, preferenceAccuracy, preferencePairs } from './preference';

const OK = RowStatus.Ok;
const { Chosen: C, Rejected: R } = PairSide;
const u8 = (a: readonly number[]) => Uint8Array.from(a);

describe('preference accuracy, hand-worked', () => {
  it('one pair of each kind', () => {
    // pair 0: 2 > 1 correct · pair 1: 1 = 1 tie · pair 2: 0 < 3 wrong · pair 3: rejected NaN → skipped ·
    // pair 4: chosen errored → skipped · pair 5: no rejected row → incomplete. accuracy = 1 / 3 (ties count as used).
    const r = preferenceAccuracy(
      f64([2, 1, 1, 1, 0, 3, 5, null, 4, 1, 7]),
      u8([OK, OK, OK, OK, OK, OK, OK, OK, RowStatus.Error, OK, OK]),
      { pairOf: i32([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5]), side: u8([C, R, C, R, C, R, C, R, C, R, C]), pairCount: 6 },
      { resamples: 0 },
    );
    expect(r).toMatchObject({ pairs: 6, used: 3, correct: 1, ties: 1, wrong: 1, skipped: 2, incomplete: 1 });
    expect(r.accuracy).toBe(1 / 3);
    expect(r.ciLow).toBeNaN();
    expect(r.bySubset).toEqual([]);
  });

  it('RewardBench 2: the chosen must beat all three rejected', () => {
    // pair 0: 5 vs [1, 4, 2] → correct; pair 1: 5 vs [1, 6, 2] → wrong; pair 2: 5 vs [5, 1, 0] → tie.
    const scores = f64([5, 1, 4, 2, 5, 1, 6, 2, 5, 5, 1, 0]);
    const pairOf = i32([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    const side = u8([C, R, R, R, C, R, R, R, C, R, R, R]);
    const pairs = { pairOf, side, pairCount: 3, subsetOf: ['m', 'f', 'm'] };
    const r = preferenceAccuracy(scores, new Uint8Array(12).fill(OK), pairs);
    expect(r).toMatchObject({ used: 3, correct: 1, wrong: 1, ties: 1, accuracy: 1 / 3 });
    expect(r.bySubset.map((s) => [s.subset, s.used, s.correct, s.ties, s.accuracy])).toEqual([
      ['m', 2, 1, 1, 0.5],
      ['f', 1, 0, 0, 0],
    ]);
  });

  it('the bootstrap interval of an all-correct set is [1, 1] and lies around the accuracy', () => {
    const two = { pairOf: i32([0, 0, 1, 1]), side: u8([C, R, C, R]), pairCount: 2 };
    const all = preferenceAccuracy(f64([1, 0, 1, 0]), u8([OK, OK, OK, OK]), two);
    expect([all.ciLow, all.ciHigh]).toEqual([1, 1]);
    const n = 200;
    const scores = new Float64Array(2 * n);
    for (let p = 0; p < n; p++) scores[2 * p] = p % 4 === 0 ? -1 : 1; // 75% correct
    const pairOf = Int32Array.from({ length: 2 * n }, (_, i) => i >> 1);
    const side = Uint8Array.from({ length: 2 * n }, (_, i) => (i % 2 ? R : C));
    const ok = new Uint8Array(2 * n).fill(OK);
    const r = preferenceAccuracy(scores, ok, { pairOf, side, pairCount: n });
    expect(r.accuracy).toBe(0.75);
    expect(r.ciLow).toBeLessThan(0.75);
    expect(r.ciHigh).toBeGreaterThan(0.75);
    expect(r.ciHigh - r.ciLow).toBeGreaterThan(0.08); // ≈ 2·1.96·√(0.75·0.25/200) = 0.12
    expect(r.ciHigh - r.ciLow).toBeLessThan(0.16);
    // reproducible: same seed, same interval; another seed, (almost surely) another interval
    expect(preferenceAccuracy(scores, ok, { pairOf, side, pairCount: n })).toEqual(r);
    expect(preferenceAccuracy(scores, ok, { pairOf, side, pairCount: n }, { seed: 2 }).ciLow).not.toBe(r.ciLow);
  });

  it('preferencePairs builds dense pair indexes from trajectory fields', () => {
    const p = preferencePairs([
      { pairId: '7', preference: 'chosen' },
      { pairId: '7', preference: 'rejected' },
      {},
      { pairId: 'x', preference: 'rejected' },
      { pairId: '7', preference: 'rejected' },
      { pairId: 'x' },
    ]);
    expect(Array.from(p.pairOf)).toEqual([0, 0, -1, 1, 0, -1]);
    expect(Array.from(p.side)).toEqual([C, R, 0, R, R, 0]);
    expect(p.pairCount).toBe(2);
    expect(p.pairIds).toEqual(['7', 'x']);
  });

  it('throws on columns of different lengths or a subset list of the wrong length', () => {
    const pairs = { pairOf: i32([0, 0]), side: u8([C, R]), pairCount: 1 };
    expect(() => preferenceAccuracy(f64([1]), u8([OK]), pairs)).toThrow(RangeError);
    expect(() => preferenceAccuracy(f64([1, 0]), u8([OK, OK]), { ...pairs, subsetOf: [] })).toThrow(RangeError);
  });
});

describe('best-of-N, hand-worked', () => {
  it('scores [3,1,1,0], labels [0,1,1,0]', () => {
    // N = 1: a random row, 2 of 4 correct → 1/2.
    // N = 2: the C(4,2) = 6 pairs: {3,1} {3,1'} {3,0} pick the wrong 3; {1,1'} tie of two correct → 1; {1,0} {1',0}
    //        pick a correct 1 → (0 + 0 + 0 + 1 + 1 + 1) / 6 = 1/2.
    // N = 3: the 4 triples: three contain the 3 (wrong); {1,1',0} picks a correct 1 → 1/4.
    // N = 4: the 3 is always drawn → 0. Baseline = 2/4 at every N.
    const r = bestOfN(f64([3, 1, 1, 0]), u8([OK, OK, OK, OK]), i32([0, 0, 0, 0]), 1, f64([0, 1, 1, 0]));
    expect(r.rows).toBe(4);
    expect(r.groups).toBe(1);
    expect(r.byN.map((p) => [p.n, p.groups, p.accuracy, p.baseline])).toEqual([
      [1, 1, 0.5, 0.5],
      [2, 1, 0.5, 0.5],
      [3, 1, 0.25, 0.5],
      [4, 1, 0, 0.5],
    ]);
  });

  it('a tie at the top is split evenly; groups smaller than N drop out', () => {
    // group 0: scores [2,2,0], labels [1,0,1]. N = 2: {2a,2b} → ½; {2a,0} → 1; {2b,0} → 0 → (½ + 1 + 0)/3 = 1/2.
    //          N = 3: tie {2a,2b} → ½.
    // group 1: one row, label 1 (score 9, also unlabelled and errored rows that are left out): N = 1 only → 1.
    // N = 1: (2/3 + 1)/2 = 5/6, baseline the same; N = 2, 3: group 0 alone → 1/2, baseline 2/3.
    const r = bestOfN(f64([2, 2, 0, 9, 9, 9]), u8([OK, OK, OK, OK, OK, RowStatus.Error]), i32([0, 0, 0, 1, 1, 1]), 2, f64([1, 0, 1, 1, NaN, 0]));
    expect(r.rows).toBe(4);
    expect(r.byN.map((p) => p.groups)).toEqual([2, 1, 1]);
    expect(r.byN[0].accuracy).toBeCloseTo(5 / 6, 15);
    expect(r.byN[0].baseline).toBeCloseTo(5 / 6, 15);
    expect(r.byN[1].accuracy).toBeCloseTo(1 / 2, 15);
    expect(r.byN[2].accuracy).toBeCloseTo(1 / 2, 15);
    expect(r.byN[2].baseline).toBeCloseTo(2 / 3, 15);
  });

  it('no kept row: no points', () => {
    expect(bestOfN(f64([1]), u8([RowStatus.Null]), i32([0]), 1, f64([1]))).toEqual({ rows: 0, groups: 0, byN: [] });
  });
});

describe('mulberry32 and percentiles match the Python reference', () => {
  it('mulberry32 streams', () => {
    const a = mulberry32(1);
    const b = mulberry32(-7);
    expect(fixture.prng.seed1.map(() => a())).toEqual(fixture.prng.seed1);
    expect(fixture.prng.seedMinus7.map(() => b())).toEqual(fixture.prng.seedMinus7);
  });
  it('percentileLinear equals numpy.percentile', () => {
    for (const c of fixture.percentile) {
      const got = c.ps.map((p) => percentileLinear(c.values, p));
      expect(diff(got, c.expected, '$', 0)).toEqual([]);
    }
  });
});

describe('preferenceAccuracy matches the Python reference', () => {
  for (const c of fixture.preference) {
    it(c.name, () => {
      const got = preferenceAccuracy(
        f64(c.scores as Num[]),
        u8(c.status),
        { pairOf: i32(c.pairOf), side: u8(c.side), pairCount: c.pairCount, subsetOf: c.subsetOf ?? undefined },
        { resamples: c.resamples, seed: c.seed },
      );
      expect(diff(got, c.expected)).toEqual([]);
      expect(got.bySubset.length).toBe(c.expected.bySubset.length);
    });
  }
});

describe('bestOfN matches the Python reference (enumeration of all N-subsets; exact sums for large groups)', () => {
  for (const c of fixture.bestOfN) {
    it(c.name, () => {
      const got = bestOfN(f64(c.scores as Num[]), u8(c.status), i32(c.groupOf), c.groupCount, f64(c.labels as Num[]));
      const only = c.onlyN as number[] | null;
      const byN = only ? got.byN.filter((p) => only.includes(p.n)) : got.byN;
      expect(byN.length).toBe(c.expected.byN.length);
      expect(diff({ ...got, byN }, c.expected)).toEqual([]);
      // at N = 1 the reward's pick is a uniformly random row: accuracy = baseline
      if (got.byN.length) expect(Math.abs(got.byN[0].accuracy - got.byN[0].baseline)).toBeLessThan(1e-14);
    });
  }
});
