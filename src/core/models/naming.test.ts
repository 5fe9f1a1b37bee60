import { describe, expect, it } from 'vitest';
import { accessorName, ENSEMBLE_NAME } from './naming';

describe('accessorName', () => {
  it('makes an identifier from the last part of the name, numbered when taken', () => {
    expect(accessorName('OpenAssistant/reward-model-deberta', new Set())).toBe('reward_model_deberta');
    expect(accessorName('tiny-reward', new Set(['tiny_reward']))).toBe('tiny_reward_2');
    expect(accessorName('7b-rm', new Set())).toBe('m_7b_rm');
  });
  it('never names a model "ensemble": ctx.models.ensemble is the models combined', () => {
    expect(ENSEMBLE_NAME).toBe('ensemble');
    expect(accessorName('org/ensemble', new Set())).toBe('ensemble_2');
    expect(accessorName('ensemble', new Set(['ensemble_2']))).toBe('ensemble_3');
  });
});
