import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory';
import { searchTrajectories, textMatcher } from './search';

const t = (prompt: string, completion: string, fields: Record<string, unknown> = {}): Trajectory => ({
  id: '',
  index: 0,
  line: 1,
  group: '',
  prompt,
  completion,
  messages: [],
  fields,
});

describe('textMatcher', () => {
  it('is case-insensitive, looks into nested values, and treats regex characters literally', () => {
    const m = textMatcher('needle.in');
    expect(m({ a: [{ b: 'a NEEDLE.IN a haystack' }] })).toBe(true);
    expect(m({ a: 'needleXin' })).toBe(false);
    expect(textMatcher('42')({ n: 1042 })).toBe(true);
    expect(textMatcher('(')('f(x)')).toBe(true);
    expect(textMatcher('x')(null)).toBe(false);
  });
});

describe('searchTrajectories', () => {
  it('finds rows by prompt, completion or any field', () => {
    const rows = [t('Alpha', 'one'), t('Beta', 'two', { model: 'gpt-small' }), t('alpha', 'THREE')];
    expect(Array.from(searchTrajectories(rows, 'ALPHA'))).toEqual([0, 2]);
    expect(Array.from(searchTrajectories(rows, 'three'))).toEqual([2]);
    expect(Array.from(searchTrajectories(rows, 'gpt-small'))).toEqual([1]);
    expect(Array.from(searchTrajectories(rows, 'zzz'))).toEqual([]);
  });
});
