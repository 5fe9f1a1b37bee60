import { readFileSync } from 'node:fs';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';
import { harnessFor } from './harness';
import { gpt2Files } from '../tokenize/testing/gpt2Files';
import { makeTokenEncoder } from '../tokenize/tokenIds';
import {
  holdPython,
  loadRewardModule,
  missingModuleMessage,
  NO_TOKENIZER_MESSAGE,
  preparePython,
  PythonLoadError,
  rowPayload,
  runPython,
  writeRowOf,
  type PythonRunOptions,
} from './runPython';
import { MarshalWriter } from './marshal';
import type { RewardKind } from './signatures';

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

const row = (index: number, completion: string, groundTruth?: string, fields: Record<string, unknown> = {}, prompt = 'Q?'): Trajectory => ({
  id: String(index),
  index,
  line: index + 1,
  group: 'g',
  prompt,
  completion,
  messages: [
    { role: 'user', content: prompt },
    { role: 'assistant', content: completion },
  ],
  ...(groundTruth !== undefined ? { groundTruth } : {}),
  fields: { prompt, completion, ...(groundTruth !== undefined ? { ground_truth: groundTruth } : {}), ...fields },
});

const lines = (...l: string[]) => l.join('\n') + '\n';

function run(code: string, name: string, kind: RewardKind, rows: Trajectory[], opts: PythonRunOptions = {}) {
  return runPython(py, code, { name, kind }, (i) => rows[i], 0, rows.length, opts);
}

const ROWS = [row(0, 'so A: 18', '18'), row(1, 'A: 1,000', '1000'), row(2, 'A: 17', '18'), row(3, 'no answer', '18')];

describe('TRL rewards: one call per batch, keyword arguments, dataset columns as lists', () => {
  it('scores with the columns as keyword lists, None → Null, in batches', () => {
    const code = lines(
      'calls = []',
      'def reward(completions, ground_truth, prompts=None, **kwargs):',
      '    calls.append((len(completions), sorted(kwargs)))',
      '    out = []',
      '    for c, gt in zip(completions, ground_truth):',
      '        if "A:" not in c:',
      '            out.append(None)',
      '        else:',
      '            out.append(1.0 if c.split("A:")[-1].strip().replace(",", "") == gt else 0.0)',
      '    print("batch", len(completions), kwargs["model"])',
      '    return out',
    );
    const rows = ROWS.map((r, i) => ({ ...r, fields: { ...r.fields, model: `m${i}` } }));
    const r = run(code, 'reward', 'trl', rows, { batchSize: 3 });
    expect(Array.from(r.scores.slice(0, 3))).toEqual([1, 1, 0]);
    expect(Number.isNaN(r.scores[3])).toBe(true);
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Ok, RowStatus.Null]);
    expect(r.errors).toEqual([]);
    // Two calls (3 + 1 rows); kwargs hold TRL's fixed arguments and the dataset column `model`.
    expect(py.runPython('repr(__import__("reward").calls)')).toBe(
      "[(3, ['completion_ids', 'log_extra', 'log_metric', 'model', 'trainer_state']), (1, ['completion_ids', 'log_extra', 'log_metric', 'model', 'trainer_state'])]",
    );
    expect(r.output).toEqual([
      { row: 0, rows: 3, text: "batch 3 ['m0', 'm1', 'm2']\n" },
      { row: 3, rows: 1, text: "batch 1 ['m3']\n" },
    ]);
    expect(r.stdout).toBe("batch 3 ['m0', 'm1', 'm2']\nbatch 1 ['m3']\n");
  });

  it('passes conversational completions as message lists, as TRL does', () => {
    const prompt = [{ role: 'user', content: 'What is 2+2?' }];
    const conv = (i: number, text: string): Trajectory => ({
      ...row(i, text, '4'),
      fields: { prompt, completion: [{ role: 'assistant', content: text }], ground_truth: '4' },
    });
    const code = lines(
      'def reward(prompts, completions, **kwargs):',
      '    assert prompts[0][0]["role"] == "user"',
      '    return [float(c[0]["content"] == "4") * len(c) for c in completions]',
    );
    const r = run(code, 'reward', 'trl', [conv(0, '4'), conv(1, '5')]);
    expect(Array.from(r.scores)).toEqual([1, 0]);
    // OpenAI `messages` rows are split at the final assistant turn, tool calls in TRL's shape.
    const t: Trajectory = {
      ...row(0, 'done'),
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: { x: 1 } }] },
        { role: 'tool', content: '2', toolCallId: 'c1', name: 'f' },
        { role: 'assistant', content: 'done' },
      ],
      fields: { messages: [] },
    };
    expect(rowPayload('trl', t)).toMatchObject({
      prompt: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', tool_calls: [{ type: 'function', id: 'c1', function: { name: 'f', arguments: { x: 1 } } }] },
        { role: 'tool', content: '2', tool_call_id: 'c1', name: 'f' },
      ],
      completion: [{ role: 'assistant', content: 'done' }],
    });
  });

  it('fails every row of a batch that raises, with the traceback line in reward.py', () => {
    const code = lines(
      'def helper(c):',
      '    return 1 / len(c)', // line 2: ZeroDivisionError for the empty completion
      '',
      'def reward(completions, **kwargs):',
      '    return [helper(c) for c in completions]', // line 5
    );
    const rows = [row(0, 'ab'), row(1, ''), row(2, 'abcd'), row(3, 'a')];
    const r = run(code, 'reward', 'trl', rows, { batchSize: 2 });
    expect(Array.from(r.status)).toEqual([RowStatus.Error, RowStatus.Error, RowStatus.Ok, RowStatus.Ok]);
    expect(Array.from(r.scores.slice(2))).toEqual([0.25, 1]);
    expect(r.errors).toEqual([
      { row: 0, message: 'ZeroDivisionError: division by zero', line: 2 },
      { row: 1, message: 'ZeroDivisionError: division by zero', line: 2 },
    ]);
  });

  it('rejects results that are not one number (or None) per completion, with a clear reason', () => {
    const rows = [row(0, 'a'), row(1, 'b')];
    const r1 = run('def reward(completions, **kw):\n    return ["1", 0.5]\n', 'reward', 'trl', rows);
    expect(r1.errors).toEqual([{ row: 0, message: "reward() returned str '1', expected a number" }]);
    expect(Array.from(r1.status)).toEqual([RowStatus.Error, RowStatus.Ok]);
    const r2 = run('def reward(completions, **kw):\n    return [1.0]\n', 'reward', 'trl', rows);
    expect(r2.errors.map((e) => e.message)).toEqual([
      'reward() returned 1 values for 2 rows, expected a list with one float (or None) per completion',
      'reward() returned 1 values for 2 rows, expected a list with one float (or None) per completion',
    ]);
    const r3 = run('def reward(completions, **kw):\n    pass\n', 'reward', 'trl', rows);
    expect(r3.errors[0].message).toBe('reward() returned NoneType None, expected a list with one float (or None) per completion');
    const r4 = run('def reward(completions, **kw):\n    return [float("nan"), True]\n', 'reward', 'trl', rows);
    expect(r4.errors).toEqual([{ row: 0, message: 'reward() returned nan, expected a finite number' }]);
    expect(r4.scores[1]).toBe(1); // a bool is a number in Python and in the frameworks
  });

  it('points a missing required parameter at the def line', () => {
    const r = run('\ndef reward(completions, answer, **kw):\n    return [0.0]\n', 'reward', 'trl', [row(0, 'a')]);
    expect(r.errors).toEqual([{ row: 0, message: "TypeError: reward() missing 1 required positional argument: 'answer'", line: 2 }]);
    // Without **kwargs, TRL's own keywords do not fit either (as in TRL).
    const r2 = run('def reward(completions):\n    return [0.0]\n', 'reward', 'trl', [row(0, 'a')]);
    expect(r2.errors).toEqual([{ row: 0, message: "TypeError: reward() got an unexpected keyword argument 'prompts'", line: 1 }]);
  });

  it('runs async rewards and passes log_extra values into row notes', () => {
    const code = lines(
      'import asyncio',
      'async def reward(completions, log_extra=None, trainer_state=None, log_metric=None, **kw):',
      '    await asyncio.sleep(0)',
      '    log_extra("len", [len(c) for c in completions])',
      '    log_metric("step", trainer_state.global_step)',
      '    return [1.0] * len(completions)',
    );
    const rows = [{ ...row(0, 'ab'), step: 7 }, row(1, 'abc')];
    const r = run(code, 'reward', 'trl', rows);
    expect(Array.from(r.scores)).toEqual([1, 1]);
    expect(r.notes).toEqual([
      { row: 0, note: 'len=2' },
      { row: 1, note: 'len=3' },
    ]);
    expect(r.metrics).toEqual([{ name: 'step', value: 7 }]);
  });
});

describe('verl rewards: compute_score per row, keyword arguments', () => {
  it('passes data_source, solution_str, ground_truth and extra_info; dict results give components and text columns', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    if data_source == "dict":',
      '        return {"score": 0.5, "acc": solution_str.endswith(ground_truth), "pred": solution_str[-2:], "split": extra_info["split"]}',
      '    if data_source == "bool":',
      '        return solution_str.endswith(ground_truth)',
      '    return len(extra_info) + (extra_info["num_turns"] is None) * 10',
    );
    const rows = [
      row(0, 'A: 18', '18', { data_source: 'dict', extra_info: { split: 'train', index: 3 } }),
      row(1, 'A: 17', '18', { data_source: 'bool' }),
      row(2, 'A: 17', '18', { extra_info: { split: 'test' } }),
    ];
    const r = run(code, 'compute_score', 'verl', rows);
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Ok]);
    // Row 2: extra_info = {split, num_turns: None, rollout_reward_scores: {}} → 3 keys + 10.
    expect(Array.from(r.scores)).toEqual([0.5, 0, 13]);
    expect(Array.from(r.components.acc)).toEqual([1, Number.NaN, Number.NaN]);
    expect(r.strings).toEqual({ pred: ['18', null, null], split: ['train', null, null] });
    expect(r.notes).toEqual([]);
    expect(rowPayload('verl', rows[2])).toEqual({
      data_source: '',
      solution_str: 'A: 17',
      ground_truth: '18',
      extra_info: { split: 'test', num_turns: null, rollout_reward_scores: {} },
    });
  });

  it('a row with no extra fields is written by the short path byte for byte as the payload path writes it', () => {
    const rows = [
      row(0, 'so A: 18', '18'),
      row(1, 'no ground truth'),
      row(2, 'é – 😀 and a lone \ud800', '7', { data_source: 'openai/gsm8k' }),
      row(3, '', '', { data_source: null }),
      // The others take the payload path: extra_info, num_turns, reward_scores, a data_source that is not a string,
      // a ground truth that is a number or a list.
      row(4, 'x', '1', { extra_info: { split: 'test', index: 4 } }),
      row(5, 'x', '1', { __num_turns__: 3 }),
      row(6, 'x', '1', { reward_scores: { rm: 0.5 } }),
      row(7, 'x', '1', { data_source: 12 }),
      { ...row(8, 'x'), groundTruth: 42 as unknown as string },
      { ...row(9, 'x'), groundTruth: ['a', 'b'] as unknown as string },
    ];
    for (const kind of ['verl', 'verl-source', 'verl-batch'] as const) {
      for (const copies of [false, true]) {
        for (const t of rows) {
          const fast = new MarshalWriter();
          const slow = new MarshalWriter();
          writeRowOf(fast, kind, t, copies);
          writeRowOf(slow, kind, t, copies, false);
          expect([...fast.bytes()]).toEqual([...slow.bytes()]);
        }
      }
    }
    // And Python reads the arguments the payload names (extra_info: its two defaults).
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    return len(data_source) * 1000 + len(solution_str) + (ground_truth is None) * 100 + sorted(extra_info).index("rollout_reward_scores") * 10000',
    );
    const r = run(code, 'compute_score', 'verl', rows.slice(0, 4));
    // Row 2's completion is 18 code points in Python (the emoji is one, the lone surrogate one).
    expect(Array.from(r.scores)).toEqual([8 + 10000, 15 + 100 + 10000, 12 * 1000 + 18 + 10000, 10000]);
  });

  it('keeps the first 16 string keys of a range, each cut at 200 characters; a failed row keeps none', () => {
    // Row 0 returns k0..k19: the first 16 names (dict order) are the range's columns, k16..k19 are left out.
    // Row 1's k0 is 250 "é", cut to 200 and an ellipsis. Row 2 raises: null in every column.
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    if solution_str == "many":',
      '        d = {"k%d" % j: str(j) for j in range(20)}',
      '        d["score"] = 1.0',
      '        return d',
      '    if solution_str == "long":',
      '        return {"score": 0.0, "k0": "é" * 250}',
      '    raise ValueError("no")',
    );
    const r = run(code, 'compute_score', 'verl', [row(0, 'many'), row(1, 'long'), row(2, 'boom')]);
    expect(Object.keys(r.strings!)).toEqual(Array.from({ length: 16 }, (_, j) => `k${j}`));
    expect(r.strings!.k3).toEqual(['3', null, null]);
    // 200 of the 250 "é" and one ellipsis.
    expect(r.strings!.k0).toEqual(['0', 'é'.repeat(200) + '…', null]);
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Error]);
  });

  it('fails only the row that raises, with its line; a non-number is an error with a reason', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    if solution_str == "boom":',
      '        raise ValueError("cannot parse " + repr(solution_str))', // line 3
      '    if solution_str == "text":',
      '        return "1"',
      '    if solution_str == "none":',
      '        return None',
      '    if solution_str == "nokey":',
      '        return {"acc": 1}',
      '    return 1',
    );
    const rows = ['ok', 'boom', 'text', 'none', 'nokey', 'ok'].map((c, i) => row(i, c, 'x'));
    const r = run(code, 'compute_score', 'verl', rows);
    expect(Array.from(r.status)).toEqual([1, 3, 3, 3, 3, 1]);
    expect(r.errors).toEqual([
      { row: 1, message: "ValueError: cannot parse 'boom'", line: 3 },
      { row: 2, message: "compute_score() returned str '1', expected a number" },
      { row: 3, message: "compute_score() returned None, expected a number or a dict with 'score'" },
      { row: 4, message: "compute_score() returned a dict without a 'score' key" },
    ]);
  });

  it('calls the batch form with plural keyword lists', () => {
    const code = lines(
      'def compute_score(data_sources, solution_strs, ground_truths, extra_infos, **kwargs):',
      '    return [{"score": float(s == g), "n": len(solution_strs)} for s, g in zip(solution_strs, ground_truths)]',
    );
    const r = run(code, 'compute_score', 'verl-batch', [row(0, 'a', 'a'), row(1, 'b', 'a'), row(2, 'a', 'a')], { batchSize: 2 });
    expect(Array.from(r.scores)).toEqual([1, 0, 1]);
    expect(Array.from(r.components.n)).toEqual([2, 2, 1]);
  });
});

describe('OpenRLHF rewards: reward_func(queries, prompts, labels) per batch', () => {
  it('passes prompt + completion as queries, and reads rewards, scores and extra_logs', () => {
    const code = lines(
      'def reward_func(queries, prompts, labels, **kwargs):',
      '    rewards = [float(q[len(p):].strip() == l) for q, p, l in zip(queries, prompts, labels)]',
      '    return {"rewards": rewards, "scores": [r * 0.5 for r in rewards],',
      '            "extra_logs": {"acc": sum(rewards) / len(rewards), "qlen": [len(q) for q in queries]}}',
    );
    const rows = [row(0, ' 4', '4', {}, '2+2='), row(1, ' 5', '4', {}, '2+2='), row(2, ' 9', '9', {}, '3*3=')];
    const r = run(code, 'reward_func', 'openrlhf', rows, { batchSize: 2 });
    expect(Array.from(r.scores)).toEqual([1, 0, 1]);
    expect(Array.from(r.components.scores)).toEqual([0.5, 0, 0.5]);
    expect(Array.from(r.components.acc)).toEqual([0.5, 0.5, 1]); // a batch scalar goes to each row of its batch
    expect(Array.from(r.components.qlen)).toEqual([6, 6, 6]);
    expect(rowPayload('openrlhf', rows[0])).toEqual({ query: '2+2= 4', prompt: '2+2=', label: '4' });
  });

  it('accepts a plain list (older OpenRLHF) and fails the batch on a missing rewards key', () => {
    const rows = [row(0, 'a', 'a'), row(1, 'b', 'a')];
    const r1 = run('def reward_func(queries, prompts, labels):\n    return [len(q) for q in queries]\n', 'reward_func', 'openrlhf', rows);
    expect(Array.from(r1.scores)).toEqual([3, 3]);
    const r2 = run('def reward_func(queries, prompts, labels):\n    return {"reward": [1, 1]}\n', 'reward_func', 'openrlhf', rows);
    expect(r2.errors.map((e) => e.message)).toEqual([
      "reward_func() returned a dict without a 'rewards' key",
      "reward_func() returned a dict without a 'rewards' key",
    ]);
  });
});

describe('loading, imports, output', () => {
  it('names the missing package, what is available and what to use instead when the code imports numpy', () => {
    const code = lines('import re', 'import numpy as np', '', 'def reward(completions, **kw):', '    return [0.0] * len(completions)');
    const l = loadRewardModule(py, code);
    const numpy =
      "ModuleNotFoundError: No module named 'numpy' (Python runs offline in the browser with Pyodide: the standard library, " +
      "sympy and mpmath are available; no other packages). Instead: the standard library's math and statistics modules, " +
      'and mpmath (shipped) for arbitrary precision';
    expect(l).toEqual({ ok: false, message: numpy, line: 2, stdout: '' });
    expect(missingModuleMessage('numpy')).toBe(numpy.slice(0, numpy.indexOf('. Instead: ')));
    expect(() => run(code, 'reward', 'trl', [row(0, 'a')])).toThrow(PythonLoadError);
    // Imported inside the function: each call fails with the same message and the import's line.
    const inner = lines('def reward(completions, **kw):', '    import torch', '    return [0.0] * len(completions)');
    const r = run(inner, 'reward', 'trl', [row(0, 'a')]);
    expect(r.errors).toEqual([
      {
        row: 0,
        message: missingModuleMessage('torch') + ". Instead: rewards run on the rows' text: the standard library and the studio's reward models (Models tab)",
        line: 2,
      },
    ]);
  });

  it("says what replaces math_verify, and only the package's name for others", () => {
    const l = loadRewardModule(py, lines('from math_verify import parse, verify'));
    expect(l.ok ? '' : l.message).toBe(
      missingModuleMessage('math_verify') +
        ". Instead: verl's own math_dapo / math_reward scorers (verl/utils/reward_score/math_dapo.py, math_reward.py) are pure " +
        'Python and run unchanged; sympy is shipped for symbolic checks (sympy.simplify(a - b) == 0)',
    );
    const other = loadRewardModule(py, lines('import some_private_pkg.sub'));
    expect(other.ok ? '' : other.message).toBe(missingModuleMessage('some_private_pkg'));
  });

  it('runs standard-library code (re, json, fractions, math) and keeps top-level print output', () => {
    const code = lines(
      'import re, json, math',
      'from fractions import Fraction',
      'print("loaded")',
      'def reward(completions, **kw):',
      '    return [float(Fraction(re.findall(r"\\d+/\\d+", c)[0])) + math.floor(json.loads("0.4")) for c in completions]',
    );
    const l = loadRewardModule(py, code);
    expect(l).toEqual({ ok: true, stdout: 'loaded\n', found: [] });
    const r = run(code, 'reward', 'trl', [row(0, 'x 3/4'), row(1, '1/8')]);
    expect(Array.from(r.scores)).toEqual([0.75, 0.125]);
    expect(r.stdout).toBe(''); // already loaded: top-level print ran once, at load
  });

  it('reports syntax errors, exceptions at import time and a missing function as load errors', () => {
    expect(loadRewardModule(py, 'def reward(completions):\n    return [\n')).toMatchObject({ ok: false, line: 2 });
    expect(loadRewardModule(py, 'x = 1\nraise RuntimeError("bad config")\n')).toEqual({
      ok: false,
      message: 'RuntimeError: bad config',
      line: 2,
      stdout: '',
    });
    const e = (() => {
      try {
        run('def other(completions):\n    return []\n', 'reward', 'trl', [row(0, 'a')]);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(PythonLoadError);
    expect((e as Error).message).toBe("reward.py defines no function named 'reward'");
  });

  it('does not run the code under if __name__ == "__main__"', () => {
    const code = lines(
      'def reward(completions, **kw):',
      '    return [1.0] * len(completions)',
      'if __name__ == "__main__":',
      '    raise SystemExit("training")',
    );
    expect(loadRewardModule(py, code)).toEqual({ ok: true, stdout: '', found: [] });
  });

  it('captures print() per call, capped, and works on a sub-range', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    print("row", solution_str)',
      '    if solution_str == "big":',
      '        print("x" * 30000)',
      '    return 1',
    );
    const rows = [row(0, 'a'), row(1, 'b'), row(2, 'big')];
    const r = runPython(py, code, { name: 'compute_score', kind: 'verl' }, (i) => rows[i], 1, 3);
    expect(r.start).toBe(1);
    expect(r.scores.length).toBe(2);
    expect(r.output.map((o) => [o.row, o.rows, o.text.length])).toEqual([
      [1, 1, 6],
      [2, 1, 20000 + '\n[10005 more characters of output not kept]'.length],
    ]);
    expect(r.output[0].text).toBe('row b\n');
  });
});

describe('datasetKey: rows kept in the interpreter across runs', () => {
  it('gives the same results as without a key, converts only rows not held, and hands each run fresh lists and dicts', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    extra_info["seen"] = extra_info.get("seen", 0) + 1', // a mutation must not reach the next run
      '    ground_truth.append("x")',
      '    print(solution_str, extra_info["seen"], len(ground_truth))',
      '    return extra_info["seen"] * 10 + len(ground_truth)',
    );
    const rows = ['a', 'b', 'c', 'd'].map((c, i) => row(i, c, undefined, { ground_truth: ['g'], extra_info: { k: i } }));
    rows.forEach((r) => (r.groundTruth = ['g'] as unknown as string));
    const rowAt = (i: number) => rows[i];
    const choice = { name: 'compute_score', kind: 'verl' as const };
    const plain = runPython(py, code, choice, rowAt, 0, 4);
    const key = {};
    const h = harnessFor(py);
    const first = runPython(py, code, choice, rowAt, 0, 2, { datasetKey: key });
    const keyId = 0; // unknown ids hold nothing
    expect(JSON.parse(h.missing(keyId, 'verl', 0, 4))).toEqual([[0, 4]]);
    const all = runPython(py, code, choice, rowAt, 0, 4, { datasetKey: key });
    const again = runPython(py, code, choice, rowAt, 0, 4, { datasetKey: key });
    for (const r of [all, again]) {
      expect(Array.from(r.status)).toEqual([1, 1, 1, 1]);
      expect(Array.from(r.scores)).toEqual(Array.from(plain.scores));
      expect(r.stdout).toBe(plain.stdout);
    }
    expect(Array.from(first.scores)).toEqual([12, 12]);
    expect(Array.from(again.scores)).toEqual([12, 12, 12, 12]);
    // A sub-range of held rows, and another dataset (a new key) with other rows: nothing stale.
    const sub = runPython(py, code, choice, rowAt, 2, 4, { datasetKey: key });
    expect(sub.output.map((o) => [o.row, o.text])).toEqual([
      [2, 'c 1 2\n'],
      [3, 'd 1 2\n'],
    ]);
    const other = rows.map((r) => ({ ...r, completion: r.completion.toUpperCase() }));
    const o = runPython(py, code, choice, (i) => other[i], 0, 4, { datasetKey: other });
    expect(o.output.map((x) => x.text)).toEqual(['A 1 2\n', 'B 1 2\n', 'C 1 2\n', 'D 1 2\n']);
  });

  it("makes the next run's copies ahead (preparePython): each used once, the rest made when needed, none stale", () => {
    // extra_info is the only dict (the one-container shape), then ground_truth a list too (the general shape): each
    // run must see {"k": i} and ["g"] untouched, so every call prints seen=1 and returns 10 + 1 (or 10 + 2).
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    extra_info["seen"] = extra_info.get("seen", 0) + 1',
      '    n = 0',
      '    if isinstance(ground_truth, list):',
      '        ground_truth.append("x")',
      '        n = len(ground_truth)',
      '    return extra_info["seen"] * 10 + extra_info["k"] * 100 + n',
    );
    const choice = { name: 'compute_score', kind: 'verl' as const };
    for (const gt of ['7', ['g']]) {
      const rows = ['a', 'b', 'c', 'd'].map((c, i) => row(i, c, undefined, { extra_info: { k: i } }));
      rows.forEach((r) => (r.groundTruth = gt as unknown as string));
      const n = Array.isArray(gt) ? 2 : 0;
      const want = (from: number, to: number) => [0, 1, 2, 3].slice(from, to).map((i) => 10 + 100 * i + n);
      const run = (from: number, to: number) => Array.from(runPython(py, code, choice, (i) => rows[i], from, to, { datasetKey: rows }).scores);
      preparePython(py); // what earlier runs (other tests) left
      expect(preparePython(py)).toBe(0); // nothing used since
      expect(run(0, 4)).toEqual(want(0, 4));
      expect(preparePython(py)).toBe(4);
      expect(preparePython(py)).toBe(0); // made once; nothing used since
      expect(run(1, 3)).toEqual(want(1, 3)); // the copies of rows 1 and 2 made ahead
      expect(run(0, 4)).toEqual(want(0, 4)); // rows 0 and 3 made ahead, 1 and 2 made now
      expect(preparePython(py)).toBe(4);
      expect(run(0, 4)).toEqual(want(0, 4));
    }
    // Copies made ahead for one dataset are dropped when another is run.
    const a = [0, 1].map((i) => row(i, 'a', '1', { extra_info: { k: i } }));
    const b = [0, 1].map((i) => row(i, 'b', '1', { extra_info: { k: i + 5 } }));
    expect(Array.from(runPython(py, code, choice, (i) => a[i], 0, 2, { datasetKey: a }).scores)).toEqual([10, 110]);
    expect(preparePython(py)).toBe(2);
    expect(Array.from(runPython(py, code, choice, (i) => b[i], 0, 2, { datasetKey: b }).scores)).toEqual([510, 610]);
    expect(preparePython(py)).toBe(2);
    expect(Array.from(runPython(py, code, choice, (i) => b[i], 0, 2, { datasetKey: b }).scores)).toEqual([510, 610]);
  });

  it('holdPython (a spare): rows converted and their copies made before any code; the run then converts none', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    extra_info["seen"] = extra_info.get("seen", 0) + 1',
      '    return extra_info["seen"] * 10 + extra_info["k"] * 100 + len(solution_str)',
    );
    const choice = { name: 'compute_score', kind: 'verl' as const };
    const rows = ['a', 'bb', 'ccc', 'dddd'].map((c, i) => row(i, c, '1', { extra_info: { k: i } }));
    expect(holdPython(py, 'verl', (i) => rows[i], 1, 4, rows)).toBe(3);
    expect(holdPython(py, 'verl', (i) => rows[i], 1, 4, rows)).toBe(0); // held: nothing to do
    // Rows 1-3 held with their copies made; row 0 converted by the run. Every call sees its rows untouched.
    const got = runPython(py, code, choice, (i) => rows[i], 0, 4, { datasetKey: rows });
    expect(Array.from(got.scores)).toEqual([11, 112, 213, 314]);
    expect(Array.from(runPython(py, code, choice, (i) => rows[i], 0, 4, { datasetKey: rows }).scores)).toEqual([11, 112, 213, 314]);
  });

  it('keeps rows per kind (TRL after verl on the same key), with conversational lists copied for each run', () => {
    const code = lines(
      'def reward(prompts, completions, **kwargs):',
      '    out = []',
      '    for p, c in zip(prompts, completions):',
      '        c.append({"role": "user", "content": "mutated"})',
      '        out.append(float(len(c) * 10 + len(kwargs["tags"][0])))',
      '        kwargs["tags"][0].append("x")',
      '    return out',
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    return len(solution_str)',
    );
    const rows = [0, 1, 2].map((i) =>
      row(i, 'ignored', undefined, {
        prompt: [{ role: 'user', content: `q${i}` }],
        completion: [{ role: 'assistant', content: 'a'.repeat(i + 1) }],
        tags: ['t'],
      }),
    );
    const key = {};
    const v = runPython(py, code, { name: 'compute_score', kind: 'verl' }, (i) => rows[i], 0, 3, { datasetKey: key });
    expect(Array.from(v.scores)).toEqual([7, 7, 7]);
    for (let k = 0; k < 3; k++) {
      const t = runPython(py, code, { name: 'reward', kind: 'trl' }, (i) => rows[i], 0, 3, { datasetKey: key, batchSize: 2 });
      expect(Array.from(t.scores)).toEqual([21, 22, 21]);
      if (k === 1) expect(preparePython(py)).toBe(3); // the third run takes copies made ahead
    }
  });

  it('publishes each call to onCall with the interrupt cleared, with or without a key', () => {
    const code = lines('def compute_score(data_source, solution_str, ground_truth, extra_info=None):', '    return 1');
    const rows = [0, 1, 2].map((i) => row(i, 'x'));
    const interrupt = new Int32Array(new SharedArrayBuffer(4));
    for (const datasetKey of [undefined, rows, rows]) {
      const calls: [number, number][] = [];
      const r = runPython(py, code, { name: 'compute_score', kind: 'verl' }, (i) => rows[i], 1, 3, {
        interrupt,
        datasetKey,
        onCall: (first, count) => calls.push([first, count]),
      });
      expect(Array.from(r.status)).toEqual([1, 1]);
      expect(calls).toEqual([
        [1, 1],
        [2, 1],
      ]);
    }
    const calls: [number, number][] = [];
    const code2 = lines('def reward(completions, **kw):', '    return [1.0] * len(completions)');
    runPython(py, code2, { name: 'reward', kind: 'trl' }, (i) => rows[i], 0, 3, { batchSize: 2, onCall: (f, c) => calls.push([f, c]) });
    expect(calls).toEqual([
      [0, 2],
      [2, 1],
    ]);
  });
});

describe('reward-model scores for Python rewards', () => {
  // Rows 0..3; the model has no score for row 2 (NaN): that row's dict leaves the model out.
  const models = { columns: { rm: Float64Array.from([0.5, -1, Number.NaN, 2]), other: Float64Array.from([1, 1, 1, 1]) }, offset: 0 };

  it('verl: extra_info["rollout_reward_scores"] holds each model\'s score for the row', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    s = extra_info["rollout_reward_scores"]',
      '    return s.get("rm", 100.0) + 10 * len(s)',
    );
    const r = run(code, 'compute_score', 'verl', ROWS, { models });
    // rm + 10 × (number of models with a score): 0.5 + 20, −1 + 20, 100 + 10 (rm missing), 2 + 20
    expect(Array.from(r.scores)).toEqual([20.5, 19, 110, 22]);
  });

  it('verl keeps rollout scores the data already has, and a run without models sees none of them', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    return float(len(extra_info["rollout_reward_scores"]))',
    );
    const rows = ROWS.map((t) => ({ ...t, fields: { ...t.fields, reward_scores: { judge: 1 } } }));
    expect(Array.from(run(code, 'compute_score', 'verl', rows, { models }).scores)).toEqual([3, 3, 2, 3]);
    expect(Array.from(run(code, 'compute_score', 'verl', rows).scores)).toEqual([1, 1, 1, 1]);
  });

  it('TRL: the column model_scores, one dict per completion, in every batch', () => {
    const code = lines('def reward(completions, model_scores, **kwargs):', '    return [s.get("rm", -9.0) * 2 for s in model_scores]');
    const r = run(code, 'reward', 'trl', ROWS, { models, batchSize: 3 });
    // 2 × rm; row 2 has no rm score → −9 × 2
    expect(Array.from(r.scores)).toEqual([1, -2, -18, 4]);
  });

  it('the scores follow the range: rows 2..3 read offsets 2 and 3 of a column given from row 0', () => {
    const code = lines(
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    return extra_info["rollout_reward_scores"].get("rm", 7.0)',
    );
    const r = runPython(py, code, { name: 'compute_score', kind: 'verl' }, (i) => ROWS[i], 2, 4, { models });
    expect(Array.from(r.scores)).toEqual([7, 2]);
  });
});

describe('an interrupt that lands in the harness’s own code, between calls', () => {
  // What a watchdog's interrupt meant for a call that had just ended can do. To make it land there every time,
  // onCall (run by the harness just before a call, outside the call's try) stores it and has Pyodide look at once:
  // the KeyboardInterrupt is raised where the harness called onCall.
  const withInterrupt = <T>(f: (buffer: Int32Array) => T): T => {
    const buffer = new Int32Array(new SharedArrayBuffer(4));
    py.setInterruptBuffer(buffer);
    try {
      return f(buffer);
    } finally {
      py.setInterruptBuffer(undefined as unknown as Int32Array);
    }
  };
  const CODE = {
    verl: lines('def compute_score(data_source, solution_str, ground_truth, extra_info=None):', '    return float(len(solution_str))'),
    trl: lines('def reward(completions, **kwargs):', '    return [float(len(c)) for c in completions]'),
  };

  it.each(['verl', 'trl'] as const)('%s: the range runs again, once, from its start, after beforeRetry; every row is scored', (kind) => {
    const calls: number[] = [];
    const r = withInterrupt((buffer) =>
      runPython(py, CODE[kind], { name: kind === 'verl' ? 'compute_score' : 'reward', kind }, (i) => ROWS[i], 0, 4, {
        batchSize: 2,
        interrupt: buffer,
        onCall: (row) => {
          calls.push(row);
          if (calls.length === 2) {
            Atomics.store(buffer, 0, 2);
            py.checkInterrupt();
          }
        },
        beforeRetry: () => calls.push(-1),
      }),
    );
    // verl: one call per row; TRL: batches of 2. The second call's start was interrupted, then all of it again.
    expect(calls).toEqual(kind === 'verl' ? [0, 1, -1, 0, 1, 2, 3] : [0, 2, -1, 0, 2]);
    expect(Array.from(r.scores)).toEqual(ROWS.map((t) => t.completion.length));
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Ok, RowStatus.Ok]);
    expect(r.errors).toEqual([]);
  });

  it('when it lands there again on the second run, runPython throws (the caller fails the range)', () => {
    let calls = 0;
    expect(() =>
      withInterrupt((buffer) =>
        runPython(py, CODE.verl, { name: 'compute_score', kind: 'verl' }, (i) => ROWS[i], 0, 4, {
          interrupt: buffer,
          onCall: () => {
            if (++calls % 2 === 0) {
              Atomics.store(buffer, 0, 2);
              py.checkInterrupt();
            }
          },
        }),
      ),
    ).toThrow(/^the Python harness failed: KeyboardInterrupt/);
    expect(calls).toBe(4); // 2 calls, then again 2 calls
  });
});

describe('TRL completion_ids: the chosen tokenizer’s ids, only for functions that read them (issue 22)', () => {
  // Figures from scripts/completion-ids-expected.py: CPython on ids from a GPT-2 BPE written in Python.
  const expected = JSON.parse(readFileSync(new URL('../tokenize/testing/gpt2-demo-ids.json', import.meta.url), 'utf8')) as { checksums: number[] };
  const demo = readFileSync(new URL('../../../public/demo/gsm8k-rollouts.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .slice(0, 8)
    .map((l, i) => row(i, (JSON.parse(l) as { completion: string }).completion));
  const gpt2 = makeTokenEncoder(...gpt2Files());
  const soft = readFileSync(new URL('../../../e2e/fixtures/trl_soft_overlong.py', import.meta.url), 'utf8');
  const checksum = lines(
    'def checksum(completion_ids, **kwargs):',
    '    return [float(sum((k + 1) * i for k, i in enumerate(ids)) % 1000003) for ids in completion_ids]',
  );

  it('TRL’s soft overlong punishment on the demo’s first 8 completions scores as CPython does on the same ids', () => {
    const r = runPython(py, soft, { name: 'soft', kind: 'trl' }, (i) => demo[i], 0, 8, { completionIds: gpt2, batchSize: 3 });
    expect(r.errors).toEqual([]);
    // GPT-2 lengths 65, 106, 120, 99, 50, 57, 132, 71 against max 100, cache 20: 99 gives (80 − 99) / 20 = −0.95.
    expect(Array.from(r.scores)).toEqual([0, -1, -1, -0.95, 0, 0, -1, 0]);
  });

  it('the ids themselves: each list’s checksum is the Python BPE’s; a chat’s ids are its last assistant message’s', () => {
    const r = runPython(py, checksum, { name: 'checksum', kind: 'trl' }, (i) => demo[i], 0, 8, { completionIds: gpt2 });
    expect(Array.from(r.scores)).toEqual(expected.checksums.slice(0, 8));
    const chat: Trajectory = {
      ...row(0, 'not this'),
      messages: [
        { role: 'user', content: 'Q?' },
        { role: 'assistant', content: 'Hello world' },
        { role: 'user', content: 'again' },
        { role: 'assistant', content: 'A: 18' },
      ],
    };
    // "A: 18" is GPT-2 [32, 25, 1248]: 1·32 + 2·25 + 3·1248 = 3826.
    const c = runPython(py, checksum, { name: 'checksum', kind: 'trl' }, () => chat, 0, 1, { completionIds: gpt2 });
    expect(Array.from(c.scores)).toEqual([3826]);
  });

  it('other conventions are not tokenized for; a TRL function that reads ids without a tokenizer fails, saying how to choose one', () => {
    // TRL passes every argument by keyword, so a TRL reward names completion_ids or takes **kwargs: only the other
    // conventions (verl, OpenRLHF) can go without, and they get no ids.
    let calls = 0;
    const counting = (t: string) => (calls++, gpt2(t));
    const verl = lines('def compute_score(data_source, solution_str, ground_truth, extra_info=None):', '    return float(len(solution_str) < 100)');
    const r = runPython(py, verl, { name: 'compute_score', kind: 'verl' }, (i) => demo[i], 0, 8, { completionIds: counting });
    expect(r.errors).toEqual([]);
    expect(calls).toBe(0);
    const named = lines(
      'def short(prompts, completions, completion_ids, trainer_state, log_extra, log_metric):',
      '    return [float(len(ids)) for ids in completion_ids]',
    );
    const n = runPython(py, named, { name: 'short', kind: 'trl' }, (i) => demo[i], 0, 2, { completionIds: counting });
    expect(calls).toBe(2);
    expect(Array.from(n.scores)).toEqual([65, 106]);
    // Without a tokenizer: a function that reads the ids fails with the reason (at its line); one that only takes
    // **kwargs and never reads them runs as before.
    const none = runPython(py, soft, { name: 'soft', kind: 'trl' }, (i) => demo[i], 0, 2);
    expect(Array.from(none.status)).toEqual([RowStatus.Error, RowStatus.Error]);
    expect(none.errors.map((e) => [e.message, e.line])).toEqual([
      [`RuntimeError: ${NO_TOKENIZER_MESSAGE}`, 21],
      [`RuntimeError: ${NO_TOKENIZER_MESSAGE}`, 21],
    ]);
    const kw = runPython(py, lines('def f(completions, **kwargs):', '    return [1.0 for c in completions]'), { name: 'f', kind: 'trl' }, (i) => demo[i], 0, 2);
    expect(Array.from(kw.scores)).toEqual([1, 1]);
    expect(NO_TOKENIZER_MESSAGE).toMatch(/pick one under Tokenizer \(the CLI: --tokenizer gpt2, qwen3 or llama3\)/);
  });

  it('**kwargs alone costs no tokenizing; **kwargs in a file that reads kwargs["completion_ids"] gets the ids', () => {
    let calls = 0;
    const counting = (t: string) => (calls++, gpt2(t));
    const plain = lines('def f(completions, **kwargs):', '    return [float(len(c)) for c in completions]');
    const p = runPython(py, plain, { name: 'f', kind: 'trl' }, (i) => demo[i], 0, 2, { completionIds: counting });
    expect(calls).toBe(0);
    expect(p.errors).toEqual([]);
    const reads = lines('def f(completions, **kwargs):', '    return [float(len(ids)) for ids in kwargs["completion_ids"]]');
    const r = runPython(py, reads, { name: 'f', kind: 'trl' }, (i) => demo[i], 0, 2, { completionIds: counting });
    expect(calls).toBe(2);
    expect(Array.from(r.scores)).toEqual([65, 106]);
  });
});
