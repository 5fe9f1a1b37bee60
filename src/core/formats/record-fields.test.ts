import { describe, expect, it } from 'vitest';
import { groundTruthOf, stepOf } from './record-fields';

describe('groundTruthOf', () => {
  it('takes ground_truth, gts, reward_model.ground_truth, answer, solution: the first present', () => {
    expect(groundTruthOf({ ground_truth: 'a', gts: 'b', answer: 'c' })).toBe('a');
    expect(groundTruthOf({ gts: 'b', reward_model: { ground_truth: 'r' }, answer: 'c' })).toBe('b');
    expect(groundTruthOf({ reward_model: { ground_truth: 'r', style: 'rule' }, answer: 'c' })).toBe('r');
    expect(groundTruthOf({ answer: 'c', solution: 's' })).toBe('c');
    expect(groundTruthOf({ solution: 's' })).toBe('s');
    expect(groundTruthOf({ prompt: 'x' })).toBeUndefined();
  });

  it('skips null and empty values', () => {
    expect(groundTruthOf({ ground_truth: null, gts: '', answer: '4' })).toBe('4');
  });

  it('stringifies numbers, booleans, lists and objects', () => {
    expect(groundTruthOf({ gts: 5 })).toBe('5');
    expect(groundTruthOf({ answer: false })).toBe('false');
    expect(groundTruthOf({ ground_truth: ['1', '2'] })).toBe('["1","2"]');
    expect(groundTruthOf({ ground_truth: { x: 1n } })).toBe('{"x":1}');
  });

  it('with a mapped column, reads only that column', () => {
    expect(groundTruthOf({ gold: 4, answer: 'x' }, 'gold')).toBe('4');
    expect(groundTruthOf({ answer: 'x' }, 'gold')).toBeUndefined();
  });
});

describe('stepOf', () => {
  it('reads numbers, bigints and numeric strings from step (or a mapped column)', () => {
    expect(stepOf({ step: 3 })).toBe(3);
    expect(stepOf({ step: 10n })).toBe(10);
    expect(stepOf({ step: ' 42 ' })).toBe(42);
    expect(stepOf({ iteration: '7' }, 'iteration')).toBe(7);
  });

  it('ignores what is not a number', () => {
    expect(stepOf({ step: 'x' })).toBeUndefined();
    expect(stepOf({ step: '' })).toBeUndefined();
    expect(stepOf({ step: NaN })).toBeUndefined();
    expect(stepOf({ step: null })).toBeUndefined();
    expect(stepOf({})).toBeUndefined();
  });
});
