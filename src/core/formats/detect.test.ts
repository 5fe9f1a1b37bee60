import { describe, expect, it } from 'vitest';
import { detectFormat } from './detect';

const msgs = [{ role: 'user', content: 'q' }];
const reply = [{ role: 'assistant', content: 'a' }];

describe('detectFormat', () => {
  it('detects every format from its fields', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ prompt: 'q', completion: 'a' }, 'trl-standard', 'has prompt/completion'],
      [{ prompt: msgs, completion: reply }, 'trl-conversational', 'has prompt/completion as message lists'],
      [{ prompt: 'q', completion: reply }, 'trl-conversational', 'has prompt/completion as message lists'],
      [{ messages: [...msgs, ...reply] }, 'openai-messages', 'has a "messages" list'],
      [{ input: 'q', output: 'a', gts: '1', score: 1, step: 2 }, 'verl-dump', 'has input/output'],
      [{ step: 1, prompt: 'q', completion: 'a', accuracy: 1, advantage: 0.5 }, 'trl-completions', 'has prompt/completion/advantage'],
      [{ prompt: 'q', chosen: 'a', rejected: 'b' }, 'preference', 'has chosen/rejected'],
      [{ prompt: 'q', chosen: 'a', rejected: 'b', subset: 'x', id: 1 }, 'preference', 'has chosen/rejected'],
      [{ prompt: msgs, chosen: reply, rejected: reply }, 'preference', 'has chosen/rejected'],
      [{ chosen: [...msgs, ...reply], rejected: [...msgs, ...reply] }, 'preference', 'has chosen/rejected'],
      [{ prompt: 'q', chosen: ['a'], rejected: ['b', 'c'] }, 'rewardbench2', 'has prompt with lists of chosen/rejected completions'],
      [
        { data_source: 'gsm8k', prompt: msgs, ability: 'math', reward_model: { ground_truth: '1' } },
        'verl-dataset',
        'has a prompt message list and reward_model/data_source, no completion',
      ],
      [{ question: 'q', response: 'a' }, 'mapped', 'no known column set'],
      [{ prompt: 'q' }, 'mapped', 'no known column set'],
    ];
    for (const [record, format, reason] of cases) expect(detectFormat([record]), JSON.stringify(record)).toEqual({ format, reason });
  });

  it('follows the majority of the sample and says so when it is not unanimous', () => {
    const sample = [{ prompt: 'q', completion: 'a' }, { prompt: 'q' }, { prompt: 'q', completion: 'b' }];
    expect(detectFormat(sample)).toEqual({ format: 'trl-standard', reason: 'has prompt/completion (2 of 3 sampled records)' });
  });

  it('breaks ties in favour of the format seen first', () => {
    expect(
      detectFormat([
        { input: 'q', output: 'a' },
        { prompt: 'q', completion: 'a' },
      ]).format,
    ).toBe('verl-dump');
  });

  it('has nothing to go on with an empty sample', () => {
    expect(detectFormat([])).toEqual({ format: 'mapped', reason: 'no records to inspect' });
  });
});
