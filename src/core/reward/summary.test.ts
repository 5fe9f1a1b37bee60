import { describe, expect, it } from 'vitest';
import { RowStatus } from './contract';
import { summarizeRun } from './summary';

describe('summarizeRun', () => {
  it('counts statuses and averages ok rows only', () => {
    const scores = Float64Array.from([1, 0, Number.NaN, Number.NaN, 0.5, Number.NaN]);
    const status = Uint8Array.from([RowStatus.Ok, RowStatus.Ok, RowStatus.Null, RowStatus.Error, RowStatus.Ok, RowStatus.TimedOut]);
    expect(summarizeRun(scores, status)).toEqual({ rows: 6, ok: 3, nulls: 1, errors: 1, timedOut: 1, pending: 0, mean: 0.5 });
  });
  it('mean is NaN with no ok rows', () => {
    expect(summarizeRun(new Float64Array(2), new Uint8Array(2)).mean).toBeNaN();
  });
});
