import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportReward, type ExportTarget } from './exportReward';
import { findRewardFunctions } from './signatures';

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

/** Export `code`'s function `name` for `target`, run the exported file in a fresh namespace, evaluate `call` there. */
function exportAndCall(code: string, name: string, target: ExportTarget, call: (fn: string) => string): { text: string; value: unknown } {
  const scan = findRewardFunctions(py, code);
  if (!scan.ok) throw new Error(scan.message);
  const fn = scan.candidates.find((c) => c.name === name)!;
  const { text, functionName } = exportReward(code, fn, target);
  const ns = py.globals.get('dict')();
  py.runPython(text, { globals: ns });
  const value = py.runPython(`import json\njson.dumps(${call(functionName)})`, { globals: ns }) as string;
  ns.destroy();
  return { text, value: JSON.parse(value) };
}

const VERL =
  'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 1.0 if solution_str.strip().endswith(str(ground_truth)) else 0.0\n';
const TRL = 'def lengths(completions, **kwargs):\n    return [float(len(c)) for c in completions]\n';
const OPENRLHF = 'def reward_func(queries, prompts, labels):\n    return {"rewards": [float(q.endswith(l)) for q, l in zip(queries, labels)]}\n';

describe('exportReward', () => {
  it('verl → verl: the code as it is, with the config lines', () => {
    const { text, value } = exportAndCall(VERL, 'compute_score', 'verl', (f) => `${f}("gsm8k", "so 5", "5")`);
    expect(text).toContain('custom_reward_function.path=reward.py custom_reward_function.name=compute_score\n');
    expect(value).toBe(1);
  });
  it('verl → TRL: an adapter called per completion, conversational completions read as text', () => {
    const { text, value } = exportAndCall(
      VERL,
      'compute_score',
      'trl',
      (f) => `${f}(completions=["x 5", [{"role": "assistant", "content": "y 6"}]], ground_truth=["5", "7"])`,
    );
    expect(text).toContain('trainer = GRPOTrainer(..., reward_funcs=[compute_score_trl])');
    expect(value).toEqual([1, 0]);
  });
  it('TRL → TRL: as it is; TRL → verl: a batch of one', () => {
    expect(exportAndCall(TRL, 'lengths', 'trl', (f) => `${f}(prompts=["p"], completions=["abcd"])`).value).toEqual([4]);
    const { text, value } = exportAndCall(TRL, 'lengths', 'verl', (f) => `${f}("", "abc", None)`);
    expect(text).toContain('custom_reward_function.name=compute_score_lengths');
    expect(value).toBe(3);
  });
  it('OpenRLHF → TRL (query = prompt + completion) and → verl', () => {
    expect(
      exportAndCall(OPENRLHF, 'reward_func', 'trl', (f) => `${f}(prompts=["Q: ", "Q: "], completions=["a 5", "a 6"], ground_truth=["5", "5"])`).value,
    ).toEqual([1, 0]);
    expect(exportAndCall(OPENRLHF, 'reward_func', 'verl', (f) => `${f}("", "a 5", "5")`).value).toBe(1);
  });
});
