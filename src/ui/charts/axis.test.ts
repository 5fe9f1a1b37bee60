import { describe, expect, it } from 'vitest';
import { countLabel, countTicks, niceTicks, rangeLabel, tickLabel } from './axis';

const M = '\u2212';

describe('countLabel', () => {
  it('writes counts exactly below 1,000 and compactly above', () => {
    expect([0, 7, 999].map(countLabel)).toEqual(['0', '7', '999']);
    // 1,000 → 1k; 1,500 → 1.5k; 12,345 → 12.3k (three significant digits); 250,000 → 250k.
    expect([1000, 1500, 12_345, 250_000].map(countLabel)).toEqual(['1k', '1.5k', '12.3k', '250k']);
    // The 1M-row axis that clipped to "00000": 1,000,000 → 1M; 1,250,000 → 1.25M; 2e9 → 2B.
    expect([1_000_000, 1_250_000, 2e9].map(countLabel)).toEqual(['1M', '1.25M', '2B']);
    // 999,999 would be 1000k at three digits: it is written 1M.
    expect(countLabel(999_999)).toBe('1M');
  });
});

describe('tickLabel / rangeLabel', () => {
  it('uses a true minus sign and at most three significant digits', () => {
    expect([-2, -1.75, 0, 0.3333333, 1 / 7, 123.4, -0.005].map(tickLabel)).toEqual([`${M}2`, `${M}1.75`, '0', '0.333', '0.143', '123', `${M}0.005`]);
  });

  it('writes lengths compactly from 10,000 up', () => {
    expect([9999, 10_000, 25_500, 1_000_000].map(tickLabel)).toEqual(['9999', '10k', '25.5k', '1M']);
  });

  it('writes a bin as "a to b"', () => {
    expect(rangeLabel(-2, -1.75)).toBe(`${M}2 to ${M}1.75`);
    expect(rangeLabel(-0.25, 0.5)).toBe(`${M}0.25 to 0.5`);
  });
});

describe('niceTicks', () => {
  it('covers the range with round steps', () => {
    // (1 − 0) / 4 = 0.25 → step 0.25.
    expect(niceTicks(0, 1, 4)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    // (−2 … 2) / 6 = 0.667 → step 1 (the first of 1, 2, 2.5, 5 × 0.1… at or above it is 1).
    expect(niceTicks(-2, 2, 6)).toEqual([-2, -1, 0, 1, 2]);
    expect(niceTicks(3, 3)).toEqual([3]);
  });
});

describe('countTicks', () => {
  it('steps through whole numbers from 0 to at least the maximum', () => {
    // 1,000,000 / 4 = 250,000 → step 500,000 (1, 2, 5 × 10^5): 0, 500k, 1M.
    expect(countTicks(1_000_000)).toEqual([0, 500_000, 1_000_000]);
    // 295 / 4 = 73.75 → step 100: 0 … 300, the top tick above the tallest bar.
    expect(countTicks(295)).toEqual([0, 100, 200, 300]);
    // Small counts never get fractional steps: 3 / 4 → step 1.
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(0)).toEqual([0, 1]);
  });
});
