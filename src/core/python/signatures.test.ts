import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { findRewardFunctions, unacceptedArguments, unfilledParameters, type RewardCandidate } from './signatures';

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

function candidates(code: string): RewardCandidate[] {
  const r = findRewardFunctions(py, code);
  if (!r.ok) throw new Error(r.message);
  return r.candidates;
}

const brief = (cs: RewardCandidate[]) => cs.map(({ name, kind, line }) => ({ name, kind, line }));

describe('findRewardFunctions', () => {
  it('tells TRL, verl, verl batch and OpenRLHF signatures apart, and lists every candidate of a file', () => {
    const code = [
      'import re', // 1
      'import numpy as np  # never run: parsing is enough', // 2
      '', // 3
      'def extract(text):', // 4  a helper, not a candidate
      '    return text.strip()', // 5
      '', // 6
      'def format_reward(completions, **kwargs):', // 7  TRL, completions first
      '    return [1.0 for _ in completions]', // 8
      '', // 9
      'def accuracy_reward(prompts, completions, ground_truth, **kwargs):', // 10  TRL, prompts first
      '    return [0.0 for _ in completions]', // 11
      '', // 12
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):', // 13  verl
      '    return 0.0', // 14
      '', // 15
      '@staticmethod', // 16
      'def batch_score(data_sources, solution_strs, ground_truths, extra_infos, **kw):', // 17  verl batch
      '    return [0.0] * len(solution_strs)', // 18
      '', // 19
      'def reward_func(queries, prompts, labels, **kwargs):', // 20  OpenRLHF
      '    return {"rewards": [0.0] * len(queries)}', // 21
      '', // 22
      'async def judge(prompts, completions, **kwargs):', // 23  TRL, async
      '    return [None] * len(completions)', // 24
      '', // 25
      'class Scorer:', // 26  methods are not candidates
      '    def __call__(self, completions, **kwargs):', // 27
      '        return []', // 28
      '', // 29
      'if __name__ == "__main__":', // 30
      '    raise SystemExit(train())', // 31
    ].join('\n');
    const cs = candidates(code);
    expect(brief(cs)).toEqual([
      { name: 'format_reward', kind: 'trl', line: 7 },
      { name: 'accuracy_reward', kind: 'trl', line: 10 },
      { name: 'compute_score', kind: 'verl', line: 13 },
      { name: 'batch_score', kind: 'verl-batch', line: 17 },
      { name: 'reward_func', kind: 'openrlhf', line: 20 },
      { name: 'judge', kind: 'trl', line: 23 },
    ]);
    const acc = cs[1];
    expect(acc.params).toEqual(['prompts', 'completions', 'ground_truth']);
    expect(acc.required).toEqual(['prompts', 'completions', 'ground_truth']);
    expect(acc.varKeyword).toBe(true);
    expect(cs[2].required).toEqual(['data_source', 'solution_str', 'ground_truth']);
    expect(cs[5].async).toBe(true);
  });

  it('recognises OpenRLHF reward_func by position, whatever its parameters are called', () => {
    expect(brief(candidates('def reward_func(q, p, l):\n    return [0.0] * len(q)\n'))).toEqual([{ name: 'reward_func', kind: 'openrlhf', line: 1 }]);
    expect(candidates('def reward_func(*args):\n    return []\n')[0].kind).toBe('openrlhf');
    expect(candidates('def reward_func(x):\n    return []\n')).toEqual([]);
  });

  it('keeps the last definition of a name, as the module would', () => {
    const code = 'def r(completions, **kw):\n    return []\n\ndef r(data_source, solution_str, ground_truth, extra_info=None):\n    return 1\n';
    expect(brief(candidates(code))).toEqual([{ name: 'r', kind: 'verl', line: 4 }]);
  });

  it('finds nothing in a file without reward functions', () => {
    expect(candidates('x = 1\ndef helper(text):\n    return text\n')).toEqual([]);
  });

  it('reports a syntax error with its line', () => {
    expect(findRewardFunctions(py, 'def f(completions):\n    return [1.0 for c in completions\n')).toMatchObject({ ok: false, line: 2 });
    const r = findRewardFunctions(py, 'def f(completions):\nreturn 1\n');
    expect(r).toEqual({ ok: false, message: 'IndentationError: expected an indented block after function definition on line 1', line: 2 });
  });

  it('lists the required parameters the framework would not fill', () => {
    const [trl] = candidates('def f(prompts, completions, answer, task="math", **kwargs):\n    return []\n');
    expect(unfilledParameters(trl, ['answer', 'group'])).toEqual([]);
    expect(unfilledParameters(trl, ['group'])).toEqual(['answer']);
    const [verl] = candidates('def compute_score(data_source, solution_str, ground_truth, extra_info, tokenizer):\n    return 0\n');
    expect(unfilledParameters(verl)).toEqual(['tokenizer']);
    const [orl] = candidates('def reward_func(queries, prompts, labels, tokenizer):\n    return []\n');
    expect(unfilledParameters(orl)).toEqual(['tokenizer']); // A per-source scorer gets (solution_str, ground_truth) positionally; the rest need defaults.
    const [source] = candidates('def compute_score(solution_str, ground_truth, method="strict", tokenizer=None):\n    return 0\n');
    expect(source.kind).toBe('verl-source');
    expect(unfilledParameters(source)).toEqual([]);
    const [needs] = candidates('def compute_score(predict_str, ground_truth, tokenizer):\n    return 0\n');
    expect([needs.kind, unfilledParameters(needs)]).toEqual(['verl-source', ['tokenizer']]);
  });

  it('lists the keyword arguments a function without **kwargs would not accept', () => {
    const [trl] = candidates('def f(prompts, completions, answer):\n    return []\n');
    expect(unacceptedArguments(trl, ['answer', 'group'])).toEqual(['completion_ids', 'trainer_state', 'log_extra', 'log_metric', 'group']);
    const [trlKw] = candidates('def f(completions, **kwargs):\n    return []\n');
    expect(unacceptedArguments(trlKw, ['group'])).toEqual([]);
    const [verl] = candidates('def compute_score(data_source, solution_str, ground_truth):\n    return 0\n');
    expect(unacceptedArguments(verl)).toEqual(['extra_info']);
    const [orl] = candidates('def reward_func(queries, prompts):\n    return []\n');
    expect(unacceptedArguments(orl)).toEqual(['labels']);
    // No keywords for a per-source scorer: it must take two positionals.
    const [source] = candidates('def compute_score(solution_str, ground_truth):\n    return 0\n');
    expect(unacceptedArguments(source)).toEqual([]);
    const [one] = candidates('def score(solution_str):\n    return 0\n');
    expect([one.kind, unacceptedArguments(one)]).toEqual(['verl-source', ['ground_truth']]);
  });
});
