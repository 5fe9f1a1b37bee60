import { describe, expect, it } from 'vitest';
import { PieceMemo } from './pieceMemo';

const put = (m: PieceMemo, s: string, count: number) => m.set(s, 0, s.length, PieceMemo.hash(s, 0, s.length), count);
const get = (m: PieceMemo, text: string, start: number, end: number) => m.get(text, start, end, PieceMemo.hash(text, start, end));

describe('PieceMemo', () => {
  it('finds a range of any text by its characters', () => {
    const m = new PieceMemo(100);
    put(m, ' world', 3);
    put(m, 'Hello', 7);
    expect(get(m, 'Hello world', 5, 11)).toBe(3);
    expect(get(m, 'Hello world', 0, 5)).toBe(7);
    expect(get(m, 'say Hello', 4, 9)).toBe(7);
    // Same characters but one, a prefix, the empty range: absent.
    expect(get(m, 'Hellp', 0, 5)).toBe(-1);
    expect(get(m, 'Hello', 0, 4)).toBe(-1);
    expect(get(m, 'Hello', 2, 2)).toBe(-1);
  });

  it('tells apart keys whose hashes are equal', () => {
    const m = new PieceMemo(100);
    // The hash is passed in: give two keys of one length the same hash, as a collision would.
    m.set('ab', 0, 2, 42, 1);
    m.set('cd', 0, 2, 42, 2);
    expect(m.get('xcd', 1, 3, 42)).toBe(2);
    expect(m.get('ab', 0, 2, 42)).toBe(1);
    expect(m.get('ef', 0, 2, 42)).toBe(-1);
  });

  it('keeps every entry as it grows, and starts again when full', () => {
    const m = new PieceMemo(50_000);
    const keys = Array.from({ length: 40_000 }, (_, i) => `w${i}\u00e9${'x'.repeat(i % 7)}`);
    keys.forEach((k, i) => put(m, k, i));
    expect(m.entries).toBe(40_000);
    expect(keys.every((k, i) => get(m, k, 0, k.length) === i)).toBe(true);
    for (let i = 0; i < 10_001; i++) put(m, `y${i}`, i);
    // The 50,001st entry cleared the memo first: it alone is left.
    expect(m.entries).toBe(1);
    expect(get(m, 'y10000', 0, 6)).toBe(10_000);
    expect(get(m, keys[0], 0, keys[0].length)).toBe(-1);
  });
});
