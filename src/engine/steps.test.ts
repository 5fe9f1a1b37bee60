/** Step rewards (RewardResult.steps) from the reward's return value to a range result, and its check at the engine. */
import { describe, expect, it } from 'vitest';
import { STEP_LIMIT, validateResult } from '../core/reward/contract';
import { runRows } from '../core/reward/runRows';
import type { Trajectory } from '../core/trajectory';
import { checkSteps } from './protocol';

describe('validateResult: steps', () => {
  it('keeps an array of finite numbers; refuses anything else with the reason', () => {
    expect(validateResult({ score: 1, steps: [0.5, -1] })).toEqual({ kind: 'ok', score: 1, steps: [0.5, -1] });
    expect(validateResult({ score: 1, steps: [0.5, NaN] })).toEqual({
      kind: 'error',
      reason: 'reward returned `steps` that is not an array of finite numbers',
    });
    expect(validateResult({ score: 1, steps: '1,2' })).toEqual({ kind: 'error', reason: 'reward returned `steps` that is not an array of finite numbers' });
    expect(validateResult({ score: 1, steps: new Array(STEP_LIMIT + 1).fill(0) })).toEqual({
      kind: 'error',
      reason: `reward returned ${STEP_LIMIT + 1} steps, at most ${STEP_LIMIT} are allowed`,
    });
  });
});

describe('runRows: steps', () => {
  const row = (i: number) => ({ index: i }) as unknown as Trajectory;
  it('a ragged column over the range; rows without steps have none', () => {
    const fn = (t: Trajectory) => (t.index === 1 ? 3 : t.index === 2 ? null : { score: 0, steps: t.index === 0 ? [1, 2] : [9] });
    const r = runRows(fn as never, row, 0, 4);
    expect([...r.steps!.offsets]).toEqual([0, 2, 2, 2, 3]);
    expect([...r.steps!.values]).toEqual([1, 2, 9]);
  });
  it('no row with steps: no column', () => {
    expect(runRows((() => 1) as never, row, 0, 2).steps).toBeUndefined();
  });
});

describe('checkSteps', () => {
  const ok = { offsets: Int32Array.from([0, 2, 2]), values: Float64Array.from([1, 2]) };
  it('passes a well-formed column and absence', () => {
    expect(checkSteps(ok, 2, 'result.steps')).toEqual(ok);
    expect(checkSteps(undefined, 2, 'result.steps')).toBeUndefined();
  });
  it.each([
    [{ ...ok, offsets: [0, 2, 2] }, 'result.steps.offsets: expected an Int32Array of 3 from 0'],
    [{ ...ok, offsets: Int32Array.from([1, 2, 2]) }, 'result.steps.offsets: expected an Int32Array of 3 from 0'],
    [{ ...ok, offsets: Int32Array.from([0, 2, 1]) }, `result.steps.offsets.2: expected at most ${STEP_LIMIT} steps per row, in order`],
    [{ ...ok, values: Float64Array.from([1]) }, 'result.steps.values: expected a Float64Array of 2'],
    [{ ...ok, values: Float64Array.from([1, Infinity]) }, 'result.steps.values.1: expected a finite number'],
  ])('refuses %o', (v, message) => {
    expect(() => checkSteps(v, 2, 'result.steps')).toThrow(message);
  });
});
