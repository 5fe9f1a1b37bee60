/**
 * Export for TRL / verl with a Shaping list: the exported file run by CPython (Pyodide) on the reference fixture of
 * scripts/shaping-fixtures.py gives that reference's shaped rewards; per-row verl exports against hand-worked values.
 */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportReward } from '../python/exportReward';
import { findRewardFunctions } from '../python/signatures';
import { diff, type Num } from '../stats/fixtures/check';
import fixture from './fixtures/shaping.json';
import { normaliseShapes, type ShapeSpec } from './spec';

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

function specs(raw: unknown): ShapeSpec[] {
  const n = normaliseShapes(raw);
  if (!n.ok) throw new Error(n.message);
  return n.value;
}

function run(code: string, name: string, target: 'trl' | 'verl', shaping: ShapeSpec[], call: (fn: string) => string) {
  const scan = findRewardFunctions(py, code);
  if (!scan.ok) throw new Error(scan.message);
  const { text, functionName } = exportReward(
    code,
    scan.candidates.find((c) => c.name === name)!,
    target,
    'reward.py',
    shaping,
  );
  const ns = py.globals.get('dict')();
  try {
    py.runPython(text, { globals: ns });
    return { text, functionName, value: JSON.parse(py.runPython(`import json\njson.dumps(${call(functionName)})`, { globals: ns }) as string) as unknown };
  } finally {
    ns.destroy();
  }
}

// The TRL reward hands back the fixture's raw rewards (a dataset column); None where the reference has none.
const GIVEN = 'def given(completions, reward=None, **kwargs):\n    return list(reward)\n';
const d = fixture.input;
const n = d.rewards.length;
const batch = JSON.stringify({
  prompts: d.groupOf.map((g) => `prompt ${g}`),
  completions: d.chars.map((c) => 'x'.repeat(c)),
  completion_ids: d.tokens.map((t) => Array(t).fill(7)),
  // The row outside every group is unscored in the studio: no reward here either.
  reward: d.rewards.map((r, i) => (d.groupOf[i] < 0 ? null : r)),
  ref: d.ref,
});

describe('Export for TRL with a Shaping list', () => {
  const cases = fixture.cases.filter((c) => !c.specs.some((s) => s.name.startsWith('step-')));
  it.each(cases.map((c) => [c.specs.map((s) => s.name).join(' → '), c] as const))('%s: CPython gives the reference values', (_, c) => {
    const { text, functionName, value } = run(GIVEN, 'given', 'trl', specs(c.specs), (f) => `${f}(**json.loads(${JSON.stringify(batch)}))`);
    expect(functionName).toBe('given_shaped');
    expect(text).toContain('reward_funcs=[given_shaped]');
    expect((value as unknown[]).length).toBe(n);
    expect(diff(value, c.shaped as Num[])).toEqual([]);
  });
  it('characters are JavaScript’s (UTF-16 code units): an emoji counts 2', () => {
    // dapo-overlong L 3, C 1 (L − C = 2): "ab" (2) → + 0; "a😀" (3 in JavaScript, 2 code points) → (2 − 3)/1 = −1.
    const shaping = specs([{ name: 'dapo-overlong', max: 3, cache: 1, unit: 'chars' }]);
    const { value } = run(GIVEN, 'given', 'trl', shaping, (f) => `${f}(prompts=["p", "p"], completions=["ab", "a\\U0001F600"], reward=[1.0, 1.0])`);
    expect(value).toEqual([1, 0]);
  });
});

describe('Export for TRL of a reward_funcs list with a Shaping list', () => {
  const LIST = [
    'def a(completions, **kwargs):',
    '    return [1.0 if c == "x" else None for c in completions]',
    '',
    'def b(completions, **kwargs):',
    '    return [2.0 if c != "z" else None for c in completions]',
    '',
    'reward_funcs = [a, b]',
    'reward_weights = [1.0, 0.5]',
    '',
  ].join('\n');
  it('the wrapper makes TRL’s weighted sum (None left out, all None → 0), then shapes it', () => {
    // "x": 1·1 + 0.5·2 = 2; "y": 0.5·2 = 1; "z": both None → 0. Then scale by 3: 6, 3, 0.
    const { text, functionName, value } = run(
      LIST,
      'reward_funcs',
      'trl',
      specs([{ name: 'scale', by: 3 }]),
      (f) => `${f}(prompts=["p"] * 3, completions=["x", "y", "z"])`,
    );
    expect(functionName).toBe('reward_funcs_shaped');
    expect(text).toContain('trainer = GRPOTrainer(..., reward_funcs=[reward_funcs_shaped])  # the weights are applied inside');
    expect(text).not.toContain('reward_weights=[1, 0.5]');
    expect(value).toEqual([6, 3, 0]);
  });
});

describe('Export for verl with a Shaping list', () => {
  const VERL = 'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return float(ground_truth)\n';
  it('per-row transforms in compute_score_shaped, named in the config line', () => {
    const shaping = specs([
      { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' },
      { name: 'clip', min: -0.4 },
      { name: 'scale', by: 2 },
    ]);
    // 350 chars: (300 − 350)/100 = −0.5 → clip −0.4 → × 2 = −0.8; 100 chars: 1 → 1 → 2.
    const { text, value } = run(VERL, 'compute_score', 'verl', shaping, (f) => `[${f}("d", "x" * 350, "0"), ${f}("d", "x" * 100, "1")]`);
    expect(text).toContain('custom_reward_function.name=compute_score_shaped');
    expect(value).toEqual([-0.8, 2]);
  });
  it('par with a reference column reads it from extra_info', () => {
    // sigmoid(1 − 1) = 0.5; a missing reference: no PAR reward, 0.0 to verl.
    const shaping = specs([{ name: 'par', ref: 'column', column: 'ref' }]);
    const { value } = run(VERL, 'compute_score', 'verl', shaping, (f) => `[${f}("d", "y", "1", {"ref": 1.0}), ${f}("d", "y", "1", {})]`);
    expect(value).toEqual([0.5, 0]);
  });
  it('refuses what a per-rollout compute_score cannot do, and step transforms', () => {
    const scan = findRewardFunctions(py, VERL);
    if (!scan.ok) throw new Error(scan.message);
    const fn = scan.candidates[0];
    expect(() => exportReward(VERL, fn, 'verl', 'reward.py', specs([{ name: 'kimi-length', unit: 'chars' }]))).toThrow(
      "kimi-length:unit=chars needs the rollout's whole group, and verl's compute_score sees one rollout at a time",
    );
    expect(() => exportReward(VERL, fn, 'verl', 'reward.py', specs([{ name: 'dapo-overlong', max: 4, cache: 1 }]))).toThrow('counts tokens');
    expect(() => exportReward(VERL, fn, 'trl', 'reward.py', specs([{ name: 'step-delta' }, { name: 'step-sum' }]))).toThrow(
      'step-delta reads step rewards (RewardResult.steps), which a TRL reward function does not return',
    );
  });
});
