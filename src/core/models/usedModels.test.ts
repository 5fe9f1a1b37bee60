import { describe, expect, it } from 'vitest';
import { modelsUsedBy } from './usedModels';

describe('modelsUsedBy', () => {
  const ids = ['tiny_reward', 'tiny', 'skywork_rm'];
  it('TypeScript: ctx.models.<id> and models["<id>"], whole names only', () => {
    const code = 'export default function reward(t, ctx) { return ctx.models.tiny_reward + ctx.models["skywork_rm"]; }';
    // `tiny` is a prefix of tiny_reward, not a read of its own.
    expect(modelsUsedBy(code, 'ts', ids)).toEqual(['tiny_reward', 'skywork_rm']);
    expect(modelsUsedBy('const m = ctx?.models?.tiny;', 'ts', ids)).toEqual(['tiny']);
  });
  it('TypeScript: ctx.models.ensemble reads every loaded model (when there are 2 or more)', () => {
    expect(modelsUsedBy('export default (t, ctx) => ctx.models.ensemble.min', 'ts', ids)).toEqual(ids);
    expect(modelsUsedBy('export default (t, ctx) => ctx.models["ensemble"].std', 'ts', ids)).toEqual(ids);
    expect(modelsUsedBy('export default (t, ctx) => ctx.models.ensemble.min', 'ts', ['tiny'])).toEqual([]);
  });
  it('TypeScript without a model read: none (the text "models" alone is not a read)', () => {
    expect(modelsUsedBy('// no models here\nexport default () => 1;', 'ts', ids)).toEqual([]);
  });
  it('Python: every loaded model when the code reads the scores verl or TRL pass, else none', () => {
    expect(modelsUsedBy('def compute_score(d, s, g, extra_info=None):\n  return extra_info["rollout_reward_scores"]["tiny"]', 'py', ids)).toEqual(ids);
    expect(modelsUsedBy('def f(completions, model_scores, **kw):\n  return [m["tiny"] for m in model_scores]', 'py', ids)).toEqual(ids);
    expect(modelsUsedBy('def compute_score(d, s, g, extra_info=None):\n  return 1.0', 'py', ids)).toEqual([]);
  });
});
