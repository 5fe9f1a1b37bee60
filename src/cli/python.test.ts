/**
 * `reward-studio score --reward file.py`: Python rewards in the built CLI (Pyodide in each worker), run as a
 * subprocess like cli.test.ts. Every run loads Pyodide (3–5 s here), so the runs are started together, at most
 * RUNS_AT_ONCE at a time: more would starve each other (and the other test files) of CPU on a small machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import { GSM8K_PY } from '../core/python/testing/gsm8k';
import expected from '../core/python/testing/frameworks/expected.json';
import LISTED_PY from '../core/python/testing/frameworks/trl_reward_funcs.py?raw';
import packages from '../core/python/testing/packages/expected.json';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
const DEMO = join(ROOT, 'public/demo/gsm8k-rollouts.jsonl');
let dir = '';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

const RUNS_AT_ONCE = 4;
let running = 0;
const waiting: (() => void)[] = [];
/** Per-row limit of the stuck rewards below: far above what a scored row takes on a loaded machine. */
const LIMIT = 1500;

/** The CLI as a child process, asynchronously (so that several Pyodide loads overlap). */
async function cli(args: string[], timeout = 90_000, env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  if (running >= RUNS_AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await spawnCli(args, timeout, env);
  } finally {
    running--;
    waiting.shift()?.();
  }
}
function spawnCli(args: string[], timeout: number, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((done, fail) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, timeout, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr, ms: Date.now() - t0 }));
  });
}
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
const outLines = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/** Six rows in three groups; the "hang" rows make the rewards below loop forever. */
const HANG_ROWS =
  ['ok', 'ok', 'hang', 'ok', 'ok', 'hang'].map((c, i) => JSON.stringify({ prompt: `q${i >> 1}`, completion: c, uid: `g${i >> 1}` })).join('\n') + '\n';

let ts: { json: string; out: string[] };
let gsm8kPath = '';
const runs: Record<string, Promise<Run>> = {};
const outs: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-cli-py-'));
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  const gsm8k = (gsm8kPath = file('gsm8k.py', GSM8K_PY));
  const hangData = file('hang.jsonl', HANG_ROWS);
  const start = (key: string, args: string[]) => (runs[key] = cli(args));
  // The TypeScript default reward, for comparison (first in line).
  const tsRun = cli(['score', DEMO, '--reward', file('default.ts', DEFAULT_REWARD_TS), '--out', join(dir, 'ts.jsonl'), '--json']);

  // Every run is started here, at once: each test awaits its own.
  for (const [name, extra] of [
    ['gsm8k_reward', ['--batch-size', '7']],
    ['compute_score', []],
    ['reward_func', ['--batch-size', '1']],
  ] as const) {
    outs[name] = join(dir, `${name}.jsonl`);
    start(name, ['score', DEMO, '--reward', gsm8k, '--function', name, '--out', outs[name], '--json', ...extra]);
  }
  // A TRL script's reward_funcs with reward_weights, on the fixture rows.
  const fixtureRows = file('fixture-rows.jsonl', expected.rows.map((r) => JSON.stringify({ prompt: 'Q?', ...r })).join('\n') + '\n');
  outs.listed = join(dir, 'listed.jsonl');
  // Queued behind the others on a loaded machine: its time limit counts from its start, as theirs do.
  runs.listed = cli(['score', fixtureRows, '--reward', file('trl_reward_funcs.py', LISTED_PY), '--batch-size', '3', '--out', outs.listed, '--json'], 240_000);
  // A verl reward stuck on some rows, with print() output; a second candidate below it (not chosen by default).
  outs.hangVerl = join(dir, 'hang-verl.jsonl');
  const hangVerl = file(
    'hang_verl.py',
    [
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    print("scoring", solution_str)',
      '    if solution_str == "hang":',
      '        while True:',
      '            pass',
      '    return 1.0',
      '',
      '',
      'def other(completions, **kwargs):',
      '    return [0.0 for _ in completions]',
      '',
    ].join('\n'),
  );
  start('hangVerl', ['score', hangData, '--reward', hangVerl, '--time-limit', String(LIMIT), '--workers', '1', '--out', outs.hangVerl, '--json']);
  // A TRL reward whose batch of two rows [2, 3] loops, and one that swallows the interrupt (the worker must go).
  outs.hangTrl = join(dir, 'hang-trl.jsonl');
  const hangTrl = file(
    'hang_trl.py',
    ['def reward(completions, **kwargs):', '    while "hang" in completions[:1]:', '        pass', '    return [2.0 for _ in completions]', ''].join('\n'),
  );
  start('hangTrl', [
    'score',
    hangData,
    '--reward',
    hangTrl,
    '--batch-size',
    '2',
    '--time-limit',
    String(LIMIT),
    '--workers',
    '1',
    '--out',
    outs.hangTrl,
    '--json',
  ]);
  outs.stubborn = join(dir, 'stubborn.jsonl');
  const stubborn = file(
    'stubborn.py',
    [
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    while solution_str == "hang":',
      '        try:',
      '            while True:',
      '                pass',
      '        except BaseException:',
      '            pass',
      '    return 3.0',
      '',
    ].join('\n'),
  );
  start('stubborn', ['score', hangData, '--reward', stubborn, '--time-limit', String(LIMIT), '--workers', '1', '--out', outs.stubborn, '--json']);
  // Code that does not load.
  start('syntax', [
    'score',
    DEMO,
    '--reward',
    file('bad.py', 'import re\n\ndef compute_score(data_source, solution_str, ground_truth, extra_info=None)\n    return 1.0\n'),
    '--json',
  ]);
  start('numpy', [
    'score',
    DEMO,
    '--reward',
    file(
      'np.py',
      'import math\nimport numpy as np\n\n\ndef compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return float(np.mean([1.0]))\n',
    ),
    '--json',
  ]);
  start('none', ['score', DEMO, '--reward', file('none.py', 'def helper(text):\n    return len(text)\n'), '--json']);
  // verl's math_dapo shape (issue 22): helpers above a per-source compute_score(solution_str, ground_truth) that
  // returns {"score", "acc", "pred"}; the CLI picks compute_score and calls it positionally, as the studio does.
  outs.dapo = join(dir, 'dapo.jsonl');
  const dapoData = file('dapo-rows.jsonl', expected.rows.map((r) => JSON.stringify({ prompt: 'Q?', ...r })).join('\n') + '\n');
  const dapo = file('math_dapo.py', readFileSync(join(ROOT, 'src/core/python/testing/frameworks/per_source_dapo.py'), 'utf8'));
  start('dapo', ['score', dapoData, '--reward', dapo, '--workers', '1', '--out', outs.dapo, '--json']);
  // TRL's soft overlong punishment reads completion_ids: the CLI's --tokenizer (GPT-2 unless told) gives them.
  outs.soft = join(dir, 'soft.jsonl');
  start('soft', ['score', DEMO, '--reward', join(ROOT, 'e2e/fixtures/trl_soft_overlong.py'), '--workers', '1', '--out', outs.soft, '--json']);
  start('wrongName', ['score', DEMO, '--reward', gsm8k, '--function', 'correct', '--json']);
  // A sympy scorer wrapped by functools.lru_cache (imported code builds compute_score): found when the module ran.
  outs.cached = join(dir, 'cached.jsonl');
  const packageRows = file('package-rows.jsonl', packages.rows.map((r) => JSON.stringify({ prompt: 'Q?', ...r })).join('\n') + '\n');
  const cached = file('cached_equiv.py', readFileSync(join(ROOT, 'src/core/python/testing/packages/cached_equiv.py'), 'utf8'));
  // sympy.simplify of a trigonometric identity takes over a second on a loaded machine.
  runs.cached = cli(['score', packageRows, '--reward', cached, '--workers', '1', '--time-limit', '30000', '--out', outs.cached, '--json'], 240_000);

  // Python reaching its worker's JavaScript realm: the js module is empty, but a JsProxy's constructor chain reaches
  // Function (harden.ts).
  const threeRows = file('three.jsonl', ['a', 'bb', 'ccc'].map((c) => JSON.stringify({ prompt: 'q', completion: c })).join('\n') + '\n');
  const jsTry = (code: string) => `    try:\n        run_js(${JSON.stringify(code)})\n    except Exception:\n        refused += 1\n`;
  const hostilePy = [
    'import json',
    'import pyodide_js',
    '',
    'def run_js(code):',
    '    pyodide_js.constructor.constructor(\'"use strict"; \' + code)()',
    '',
    'run_js("return 1")  # reaches the realm: a refusal below is the realm refusing',
    '',
    'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
    '    refused = 0',
    jsTry('String.prototype.includes = () => false'),
    jsTry("Object.defineProperty(JSON, 'parse', { value: () => 1 })"),
    jsTry('Function.prototype.call = function () { return 0 }'),
    jsTry('globalThis.Math = {}'),
    '    return refused + json.loads("1")',
    '',
  ].join('\n');
  start('hostilePy', ['score', threeRows, '--reward', file('hostile_js.py', hostilePy), '--json']);
  const regexpPy =
    'import pyodide_js\n\ndef compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    pyodide_js.constructor.constructor("RegExp.prototype.exec = () => null")()\n    return 1.0\n';
  start('regexpPy', ['score', threeRows, '--reward', file('regexp_js.py', regexpPy), '--json']);

  const r = await tsRun;
  if (r.code !== 0) throw new Error(`the TypeScript run failed: ${r.stderr}`);
  ts = { json: r.stdout, out: outLines(join(dir, 'ts.jsonl')) };
}, 180_000);
afterAll(async () => {
  await Promise.allSettled(Object.values(runs));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the GSM8K demo reward in Python gives the TypeScript default reward’s results (800 rollouts)', () => {
  it.each(['gsm8k_reward', 'compute_score', 'reward_func'])(
    '--function %s: the same --out lines and the same --json',
    async (name) => {
      const r = await runs[name];
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(ts.json);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 800, errors: 0, reward: { mean: 0.36875 } });
      const out = outLines(outs[name]);
      expect(out).toHaveLength(800);
      expect(out).toEqual(ts.out);
    },
    120_000,
  );
});

describe('the Pyodide snapshot, checked in full after the launch (issue 27)', () => {
  it('memory altered on disk: the run still scores (its workers refuse it), the launcher removes it, the next run makes it again', async () => {
    const cache = mkdtempSync(join(dir, 'cache-'));
    const env = { ...process.env, REWARD_STUDIO_CACHE_DIR: cache };
    const args = ['score', DEMO, '--reward', gsm8kPath, '--function', 'compute_score', '--json'];
    const first = await cli(args, 180_000, env);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(ts.json);
    const made = readdirSync(cache).filter((f) => f.endsWith('.snapshot'));
    expect(made).toHaveLength(1);
    const path = join(cache, made[0]);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1000] ^= 0xff;
    writeFileSync(path, bytes);
    const second = await cli(args, 180_000, env);
    expect(second.stderr).toBe('');
    expect(second.stdout).toBe(ts.json);
    expect(existsSync(path)).toBe(false);
    const third = await cli(args, 180_000, env);
    expect(third.stdout).toBe(ts.json);
    expect(readFileSync(path).equals(bytes)).toBe(false);
    expect(readFileSync(path)).toHaveLength(bytes.length);
  }, 600_000);
});

describe('the frameworks’ own reward files (issue 22)', () => {
  it('math_dapo’s shape: compute_score is picked over its helpers, called positionally; a string pred is the line’s strings.pred', async () => {
    const r = await runs.dapo;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `reward-studio: ${join(dir, 'math_dapo.py')} has 2 reward functions; using compute_score: verl per-source signature (line 40; compute_score is the entry point verl calls). Others: is_correct_minerva (verl-source, line 30). Choose one with --function <name>.\n`,
    );
    const rows = outLines(outs.dapo).map((l) => JSON.parse(l) as { reward: number; error: string | null; strings?: Record<string, string | null> });
    const want = expected.cases.find((c) => c.file === 'per_source_dapo.py')!.results as { score: number; pred: string }[];
    expect(rows.map((x) => x.reward)).toEqual(want.map((w) => w.score));
    expect(rows.map((x) => x.error)).toEqual(want.map(() => null));
    // The string value CPython returned under "pred", on each line (issue 22: strings are their own column).
    expect(rows.map((x) => x.strings)).toEqual(want.map((w) => ({ pred: w.pred })));
  }, 120_000);
});

describe('TRL completion_ids (issue 22)', () => {
  it('get_soft_overlong_punishment on the 800 demo completions scores as CPython does on GPT-2 ids', async () => {
    const r = await runs.soft;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // scripts/completion-ids-expected.py: ids from a GPT-2 BPE written in Python, the fixture run by CPython on them.
    const want = (JSON.parse(readFileSync(join(ROOT, 'src/core/tokenize/testing/gpt2-demo-ids.json'), 'utf8')) as { soft: number[] }).soft;
    expect(outLines(outs.soft).map((l) => (JSON.parse(l) as { reward: number }).reward)).toEqual(want);
    // Its mean, -0.501125, as the script prints it.
    expect(JSON.parse(r.stdout).reward.mean).toBeCloseTo(-0.501125, 12);
  }, 120_000);
});

describe('shipped sympy, and a reward object built by imported code (issue 22)', () => {
  it('compute_score = functools.lru_cache(...)(_equiv) with sympy: picked once the module ran, scored as CPython scored it', async () => {
    const r = await runs.cached;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `reward-studio: ${join(dir, 'cached_equiv.py')}: using compute_score: verl per-source object, functools.lru_cache(maxsize=65536)(_equiv), found when the module ran (line 17; the file defines no reward function).\n`,
    );
    const rows = outLines(outs.cached).map((l) => JSON.parse(l) as { reward: number; error: string | null });
    expect(rows.map((x) => x.reward)).toEqual(packages.cached_equiv);
    expect(rows.map((x) => x.error)).toEqual(packages.cached_equiv.map(() => null));
  }, 240_000);
});

describe('a reward_funcs list with reward_weights (issue 21, item 18)', () => {
  it('is the default pick; the reward is the weighted nansum, as CPython computed it; each function in `functions`', async () => {
    const r = await runs.listed;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /using reward_funcs: TRL reward_funcs, format_reward × 0\.5 \+ accuracy_reward × 2 \(line 21; reward_funcs is the list GRPOTrainer is given\)/,
    );
    const want = expected.cases.find((c) => c.kind === 'trl-list')!.results as { total: number[] };
    expect(outLines(outs.listed).map((l) => JSON.parse(l).reward)).toEqual(want.total);
    const d = JSON.parse(r.stdout);
    // format_reward: 1, 1, 1, 0, 1 (two None) → mean 0.8, Bessel std sqrt(0.8 / 4) = sqrt(0.2);
    // accuracy_reward: 1, 1, 0, 1, 0 (two None) → mean 0.6, std sqrt(1.2 / 4) = sqrt(0.3).
    expect(d.functions.map((f: { name: string; weight: number; errors: number }) => [f.name, f.weight, f.errors])).toEqual([
      ['format_reward', 0.5, 0],
      ['accuracy_reward', 2, 0],
    ]);
    expect(d.functions[0].mean).toBeCloseTo(0.8, 12);
    expect(d.functions[0].std).toBeCloseTo(Math.sqrt(0.2), 12);
    expect(d.functions[1].mean).toBeCloseTo(0.6, 12);
    expect(d.functions[1].std).toBeCloseTo(Math.sqrt(0.3), 12);
  }, 120_000);
});

describe('time limits', () => {
  it('a stuck verl call is interrupted (--time-limit 1500): its rows time out, the others are scored; print() goes to stderr; compute_score is used, and said so', async () => {
    const r = await runs.hangVerl;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 6, groups: 3, errors: 2, reward: { mean: 1 } });
    const rows = outLines(outs.hangVerl).map((l) => JSON.parse(l));
    expect(rows.map((x) => x.reward)).toEqual([1, 1, null, 1, 1, null]);
    expect(rows.map((x) => x.error)).toEqual([null, null, `timed out after ${LIMIT} ms (line 5)`, null, null, `timed out after ${LIMIT} ms (line 5)`]);
    expect(r.stderr).toMatch(
      /has 2 reward functions; using compute_score: verl custom-function signature \(line 1; compute_score is the entry point verl calls\)\. Others: other \(trl, line 9\)\. Choose one with --function <name>\./,
    );
    expect(r.stderr.match(/^scoring ok$/gm)).toHaveLength(4);
    expect(r.stderr.match(/^scoring hang$/gm)).toHaveLength(2);
  }, 120_000);

  it('a stuck TRL batch (--batch-size 2) times out both its rows, after the limit × 2', async () => {
    const r = await runs.hangTrl;
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const rows = outLines(outs.hangTrl).map((l) => JSON.parse(l));
    expect(rows.map((x) => x.reward)).toEqual([2, 2, null, null, 2, 2]);
    expect(rows.map((x) => x.error)).toEqual([null, null, `timed out after ${LIMIT} ms (line 3)`, `timed out after ${LIMIT} ms (line 3)`, null, null]);
  }, 120_000);

  it('a reward that swallows the interrupt: its worker is terminated max(1000 ms, limit) later, a fresh one scores the rest', async () => {
    const r = await runs.stubborn;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    const rows = outLines(outs.stubborn).map((l) => JSON.parse(l));
    expect(rows.map((x) => x.reward)).toEqual([3, 3, null, 3, 3, null]);
    expect(rows.map((x) => x.error)).toEqual([null, null, `timed out after ${LIMIT} ms`, null, null, `timed out after ${LIMIT} ms`]);
  }, 120_000);
});

describe('Python cannot change its worker’s JavaScript realm for the next run (harden.ts)', () => {
  it('each change through Function, reached from a JsProxy, is refused', async () => {
    const r = await runs.hostilePy;
    expect(r.code).toBe(0);
    // Four tries refused, plus json.loads("1"), on every row.
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, errors: 0, reward: { mean: 5, std: 0 } });
  }, 120_000);

  it('a change to RegExp.prototype stops the run with the reason', async () => {
    const r = await runs.regexpPy;
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('reward code changed RegExp.prototype, which every later run in this worker would have seen');
  }, 120_000);
});

describe('Python code that does not load: exit 1 with the message and line', () => {
  it('a syntax error', async () => {
    const r = await runs.syntax;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^reward-studio: the Python reward does not load \(.*bad\.py, line 3\): SyntaxError: expected ':'\n$/);
  }, 120_000);

  it('import numpy: only the standard library', async () => {
    const r = await runs.numpy;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the Python reward does not load \(.*np\.py, line 2\): ModuleNotFoundError: No module named 'numpy' \(Python runs offline in Pyodide: the standard library, sympy and mpmath are available; no other packages\)\. Instead: /,
    );
    expect(r.stderr).not.toMatch(/in the browser/);
  }, 120_000);

  it('no reward function, or --function naming none', async () => {
    const none = await runs.none;
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/none\.py\): no reward function found: a top-level def with a parameter solution_str \(verl\)/);
    const wrong = await runs.wrongName;
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(
      /--function correct: no reward function of that name; the file has gsm8k_reward \(trl, line 51\), compute_score \(verl, line 56\), reward_func \(openrlhf, line 61\)/,
    );
  }, 120_000);
});
