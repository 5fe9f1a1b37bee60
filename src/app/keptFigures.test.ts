import { describe as suite, expect, it } from 'vitest';
import { scoredColumn, scoredOf } from './keptFigures';

suite('figures kept per array', () => {
  // Status 1 = scored (RowStatus.Ok), 2 = null: row 1 is NaN in what the diagnostics read.
  const run = { scores: new Float64Array([3, Number.NaN, 1]), status: new Uint8Array([1, 2, 1]) };
  it('gives the same array for the same run, NaN where a row is not scored', () => {
    const a = scoredOf(run);
    expect(Array.from(a)).toEqual([3, Number.NaN, 1]);
    expect(scoredOf(run)).toBe(a);
    expect(scoredOf({ ...run })).not.toBe(a);
    const c = new Float64Array([0.5, 9, 0.25]);
    expect(Array.from(scoredColumn(c, run.status))).toEqual([0.5, Number.NaN, 0.25]);
    expect(scoredColumn(c, run.status)).toBe(scoredColumn(c, run.status));
  });
});
