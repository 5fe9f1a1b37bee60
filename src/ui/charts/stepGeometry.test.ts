import { describe, expect, it } from 'vitest';
import { barWidth, extentOf, keyTarget, linear, nearestIndex, niceDomain, runsWhere, stackTops, stepAfterArea, stepAfterPoints } from './stepGeometry';

describe('linear', () => {
  it('maps a domain onto a range, inverted ranges included', () => {
    // 2.5 is a quarter of 0 … 10: a quarter of the way from 50 to 150.
    expect(linear(0, 10, 50, 150)(2.5)).toBe(75);
    // A y axis: 0 at the bottom (100 px), 1 at the top (0 px).
    expect(linear(0, 1, 100, 0)(0.25)).toBe(75);
    // A single step: drawn in the middle.
    expect(linear(5, 5, 0, 100)(5)).toBe(50);
  });
});

describe('extentOf', () => {
  it('spans the finite values and the ones to include, skipping NaN', () => {
    expect(extentOf([[3, NaN, -1], [7]], [0])).toEqual([-1, 7]);
    // A fixed domain [0, 1] widens to values past it, never shrinks.
    expect(extentOf([[0.2, 0.4]], [0, 1])).toEqual([0, 1]);
    expect(extentOf([[1.3]], [0, 1])).toEqual([0, 1.3]);
    expect(extentOf([[NaN]])).toEqual([0, 1]);
  });
});

describe('niceDomain', () => {
  it('widens to the round ticks around the values', () => {
    // 0.93 / 4 = 0.2325 → step 0.25; 0.93 rounds up to 1.
    expect(niceDomain(0, 0.93)).toEqual([0, 1]);
    // 1.5 / 4 = 0.375 → step 0.5: −0.3 down to −0.5, 1.2 up to 1.5.
    expect(niceDomain(-0.3, 1.2)).toEqual([-0.5, 1.5]);
    // 367 / 4 = 91.75 → step 100: 120 down to 100, 487 up to 500.
    expect(niceDomain(120, 487)).toEqual([100, 500]);
    // Already on ticks: unchanged.
    expect(niceDomain(0, 1)).toEqual([0, 1]);
  });

  it('gives a single value room', () => {
    expect(niceDomain(0, 0)).toEqual([0, 1]);
    // 2 → [0, 4]: 4 / 4 = 1 → step 1.
    expect(niceDomain(2, 2)).toEqual([0, 4]);
  });
});

describe('nearestIndex', () => {
  it('finds the nearest value, the lower on a tie', () => {
    const s = [0, 2, 5, 9];
    expect(nearestIndex(s, 3)).toBe(1); // 1 from 2, 2 from 5
    expect(nearestIndex(s, 3.5)).toBe(1); // 1.5 from both
    expect(nearestIndex(s, 4)).toBe(2);
    expect(nearestIndex(s, 5)).toBe(2);
    expect(nearestIndex(s, -3)).toBe(0);
    expect(nearestIndex(s, 20)).toBe(3);
    expect(nearestIndex([7], 100)).toBe(0);
    expect(nearestIndex([], 1)).toBe(-1);
  });
});

describe('stackTops', () => {
  it('stacks layers bottom to top, a missing value adding nothing', () => {
    const tops = stackTops(
      [
        [0.25, NaN],
        [0.5, 0.25],
        [0.125, 0.5],
      ],
      2,
    );
    expect(tops.map((t) => Array.from(t))).toEqual([
      [0.25, 0],
      [0.75, 0.25],
      [0.875, 0.75],
    ]);
  });
});

describe('stepAfterPoints / stepAfterArea', () => {
  it('holds each value until the next step', () => {
    // (0, 1) → across to (10, 1) → up to (10, 2) → across to (20, 2) → up to (20, 3).
    expect(stepAfterPoints([0, 10, 20], [1, 2, 3])).toEqual([0, 1, 10, 1, 10, 2, 20, 2, 20, 3]);
    expect(stepAfterPoints([0, 10, 20], [1, 2, 3], 1, 3)).toEqual([10, 2, 20, 2, 20, 3]);
    expect(stepAfterPoints([0], [4])).toEqual([0, 4]);
  });

  it('closes the area between two stepAfter lines', () => {
    // Along hi: (0, 2) (10, 2) (10, 3); back along lo: (10, 1) (10, 0) (0, 0).
    expect(stepAfterArea([0, 10], [0, 1], [2, 3])).toEqual([0, 2, 10, 2, 10, 3, 10, 1, 10, 0, 0, 0]);
  });
});

describe('runsWhere', () => {
  it('splits indices into runs where the test holds', () => {
    const ok = [1, 1, 0, 1, 0, 1];
    expect(runsWhere(6, (i) => ok[i] === 1)).toEqual([
      [0, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(runsWhere(3, () => false)).toEqual([]);
    expect(runsWhere(0, () => true)).toEqual([]);
  });
});

describe('barWidth', () => {
  it('is 80% of the narrowest gap, from 1 px to the maximum', () => {
    expect(barWidth([0, 10, 30])).toBe(8);
    expect(barWidth([0, 100])).toBe(24);
    expect(barWidth([0, 0.5])).toBe(1);
    expect(barWidth([0])).toBe(24);
  });
});

describe('keyTarget', () => {
  it('moves the highlighted step with the arrows, pages and ends, within the steps', () => {
    // From no step: Right starts at the first of 25, Left at the last.
    expect(keyTarget('ArrowRight', null, 25)).toBe(0);
    expect(keyTarget('ArrowLeft', null, 25)).toBe(24);
    expect(keyTarget('ArrowRight', 3, 25)).toBe(4);
    expect(keyTarget('ArrowLeft', 0, 25)).toBe(0);
    // A page is a tenth of the steps, rounded: 25 / 10 → 3 (2.5 rounds up).
    expect(keyTarget('PageDown', 3, 25)).toBe(6);
    expect(keyTarget('PageUp', 1, 25)).toBe(0);
    expect(keyTarget('PageDown', 23, 25)).toBe(24);
    expect(keyTarget('Home', 10, 25)).toBe(0);
    expect(keyTarget('End', null, 25)).toBe(24);
    expect(keyTarget('Enter', 3, 25)).toBe(null);
  });
});
