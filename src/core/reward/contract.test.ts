import { describe, expect, it } from 'vitest';
import { validateResult } from './contract';

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
    expect(validateResult({ score: 1, components: { a: Number.NaN } })).toEqual({ kind: 'error', reason: 'component "a" is NaN, expected a finite number' });
  });
});
