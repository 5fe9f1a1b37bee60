import { describe, expect, it } from 'vitest';
import { groupKeyOf } from './group-key';

describe('groupKeyOf', () => {
  it('checks group, uid, group_id, prompt_id in that order', () => {
    const all = { group: 'G', uid: 'U', group_id: 'GI', prompt_id: 'P' };
    expect(groupKeyOf(all, 'prompt')).toBe('G');
    expect(groupKeyOf({ uid: 'U', group_id: 'GI', prompt_id: 'P' }, 'prompt')).toBe('U');
    expect(groupKeyOf({ group_id: 'GI', prompt_id: 'P' }, 'prompt')).toBe('GI');
    expect(groupKeyOf({ prompt_id: 'P' }, 'prompt')).toBe('P');
  });

  it('stringifies numbers, bigints and booleans', () => {
    expect(groupKeyOf({ group: 0 }, 'p')).toBe('0');
    expect(groupKeyOf({ uid: 12.5 }, 'p')).toBe('12.5');
    expect(groupKeyOf({ group_id: 9007199254740993n }, 'p')).toBe('9007199254740993');
    expect(groupKeyOf({ prompt_id: true }, 'p')).toBe('true');
  });

  it('skips null, empty strings, NaN, objects and lists', () => {
    expect(groupKeyOf({ group: null, uid: '' }, 'p')).toBe('p');
    expect(groupKeyOf({ group: NaN, uid: ['a'], group_id: { a: 1 }, prompt_id: 'P' }, 'p')).toBe('P');
  });

  it('falls back to the prompt key', () => {
    expect(groupKeyOf({ prompt: 'What is 2+2?' }, 'What is 2+2?')).toBe('What is 2+2?');
  });

  it('with an explicit column, consults only that column', () => {
    expect(groupKeyOf({ group: 'G', qid: 7 }, 'p', 'qid')).toBe('7');
    expect(groupKeyOf({ group: 'G' }, 'p', 'qid')).toBe('p');
  });
});
