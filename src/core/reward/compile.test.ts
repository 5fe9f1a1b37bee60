import { describe, expect, it } from 'vitest';
import { compileReward } from './compile';

describe('compileReward: a rewardFuncs list (TRL reward_funcs + reward_weights)', () => {
  it('lists each function with its name (TRL: __name__) and weight; the list is the reward', () => {
    const c = compileReward(
      'function a() { return 1; }\nconst b = () => 2;\nexport const rewardFuncs = [a, b, (t) => 3];\nexport const rewardWeights = [1, 0.5, -2];\nexport default () => 99;\n',
    );
    if (!c.ok) throw new Error(c.message);
    expect(c.functions?.map(({ name, weight }) => [name, weight])).toEqual([
      ['a', 1],
      ['b', 0.5],
      ['reward_3', -2],
    ]);
    expect(c.functions?.map((f) => f.fn({} as never, {} as never))).toEqual([1, 2, 3]);
  });

  it('TRL spelling, weights 1 each when none are given, a repeated name numbered', () => {
    const c = compileReward('function f() { return 1; }\nexport const reward_funcs = [f, f];\n');
    if (!c.ok) throw new Error(c.message);
    expect(c.functions?.map(({ name, weight }) => [name, weight])).toEqual([
      ['f', 1],
      ['f_2', 1],
    ]);
  });

  it.each([
    ['export const rewardFuncs = [];', 'rewardFuncs must be a non-empty array of reward functions'],
    ['export const rewardFuncs = "f";', 'rewardFuncs must be a non-empty array of reward functions'],
    ['export const rewardFuncs = [() => 1, 42];', 'rewardFuncs[1] is number 42, not a function'],
    ['export const rewardFuncs = [() => 1, null];', 'rewardFuncs[1] is null, not a function'],
    ['export const rewardFuncs = [() => 1];\nexport const rewardWeights = [1, 2];', 'rewardWeights has 2 weights for 1 reward functions'],
    ['export const rewardFuncs = [() => 1];\nexport const rewardWeights = [Infinity];', 'rewardWeights must be an array of finite numbers'],
    ['export const rewardFuncs = [() => 1];\nexport const rewardWeights = ["1"];', 'rewardWeights must be an array of finite numbers'],
    ['export const rewardFuncs = Array(65).fill(() => 1);', 'rewardFuncs has 65 functions; at most 64 are kept'],
  ])('refuses %s', (code, message) => {
    expect(compileReward(code)).toEqual({ ok: false, message });
  });
});
