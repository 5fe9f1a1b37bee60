/**
 * The frameworks' own reward-file shapes run unchanged (issue 22): fixtures of our own in testing/frameworks/
 * (helpers above the entry point, verl per-source and custom signatures, dict results with strings, TRL reward
 * objects: a factory's result and a callable class instance), run through the harness in Pyodide, against what
 * CPython returned for the same files called the frameworks' way (scripts/framework-fixtures.py →
 * testing/frameworks/expected.json).
 */
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';
import { chooseRewardFunction, defaultRewardFunction, describeChoice, pickRewardFunction } from './choose';
import { exportReward } from './exportReward';
import { ALL_NONE_NOTE } from '../reward/weighted';
import { PythonLoadError, runPython } from './runPython';
import { findRewardFunctions, type RewardCandidate, type RewardKind } from './signatures';
import expected from './testing/frameworks/expected.json';
import CUSTOM from './testing/frameworks/custom_verl.py?raw';
import DAPO from './testing/frameworks/per_source_dapo.py?raw';
import GSM8K from './testing/frameworks/per_source_gsm8k.py?raw';
import OBJECTS from './testing/frameworks/trl_objects.py?raw';
import LIST from './testing/frameworks/trl_reward_funcs.py?raw';

const FILES: Record<string, string> = {
  'per_source_gsm8k.py': GSM8K,
  'per_source_dapo.py': DAPO,
  'custom_verl.py': CUSTOM,
  'trl_objects.py': OBJECTS,
};

/** The single-function cases of expected.json (the reward_funcs case has its own shape, tested below). */
const SINGLE = expected.cases.filter((c) => c.kind !== 'trl-list') as { file: string; name: string; kind: string; results: unknown[] }[];
const LISTED = expected.cases.find((c) => c.kind === 'trl-list')!.results as {
  functions: Record<string, (number | null)[]>;
  weights: number[];
  total: number[];
};

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

const ROWS: Trajectory[] = expected.rows.map((r, i) => ({
  id: String(i),
  index: i,
  line: i + 1,
  group: 'g',
  prompt: 'Q?',
  completion: r.completion,
  messages: [
    { role: 'user', content: 'Q?' },
    { role: 'assistant', content: r.completion },
  ],
  groundTruth: r.ground_truth,
  fields: { prompt: 'Q?', completion: r.completion, ground_truth: r.ground_truth, data_source: r.data_source },
}));

function candidates(code: string): RewardCandidate[] {
  const r = findRewardFunctions(py, code);
  if (!r.ok) throw new Error(r.message);
  return r.candidates;
}

const brief = (cs: RewardCandidate[]) => cs.map(({ name, kind, line }) => ({ name, kind, line }));

describe('entry points as the frameworks pick them', () => {
  it('a per-source scorer: helpers above it are listed, compute_score(solution_str, ground_truth, ...) is the default', () => {
    const cs = candidates(GSM8K);
    expect(brief(cs)).toEqual([
      { name: 'extract_solution', kind: 'verl-source', line: 8 },
      { name: 'compute_score', kind: 'verl-source', line: 24 },
    ]);
    const chosen = defaultRewardFunction(cs)!;
    expect(chosen.name).toBe('compute_score');
    expect(describeChoice(chosen)).toBe('compute_score: verl per-source signature');
    // math_dapo's helpers: is_correct_minerva takes solution_str, last_boxed_only_string does not.
    const dapo = candidates(DAPO);
    expect(brief(dapo).map((c) => c.name)).toEqual(['is_correct_minerva', 'compute_score']);
    expect(defaultRewardFunction(dapo)?.name).toBe('compute_score');
    // The studio keeps the user's pick while it exists, else takes the default.
    expect(pickRewardFunction(dapo, 'is_correct_minerva')?.name).toBe('is_correct_minerva');
    expect(pickRewardFunction(dapo, 'renamed_since')?.name).toBe('compute_score');
    expect(pickRewardFunction(dapo, null)?.name).toBe('compute_score');
  });

  it('a custom reward function below a helper: called by keyword', () => {
    const cs = candidates(CUSTOM);
    expect(brief(cs)).toEqual([
      { name: 'extract_answer', kind: 'verl-source', line: 5 },
      { name: 'compute_score', kind: 'verl', line: 11 },
    ]);
    expect(describeChoice(defaultRewardFunction(cs)!)).toBe('compute_score: verl custom-function signature');
  });

  it('TRL reward objects: a factory’s result and a callable class instance; a compiled regex is no candidate', () => {
    const cs = candidates(OBJECTS);
    expect(cs.map(({ name, kind, line, object, params }) => ({ name, kind, line, object, params }))).toEqual([
      {
        name: 'soft',
        kind: 'trl',
        line: 42,
        object: 'get_soft_overlong_punishment(max_completion_len=20, soft_punish_cache=5)',
        params: ['completions'],
      },
      { name: 'repetition', kind: 'trl', line: 43, object: 'RepetitionPenalty(ngram_size=2, max_penalty=-1.0)', params: ['completions'] },
    ]);
    expect(describeChoice(cs[0])).toBe('soft: TRL reward object, get_soft_overlong_punishment(max_completion_len=20, soft_punish_cache=5)');
    expect(defaultRewardFunction(cs)?.name).toBe('soft');
  });

  it('preference: compute_score, then TRL rewards, then OpenRLHF reward_func, helpers last', () => {
    const code = [
      'def extract_solution(solution_str, method="strict"):',
      '    return solution_str',
      'def reward_func(queries, prompts, labels):',
      '    return [0.0] * len(queries)',
      'def fmt(completions, **kwargs):',
      '    return [0.0] * len(completions)',
      'def compute_score(solution_str, ground_truth):',
      '    return 0.0',
      '',
    ];
    const pick = (lines: string[]) => chooseRewardFunction(candidates(lines.join('\n')), null);
    expect(pick(code)).toMatchObject({ ok: true, chosen: { name: 'compute_score', kind: 'verl-source' } });
    expect(pick(code.slice(0, 6))).toMatchObject({ ok: true, chosen: { name: 'fmt', kind: 'trl' } });
    expect(pick(code.slice(0, 4))).toMatchObject({ ok: true, chosen: { name: 'reward_func', kind: 'openrlhf' } });
    expect(pick(code.slice(0, 2))).toMatchObject({ ok: true, chosen: { name: 'extract_solution', kind: 'verl-source' } });
    // A name the user picked wins.
    expect(chooseRewardFunction(candidates(code.join('\n')), 'fmt')).toMatchObject({ ok: true, chosen: { name: 'fmt' } });
  });

  it('other reward objects the parse follows: a lambda, functools.partial of a def; a later literal replaces a def, a wrapper keeps it', () => {
    const cs = candidates(
      [
        'import functools',
        'def base(completions, weight=1.0, **kwargs):',
        '    return [weight] * len(completions)',
        'half = functools.partial(base, weight=0.5)',
        'short = lambda completions, **kw: [float(len(c) < 10) for c in completions]',
        'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
        '    return 0.0',
        'compute_score = 3',
        'def fmt(completions, **kwargs):',
        '    return [0.0] * len(completions)',
        'fmt = functools.lru_cache(maxsize=None)(fmt)',
        '',
      ].join('\n'),
    );
    expect(cs.map((c) => [c.name, c.kind, c.object ?? null])).toEqual([
      ['base', 'trl', null],
      ['half', 'trl', 'functools.partial(base, weight=0.5)'],
      ['short', 'trl', 'lambda completions, **kw: [float(len(c) < 10) for c in completions]'],
      // A wrapper the parse cannot follow keeps the def's signature (the harness reads the real one at run time).
      ['fmt', 'trl', null],
    ]);
  });
});

/** The studio's reading of a result as CPython returned it: score, numeric (and bool) keys as components, strings as text columns. */
function reading(v: unknown): { score: number; components: Record<string, number>; strings: Record<string, string> } {
  if (typeof v === 'number') return { score: v, components: {}, strings: {} };
  const d = v as Record<string, unknown>;
  const components: Record<string, number> = {};
  const strings: Record<string, string> = {};
  for (const [k, x] of Object.entries(d)) {
    if (k === 'score') continue;
    if (typeof x === 'number' || typeof x === 'boolean') components[k] = Number(x);
    else if (typeof x === 'string') strings[k] = x;
  }
  return { score: d.score as number, components, strings };
}

describe('the harness gives what CPython gives for the same files (expected.json)', () => {
  it.each(SINGLE.map((c) => [c.file, c.name, c.kind, c] as const))('%s: %s (%s)', (file, name, kind, c) => {
    const code = FILES[file];
    expect(defaultRewardFunction(candidates(code))?.name).toBe(file === 'trl_objects.py' ? 'soft' : name);
    const r = runPython(py, code, { name, kind: kind as RewardKind }, (i) => ROWS[i], 0, ROWS.length, { batchSize: 4 });
    expect(r.errors).toEqual([]);
    expect(Array.from(r.status)).toEqual(ROWS.map(() => RowStatus.Ok));
    const want = c.results.map(reading);
    expect(Array.from(r.scores)).toEqual(want.map((w) => w.score));
    const names = [...new Set(want.flatMap((w) => Object.keys(w.components)))];
    expect(Object.keys(r.components).sort()).toEqual(names.sort());
    for (const k of names) expect(Array.from(r.components[k])).toEqual(want.map((w) => w.components[k]));
    const texts = [...new Set(want.flatMap((w) => Object.keys(w.strings)))];
    expect(Object.keys(r.strings ?? {}).sort()).toEqual(texts.sort());
    for (const k of texts) expect(r.strings![k]).toEqual(want.map((w) => w.strings[k] ?? null));
    expect(r.notes).toEqual([]);
  });

  it('a reward_funcs list with reward_weights: the weighted nansum, each function a column (None as NaN)', () => {
    const cs = candidates(LIST);
    const list = defaultRewardFunction(cs)!;
    expect(list).toMatchObject({
      name: 'reward_funcs',
      kind: 'trl',
      functions: [
        { name: 'format_reward', weight: 0.5 },
        { name: 'accuracy_reward', weight: 2 },
      ],
    });
    expect(describeChoice(list)).toBe('reward_funcs: TRL reward_funcs, format_reward × 0.5 + accuracy_reward × 2');
    const r = runPython(py, LIST, { name: list.name, kind: list.kind, functions: list.functions }, (i) => ROWS[i], 0, ROWS.length, { batchSize: 3 });
    expect(r.errors).toEqual([]);
    expect(Array.from(r.scores)).toEqual(LISTED.total);
    for (const [name, values] of Object.entries(LISTED.functions)) {
      expect(Array.from(r.components[name])).toEqual(values.map((v) => v ?? Number.NaN));
    }
    // The last row: every function returned None, so TRL's nansum gives 0; the row says so.
    expect(r.notes).toEqual([{ row: 6, note: ALL_NONE_NOTE }]);
  });

  it('a reward_funcs list TRL would refuse is refused with TRL’s reason', () => {
    const wrong = LIST.replace('reward_weights = [0.5, 2.0]', 'reward_weights = [0.5]');
    expect(chooseRewardFunction(candidates(wrong), null)).toEqual({ ok: false, message: 'reward_weights has 1 weights for 2 reward functions' });
    const unknown = LIST.replace('[format_reward, accuracy_reward]', '[format_reward, think_reward]');
    expect(chooseRewardFunction(candidates(unknown), null)).toEqual({
      ok: false,
      message: 'reward_funcs names think_reward, which the file does not define at the top level',
    });
  });

  it('math_dapo’s dict: acc (a bool) is a 0/1 component, pred (a string) a text column', () => {
    const r = runPython(py, DAPO, { name: 'compute_score', kind: 'verl-source' }, (i) => ROWS[i], 0, ROWS.length);
    expect(r.scores[4]).toBe(1);
    expect(r.components.acc[4]).toBe(1);
    expect(r.components.acc[0]).toBe(0);
    expect(r.strings?.pred[4]).toBe('42');
    expect(r.notes).toEqual([]);
  });

  it('a per-source scorer called by keyword would fail as issue 22 reports; called positionally it does not', () => {
    const kw = runPython(py, GSM8K, { name: 'compute_score', kind: 'verl' }, (i) => ROWS[i], 0, 1);
    expect(kw.errors[0].message).toMatch(/unexpected keyword argument 'data_source'/);
    const pos = runPython(py, GSM8K, { name: 'compute_score', kind: 'verl-source' }, (i) => ROWS[i], 0, 1);
    expect(pos.errors).toEqual([]);
  });

  it('a reward object whose call signature, read at run time, is no reward’s is refused with that signature', () => {
    const code = 'class A:\n    def __call__(self, x):\n        return [0.0]\n\nobj = [A()][0]\n';
    expect(candidates(code)).toEqual([]);
    expect(() => runPython(py, code, { name: 'obj', kind: 'trl' }, (i) => ROWS[i], 0, 1)).toThrow(PythonLoadError);
    expect(() => runPython(py, code, { name: 'obj', kind: 'trl' }, (i) => ROWS[i], 0, 1)).toThrow(
      /reward\.obj is A .*, whose call signature \(x\) is not a reward's/,
    );
  });
});

describe('Export for TRL / verl of a per-source scorer round-trips', () => {
  it('verl: a custom-function adapter; TRL: an adapter per completion; both give the scorer’s scores', () => {
    const fn = candidates(GSM8K).find((c) => c.name === 'compute_score')!;
    const verl = exportReward(GSM8K, fn, 'verl');
    expect(verl.functionName).toBe('compute_score_custom');
    const trl = exportReward(GSM8K, fn, 'trl');
    const want = expected.cases[0].results;
    const viaVerl = runPython(py, verl.text, { name: 'compute_score_custom', kind: 'verl' }, (i) => ROWS[i], 0, ROWS.length);
    expect(Array.from(viaVerl.scores)).toEqual(want);
    const viaTrl = runPython(py, trl.text, { name: 'compute_score_trl', kind: 'trl' }, (i) => ROWS[i], 0, ROWS.length);
    expect(Array.from(viaTrl.scores)).toEqual(want);
    // The exported file, back in the studio, still calls the scorer by default.
    expect(defaultRewardFunction(candidates(verl.text))?.name).toBe('compute_score');
  });
});

describe('Export for TRL / verl of a reward_funcs list round-trips', () => {
  it('TRL: the list and its weights for GRPOConfig; verl: one custom function summing weight × value; both give the weighted totals', () => {
    const list = defaultRewardFunction(candidates(LIST))!;
    const trl = exportReward(LIST, list, 'trl');
    expect(trl.text).toContain('trainer = GRPOTrainer(..., reward_funcs=reward_funcs, args=GRPOConfig(..., reward_weights=[0.5, 2]))');
    const back = defaultRewardFunction(candidates(trl.text))!;
    const viaTrl = runPython(py, trl.text, { name: back.name, kind: back.kind, functions: back.functions }, (i) => ROWS[i], 0, ROWS.length);
    expect(Array.from(viaTrl.scores)).toEqual(LISTED.total);
    const verl = exportReward(LIST, list, 'verl');
    expect(verl.functionName).toBe('compute_score_reward_funcs');
    const viaVerl = runPython(py, verl.text, { name: verl.functionName, kind: 'verl' }, (i) => ROWS[i], 0, ROWS.length);
    expect(viaVerl.errors).toEqual([]);
    expect(Array.from(viaVerl.scores)).toEqual(LISTED.total);
  });
});
