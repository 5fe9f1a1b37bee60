import { describe, expect, it } from 'vitest';
import { binnedMeans } from './binnedMeans';
import { sampleRows, sampleRowsPinned } from './sample';
import { scoredValues } from './scored';

// Expected values worked out by hand in the comments.
describe('scoredValues', () => {
  it('keeps OK rows and sets null, error, timed-out and pending rows to NaN', () => {
    expect(Array.from(scoredValues([1, 2, 3, 4, 5], [1, 2, 3, 4, 0]))).toEqual([1, NaN, NaN, NaN, NaN]);
  });
});

describe('sampleRows', () => {
  it('takes the k-th of max as kept row ⌊k·m/max⌋', () => {
    // Kept rows 0, 2, 4, 6, 8 (m = 5); max 3: step 5/3 → positions 0, ⌊1.67⌋ = 1, ⌊3.33⌋ = 3 → rows 0, 2, 6.
    expect(sampleRows(10, (i) => i % 2 === 0, 3)).toEqual([0, 2, 6]);
    expect(sampleRows(10, (i) => i % 2 === 0, 5)).toEqual([0, 2, 4, 6, 8]);
    expect(sampleRows(4, () => false, 3)).toEqual([]);
  });
});

describe('sampleRowsPinned', () => {
  it('lists pinned rows first, at most half of max, then sampleRows for the room left', () => {
    // Pinned 7, 3 (max 4 → 2 of the 4 pinned); then 2 of kept rows 0, 2, 4, 6, 8: step 2.5 → rows 0, ⌊2.5⌋ = 4.
    expect(sampleRowsPinned([7, 3, 9, 1], 10, (i) => i % 2 === 0, 4)).toEqual([7, 3, 0, 4]);
    // One pinned row leaves room for 4 of rows 0–9: step 2.5 → 0, 2, 5, 7.
    expect(sampleRowsPinned([9], 10, () => true, 5)).toEqual([9, 0, 2, 5, 7]);
    // Row 0 is pinned and sampled (rows 0, 3 of 0–5, step 3): listed once, so 3 rows, not 4.
    expect(sampleRowsPinned(Int32Array.from([0, 5]), 6, () => true, 4)).toEqual([0, 5, 3]);
    expect(sampleRowsPinned([], 10, (i) => i % 2 === 0, 3)).toEqual([0, 2, 6]);
  });
});

describe('binnedMeans', () => {
  it('means y per x bin over the rows where y is a number', () => {
    // Scored x span 0–10, forced to 5 bins of width 2 (x = 3 and 9 have no y and take no part):
    // [0,2): y 1, 3 → 2 · [2,4): 2 → 2 · [4,6): 5, 7 → 6 · [6,8): 0, 0 → 0 · [8,10]: 1, 1 → 1.
    const x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 9];
    const y = [1, 3, 2, NaN, 5, 7, 0, 0, 1, 1, NaN];
    const { bins, xs } = binnedMeans(x, y, 5);
    expect(bins.map((b) => [b.x0, b.x1, b.x, b.y, b.n, b.bin])).toEqual([
      [0, 2, 1, 2, 2, 0],
      [2, 4, 3, 2, 1, 1],
      [4, 6, 5, 6, 2, 2],
      [6, 8, 7, 0, 2, 3],
      [8, 10, 9, 1, 2, 4],
    ]);
    expect(Number.isNaN(xs[3]) && Number.isNaN(xs[10]) && xs[9] === 10).toBe(true);
  });

  it('leaves empty bins out', () => {
    // x 0, 1 in [0,2) → (1 + 3) / 2 = 2; x 10 in [8,10] → 2; bins 1–3 empty.
    const { bins } = binnedMeans([0, 10, 1], [1, 2, 3], 5);
    expect(bins.map((b) => [b.bin, b.y, b.n])).toEqual([
      [0, 2, 2],
      [4, 2, 1],
    ]);
  });
});
