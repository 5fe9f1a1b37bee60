import { describe, expect, it } from 'vitest';
import { numberAfter, numbersEqual, parseNumber } from './answers';

describe('numberAfter', () => {
  it('takes the number after the LAST marker', () => {
    expect(numberAfter('A: 3\nthen more\nA: 42', 'A:')).toBe('42');
    expect(numberAfter('x = 5\nA: $1,000.50 dollars')).toBe('1,000.50');
    expect(numberAfter('The answer is -7.', 'answer is')).toBe('-7');
    expect(numberAfter('#### 1/2', '####')).toBe('1/2');
  });
  it('returns null without the marker or without a number after it', () => {
    expect(numberAfter('no final line')).toBeNull();
    expect(numberAfter('A: none')).toBeNull();
    expect(numberAfter('A: 5\nA: unknown')).toBeNull();
  });
});

describe('parseNumber', () => {
  it('reads numbers as people write answers', () => {
    expect(parseNumber('1,000')).toBe(1000);
    expect(parseNumber('1000.0')).toBe(1000);
    expect(parseNumber('$18')).toBe(18);
    expect(parseNumber('50%')).toBe(50);
    expect(parseNumber('1/2')).toBe(0.5);
    expect(parseNumber('-3/4')).toBe(-0.75);
    expect(parseNumber('\\frac{3}{4}')).toBe(0.75);
    expect(parseNumber('.5')).toBe(0.5);
    expect(parseNumber(' 12 ')).toBe(12);
    expect(parseNumber(7)).toBe(7);
  });
  it('refuses what is not a number', () => {
    expect(parseNumber('abc')).toBeNull();
    expect(parseNumber('1,00')).toBeNull();
    expect(parseNumber('1/0')).toBeNull();
    expect(parseNumber('')).toBeNull();
    expect(parseNumber(null)).toBeNull();
    expect(parseNumber(undefined)).toBeNull();
    expect(parseNumber(Number.NaN)).toBeNull();
  });
});

describe('numbersEqual', () => {
  it('compares numerically with tolerance', () => {
    expect(numbersEqual('1,000', '1000.0')).toBe(true);
    expect(numbersEqual('1/2', '0.5')).toBe(true);
    expect(numbersEqual('18', 18)).toBe(true);
    expect(numbersEqual('0.1', 0.1 + 1e-12)).toBe(true);
    expect(numbersEqual('18', '19')).toBe(false);
    expect(numbersEqual('100', '101', { relTol: 0.01 })).toBe(true);
    expect(numbersEqual('100', '102', { relTol: 0.01 })).toBe(false);
    expect(numbersEqual(null, '1')).toBe(false);
    expect(numbersEqual('x', 'x')).toBe(false);
  });
});
