import { describe, expect, it } from 'vitest';
import { editDistance, extractTag, lastBoxed, similarity } from './extract';

describe('lastBoxed', () => {
  it('takes the last boxed answer with nested braces', () => {
    expect(lastBoxed('so \\boxed{3} or rather \\boxed{\\frac{1}{2}}.')).toBe('\\frac{1}{2}');
    expect(lastBoxed('$\\boxed{x^{2}+1}$')).toBe('x^{2}+1');
    expect(lastBoxed('\\fbox{7}')).toBe('7');
    expect(lastBoxed('answer: \\boxed 42')).toBe('42');
    expect(lastBoxed('\\boxed{}')).toBe('');
  });
  it('is null when there is no box or it never closes', () => {
    expect(lastBoxed('no box here')).toBeNull();
    expect(lastBoxed('\\boxed{\\frac{1}{2}')).toBeNull();
  });
});

describe('extractTag', () => {
  const text = '<think>a</think> <answer>first</answer> more <answer> last </answer> <answer>open';
  it('takes the last complete occurrence, or all of them', () => {
    expect(extractTag(text, 'think')).toBe('a');
    expect(extractTag(text, 'answer')).toBe(' last ');
    expect(extractTag(text, 'answer', { all: true })).toEqual(['first', ' last ']);
    expect(extractTag(text, 'tool')).toBeNull();
    expect(extractTag('<answer>unclosed', 'answer')).toBeNull();
    expect(extractTag('', 'x', { all: true })).toEqual([]);
  });
});

describe('editDistance / similarity', () => {
  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
  it('normalizes by the longer length', () => {
    expect(similarity('kitten', 'sitting')).toBeCloseTo(1 - 3 / 7, 15);
    expect(similarity('abcd', 'abcd')).toBe(1);
    expect(similarity('', '')).toBe(1);
    expect(similarity('ab', '')).toBe(0);
  });
});
