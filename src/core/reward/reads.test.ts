import { describe, expect, it } from 'vitest';
import { DEFAULT_REWARD_TS } from './defaultReward';
import { DEFAULT_REWARD_PY } from './defaultRewardPy';
import { missingReads, rewardReads } from './reads';

describe('rewardReads', () => {
  it('the default TypeScript reward reads the ground truth', () => {
    expect(rewardReads(DEFAULT_REWARD_TS, 'ts')).toEqual([{ kind: 'groundTruth', as: 't.groundTruth' }]);
  });
  it('the default Python reward (verl compute_score) reads the ground truth', () => {
    expect(rewardReads(DEFAULT_REWARD_PY, 'py').map((r) => r.kind)).toEqual(['groundTruth']);
  });
  it('TypeScript columns, dotted and bracketed, any parameter name, each once', () => {
    const code = `export default function reward(row, ctx) {
      const a = row.fields.judge_score; const b = row.fields['is correct']; const c = row?.fields?.judge_score;
      return row.groundTruth === a ? 1 : 0;
    }`;
    expect(rewardReads(code, 'ts')).toEqual([
      { kind: 'groundTruth', as: 'row.groundTruth' },
      { kind: 'column', name: 'judge_score', as: 'row.fields.judge_score' },
      { kind: 'column', name: 'is correct', as: "row.fields['is correct']" },
    ]);
  });
  it('TRL functions: named column arguments and kwargs lookups, not the trainer arguments', () => {
    const code = `def accuracy(completions, solution, prompts=None, **kwargs):
    ref = kwargs.get("reference")
    other = kwargs['tests']
    return [1.0 for _ in completions]
`;
    expect(rewardReads(code, 'py')).toEqual([
      { kind: 'column', name: 'solution', as: 'solution' },
      { kind: 'column', name: 'reference', as: 'kwargs["reference"]' },
      { kind: 'column', name: 'tests', as: "kwargs['tests']" },
    ]);
  });
});

describe('missingReads', () => {
  const gt = [{ kind: 'groundTruth' as const, as: 't.groundTruth' }];
  it('MT-bench chats (no ground truth column): the default reward has nothing to compare with', () => {
    expect(missingReads(gt, { columns: ['question_id', 'model', 'messages', 'score'] })).toEqual([
      't.groundTruth: this data has no ground-truth column (ground_truth, gts, reward_model, answer, solution)',
    ]);
  });
  it('GSM8K (ground_truth), verl data (reward_model) and a mapped column answer the read', () => {
    expect(missingReads(gt, { columns: ['prompt', 'completion', 'ground_truth'] })).toEqual([]);
    expect(missingReads(gt, { columns: ['prompt', 'reward_model'] })).toEqual([]);
    expect(missingReads(gt, { columns: ['q', 'a', 'gold'], groundTruthColumn: 'gold' })).toEqual([]);
  });
  it('a column the data lacks', () => {
    expect(missingReads([{ kind: 'column', name: 'solution', as: 'solution' }], { columns: ['prompt', 'completion'] })).toEqual([
      'solution: this data has no column "solution"',
    ]);
  });
});
