import { describe, expect, it } from 'vitest';
import { stepsProblem, validateResult } from './contract';

describe('validateResult', () => {
  it('accepts finite numbers and {score}', () => {
    expect(validateResult(0.5)).toEqual({ kind: 'ok', score: 0.5 });
    expect(validateResult(-0)).toEqual({ kind: 'ok', score: -0 });
    expect(validateResult({ score: 1, components: { format: 0.2, answer: 0.8 }, note: 'ok' })).toEqual({
      kind: 'ok',
      score: 1,
      components: { format: 0.2, answer: 0.8 },
      note: 'ok',
    });
  });
  it('counts null apart', () => {
    expect(validateResult(null)).toEqual({ kind: 'null' });
    expect(validateResult({ score: null })).toEqual({ kind: 'null' });
  });
  it('rejects non-finite and non-number results with a reason', () => {
    expect(validateResult(Number.NaN)).toEqual({ kind: 'error', reason: 'reward returned NaN, expected a finite number' });
    expect(validateResult(Number.POSITIVE_INFINITY)).toEqual({ kind: 'error', reason: 'reward returned Infinity, expected a finite number' });
    expect(validateResult(undefined)).toEqual({ kind: 'error', reason: 'reward returned undefined, expected a finite number, {score} or null' });
    expect(validateResult('1')).toEqual({ kind: 'error', reason: 'reward returned a string ("1"), expected a finite number, {score} or null' });
    expect(validateResult(true).kind).toBe('error');
    expect(validateResult([1]).kind).toBe('error');
    expect(validateResult({ value: 1 })).toEqual({ kind: 'error', reason: 'reward returned an object without a `score` field' });
    expect(validateResult({ score: '2' })).toEqual({ kind: 'error', reason: 'reward returned score a string ("2"), expected a finite number' });
    expect(validateResult({ score: 1, components: { a: Number.NaN } })).toEqual({
      kind: 'error',
      reason: 'component "a" is NaN, expected a finite number or a string',
    });
  });

  it('keeps string component values apart, as text, cut at 200 characters', () => {
    // 'x' * 250 is cut to its first 200 characters and an ellipsis: 201 characters in all.
    const long = 'x'.repeat(250);
    expect(validateResult({ score: 1, components: { acc: 1, pred: '72', long } })).toEqual({
      kind: 'ok',
      score: 1,
      components: { acc: 1 },
      strings: { pred: '72', long: 'x'.repeat(200) + '…' },
    });
    expect(validateResult({ score: 1, components: { acc: 1 } })).toEqual({ kind: 'ok', score: 1, components: { acc: 1 } });
  });
});

describe('stepsProblem', () => {
  const s = (offsets: number[], values: number[]) => ({ offsets: new Int32Array(offsets), values: new Float64Array(values) });
  it('accepts ragged rows, empty rows included', () => {
    expect(stepsProblem(s([0, 2, 2, 3], [1, 2, 3]), 3)).toBeNull();
    expect(stepsProblem(s([0], []), 0)).toBeNull();
  });
  it('names what does not fit', () => {
    expect(stepsProblem(s([0, 1], [1]), 2)).toEqual({ at: 'offsets', expected: 'an Int32Array of 3 from 0' });
    expect(stepsProblem(s([1, 1], []), 1)).toEqual({ at: 'offsets', expected: 'an Int32Array of 2 from 0' });
    expect(stepsProblem(s([0, 2, 1], [1, 2]), 2)).toEqual({ at: 'offsets.2', expected: 'at most 4096 steps per row, in order' });
    expect(stepsProblem(s([0, 4097], new Array(4097).fill(0)), 1)).toEqual({ at: 'offsets.1', expected: 'at most 4096 steps per row, in order' });
    expect(stepsProblem(s([0, 4096], new Array(4096).fill(0)), 1)).toBeNull();
    expect(stepsProblem(s([0, 2], [1]), 1)).toEqual({ at: 'values', expected: 'a Float64Array of 2' });
    expect(stepsProblem(s([0, 2], [1, Infinity]), 1)).toEqual({ at: 'values.1', expected: 'a finite number' });
  });
});
