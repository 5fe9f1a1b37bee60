import { describe, expect, it } from 'vitest';
import { RowStatus } from './contract';
import type { RangeResult } from './runRows';
import { ALL_NONE_NOTE, combineFunctions, functionFailed, functionStats, parseWeights, summarizeFunctions } from './weighted';

const { Ok, Null, Error: Err, TimedOut } = RowStatus;
const N = Number.NaN;

/** A function's result on rows start.. : `null` = returned None, a string = failed with that message. */
function part(start: number, values: (number | null | string)[]): RangeResult {
  const n = values.length;
  const r: RangeResult = { start, scores: new Float64Array(n).fill(N), status: new Uint8Array(n), errors: [], components: {}, notes: [] };
  values.forEach((v, i) => {
    if (typeof v === 'number') {
      r.status[i] = Ok;
      r.scores[i] = v;
    } else if (v === null) r.status[i] = Null;
    else {
      r.status[i] = v === 'timed out' ? TimedOut : Err;
      r.errors.push({ row: start + i, message: v, line: 3 });
    }
  });
  return r;
}

describe('combineFunctions (TRL: nansum of weight × value, None = NaN)', () => {
  it('weights each function and skips None', () => {
    // format weight 1, accuracy weight 0.5:
    // row 0: 1·1 + 0.5·1 = 1.5; row 1: 1·0 + 0.5·1 = 0.5; row 2: accuracy None → 1·1 = 1; row 3: format None → 0.5·0 = 0
    const r = combineFunctions([
      { name: 'format', weight: 1, result: part(10, [1, 0, 1, null]) },
      { name: 'accuracy', weight: 0.5, result: part(10, [1, 1, null, 0]) },
    ]);
    expect(Array.from(r.scores)).toEqual([1.5, 0.5, 1, 0]);
    expect(Array.from(r.status)).toEqual([Ok, Ok, Ok, Ok]);
    expect(Array.from(r.components.format)).toEqual([1, 0, 1, N]);
    expect(Array.from(r.components.accuracy)).toEqual([1, 1, N, 0]);
    expect(r.start).toBe(10);
  });

  it('a row where every function returned None is 0, with a note (TRL warns)', () => {
    // -2 · None + 3 · None = nansum([NaN, NaN]) = 0
    const r = combineFunctions([
      { name: 'a', weight: -2, result: part(0, [null, 4]) },
      { name: 'b', weight: 3, result: part(0, [null, null]) },
    ]);
    expect(Array.from(r.scores)).toEqual([0, -8]);
    expect(Array.from(r.status)).toEqual([Ok, Ok]);
    expect(r.notes).toEqual([{ row: 0, note: ALL_NONE_NOTE }]);
  });

  it('a row where a function fails fails, naming each failing function; the others keep their values', () => {
    const r = combineFunctions([
      { name: 'a', weight: 1, result: part(5, [2, 'ZeroDivisionError: division by zero', 'timed out']) },
      { name: 'b', weight: 1, result: part(5, [1, 1, 'ValueError: x']) },
    ]);
    expect(Array.from(r.status)).toEqual([Ok, Err, Err]);
    expect(Array.from(r.scores)).toEqual([3, N, N]);
    expect(r.errors).toEqual([
      { row: 6, message: 'a(): ZeroDivisionError: division by zero', line: 3 },
      { row: 7, message: 'a(): timed out | b(): ValueError: x', line: 3 },
    ]);
    expect(Array.from(r.components.b)).toEqual([1, 1, N]);
    expect(functionFailed(r.errors[1].message, 'a')).toBe(true);
    expect(functionFailed(r.errors[1].message, 'b')).toBe(true);
    expect(functionFailed(r.errors[0].message, 'b')).toBe(false);
  });

  it('a timeout of one function alone leaves the row timed out', () => {
    const r = combineFunctions([
      { name: 'a', weight: 1, result: part(0, ['timed out']) },
      { name: 'b', weight: 1, result: part(0, [1]) },
    ]);
    expect(Array.from(r.status)).toEqual([TimedOut]);
  });

  it("keeps each function's components and notes under its name", () => {
    const a = part(0, [1, 2]);
    a.components.acc = Float64Array.from([1, 0]);
    a.notes.push({ row: 1, note: 'pred=7' });
    const r = combineFunctions([
      { name: 'a', weight: 1, result: a },
      { name: 'b', weight: 1, result: part(0, [0, 0]) },
    ]);
    expect(Object.keys(r.components)).toEqual(['a', 'a.acc', 'b']);
    expect(r.notes).toEqual([{ row: 1, note: 'a: pred=7' }]);
  });
});

describe('functionStats (torch.nanmean, trl nanstd with Bessel)', () => {
  it('leaves NaN out', () => {
    // values 1, 2, 4 (NaN left out): mean 7/3; squares (−4/3)² + (−1/3)² + (5/3)² = 42/9; ÷ 3 · 3/2 = 42/18 = 7/3
    const s = functionStats([1, N, 2, 4]);
    expect(s.mean).toBeCloseTo(7 / 3, 12);
    expect(s.std).toBeCloseTo(Math.sqrt(7 / 3), 12);
  });
  it('one value: std is NaN (0 · count/(count − 1) = 0 · ∞); none: both NaN', () => {
    expect(functionStats([N, 5])).toEqual({ mean: 5, std: N });
    expect(functionStats([N])).toEqual({ mean: N, std: N });
  });
});

describe('summarizeFunctions', () => {
  it('counts the rows where each function failed', () => {
    const r = combineFunctions([
      { name: 'f', weight: 2, result: part(0, [1, 'E: x', 3]) },
      { name: 'f2', weight: 1, result: part(0, [0, 0, 'E: y']) },
    ]);
    const s = summarizeFunctions(
      [
        { name: 'f', weight: 2 },
        { name: 'f2', weight: 1 },
      ],
      r.components,
      r.errors,
    );
    // f: values 1, 3 → mean 2, std sqrt(((1)² + (1)²)/2 · 2) = sqrt(2); f2: values 0, 0 → mean 0, std 0
    expect(s).toEqual([
      { name: 'f', weight: 2, mean: 2, std: Math.sqrt(2), errors: 1 },
      { name: 'f2', weight: 1, mean: 0, std: 0, errors: 1 },
    ]);
  });
});

describe('parseWeights', () => {
  it('reads one number per function', () => {
    expect(parseWeights('1, 0.5', 2)).toEqual({ ok: true, weights: [1, 0.5] });
    expect(parseWeights('1,x', 2)).toEqual({ ok: false, message: 'invalid --reward-weights: "x" is not a number' });
    expect(parseWeights('1,', 2)).toEqual({ ok: false, message: 'invalid --reward-weights: "" is not a number' });
    expect(parseWeights('1', 2)).toEqual({ ok: false, message: 'invalid --reward-weights: 1 weights for 2 reward functions' });
  });
});
