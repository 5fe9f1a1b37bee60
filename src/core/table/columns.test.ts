import { describe, expect, it } from 'vitest';
import { fieldColumn, filterTest, TEXT_CELL_CHARS, textColumn } from './columns';

const rows = (vals: unknown[]) => vals.map((v) => ({ fields: v === undefined ? {} : { x: v } }));

describe('fieldColumn', () => {
  it('reads numbers, booleans and small bigints as numbers; missing and null as NaN', () => {
    const c = fieldColumn(rows([1.5, true, false, 3n, null, undefined]), 'x');
    expect(c.kind).toBe('number');
    expect(Array.from(c.kind === 'number' ? c.values : [])).toEqual([1.5, 1, 0, 3, Number.NaN, Number.NaN]);
  });
  it('turns to text when one value is not a number, and keeps every digit of an int64 above 2^53', () => {
    const c = fieldColumn(rows([9007199254740993n, 'abc', { a: [1] }, undefined]), 'x');
    expect(c.kind).toBe('text');
    if (c.kind !== 'text') return;
    expect(c.values).toEqual(['9007199254740993', 'abc', '{"a":[1]}', null]);
    // Ranks by hand: "9007199254740993" < "{"a":[1]}"? Collation puts punctuation first: {…} (0), digits (1), abc (2).
    expect(Array.from(c.ranks)).toEqual([1, 2, 0, Number.NaN]);
  });
  it('cuts long text', () => {
    const c = fieldColumn(rows(['y'.repeat(TEXT_CELL_CHARS + 10)]), 'x');
    expect(c.kind === 'text' && c.values[0]!.length).toBe(TEXT_CELL_CHARS);
  });
  it('does not read inherited names', () => {
    const c = fieldColumn([{ fields: {} }], 'toString');
    expect(c.kind === 'number' && Number.isNaN(c.values[0])).toBe(true);
  });
});

describe('textColumn', () => {
  it('gives equal texts one rank', () => {
    expect(Array.from(textColumn(['b', 'a', 'b']).ranks)).toEqual([1, 0, 1]);
  });
});

describe('filterTest', () => {
  const num = { kind: 'number' as const, values: Float64Array.from([0, 0.5, Number.NaN]) };
  it('is null for filters that keep everything', () => {
    expect(filterTest(num, { id: 'a', contains: '' })).toBeNull();
    expect(filterTest(num, { id: 'a' })).toBeNull();
  });
  it('matches a number column on its written values', () => {
    const t = filterTest(num, { id: 'a', contains: '.5' })!;
    expect([0, 1, 2].map(t)).toEqual([false, true, false]);
  });
  it('keeps no text row for a range', () => {
    const t = filterTest(textColumn(['1']), { id: 'a', min: 0 })!;
    expect(t(0)).toBe(false);
  });
});
