import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import { constantScore } from './constant';

const { Ok, Null, Error: Err } = RowStatus;

describe('constantScore', () => {
  it('every scored row 0 (rows that errored or returned null do not count): 0 over the 3 scored', () => {
    expect(constantScore([0, 5, 0, -0], [Ok, Err, Ok, Ok])).toEqual({ value: 0, rows: 3 });
    expect(constantScore([0, 0, 7], [Ok, Null, Err])).toEqual({ value: 0, rows: 1 });
  });
  it('two different scores: null', () => {
    expect(constantScore([1, 1, 0.5], [Ok, Ok, Ok])).toBeNull();
  });
  it('nothing scored: null', () => {
    expect(constantScore([], [])).toBeNull();
    expect(constantScore([3], [Err])).toBeNull();
  });
});
