import { describe, expect, it } from 'vitest';
import { assembleSteps } from './stepColumn';

describe('assembleSteps', () => {
  it('puts ranges together in row order, whatever order they came in; uncovered rows have none', () => {
    // Rows 3–4 (steps [5], [6, 7]) arrive before rows 0–1 ([1, 2], []); row 2 never arrives.
    const late = { start: 3, offsets: Int32Array.from([0, 1, 3]), values: Float64Array.from([5, 6, 7]) };
    const early = { start: 0, offsets: Int32Array.from([0, 2, 2]), values: Float64Array.from([1, 2]) };
    const c = assembleSteps([late, early], 5);
    expect([...c.offsets]).toEqual([0, 2, 2, 2, 3, 5]);
    expect([...c.values]).toEqual([1, 2, 5, 6, 7]);
  });
  it('a range scored again replaces the first result', () => {
    const a = { start: 0, offsets: Int32Array.from([0, 1]), values: Float64Array.from([1]) };
    const b = { start: 0, offsets: Int32Array.from([0, 2]), values: Float64Array.from([8, 9]) };
    expect([...assembleSteps([a, b], 1).values]).toEqual([8, 9]);
    expect(() => assembleSteps([{ ...a, start: 1 }], 1)).toThrow('outside');
  });
});
