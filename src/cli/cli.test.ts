/**
 * The real CLI, built once (bin/build-cli.mjs) and run as a subprocess through bin/reward-studio.mjs, as
 * `npx reward-studio` runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
const DEMO = join(ROOT, 'public/demo/gsm8k-rollouts.jsonl');
let dir = '';

function cli(args: string[], timeout = 30_000) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
function readOut(p: string): { index: number; group: string; reward: number | null; advantage: number | null; length: number; error: string | null }[] {
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

interface DemoRow {
  completion: string;
  ground_truth: string;
  group: number;
  is_correct_openai: boolean;
}
const demo: DemoRow[] = readFileSync(DEMO, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l));

/**
 * The demo reward written independently of src/core: the first number after the last "A:" equals the ground truth.
 * A Python one-off over the same file (re + float, same rule) gives 295 ones of 800 (mean 0.36875), and agreement
 * with `is_correct_openai` of 800/800 = 1.0.
 */
function independentReward(r: DemoRow): number {
  const at = r.completion.lastIndexOf('A:');
  if (at < 0) return 0;
  const m = /[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?/.exec(r.completion.slice(at + 2));
  return m !== null && Number(m[0].replace(/,/g, '')) === Number(r.ground_truth.replace(/,/g, '')) ? 1 : 0;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-cli-'));
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}, 130_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('reward-studio score on the GSM8K demo (800 rollouts, 200 groups of 4)', () => {
  it('--json prints exactly the diagnostics object; the numbers match an independent computation', () => {
    const reward = file('default.ts', DEFAULT_REWARD_TS);
    const r = cli(['score', DEMO, '--reward', reward, '--label', 'is_correct_openai', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    const d = JSON.parse(lines[0]);
    expect(Object.keys(d)).toEqual(['rows', 'groups', 'errors', 'nulls', 'reward', 'length', 'collapse', 'label']);
    expect(Object.keys(d.reward)).toEqual(['mean', 'std', 'min', 'max', 'distinct']);
    expect(Object.keys(d.length)).toEqual(['pearson', 'spearman', 'withinGroupPearson']);
    expect(Object.keys(d.collapse)).toEqual(['zeroStdGroupFraction', 'nearZeroStdGroupFraction', 'zeroAdvantageRolloutFraction']);

    const rewards = demo.map(independentReward);
    const ones = rewards.filter((x) => x === 1).length;
    expect([demo.length, ones]).toEqual([800, 295]);
    expect(d).toMatchObject({ rows: 800, groups: 200, errors: 0, nulls: 0 });
    expect(d.reward.mean).toBe(0.36875);
    expect(d.reward).toMatchObject({ min: 0, max: 1, distinct: 2 });
    expect(d.reward.std).toBeCloseTo(Math.sqrt(0.36875 * (1 - 0.36875)), 12); // population std of 0/1 values

    const agree = demo.filter((row, i) => rewards[i] === (row.is_correct_openai ? 1 : 0)).length / demo.length;
    expect(agree).toBe(1); // the Python one-off: 1.0
    expect(d.label).toEqual({ agreement: agree });

    // Groups whose 4 rewards are all equal (independently): the TRL preset gives them zero std and zero advantage.
    const byGroup = new Map<number, number[]>();
    demo.forEach((row, i) => byGroup.set(row.group, [...(byGroup.get(row.group) ?? []), rewards[i]]));
    const flat = [...byGroup.values()].filter((g) => new Set(g).size === 1).length / byGroup.size;
    expect(flat).toBe(0.495);
    expect(d.collapse.zeroStdGroupFraction).toBe(flat);
    expect(d.collapse.zeroAdvantageRolloutFraction).toBe(flat);
    for (const k of ['pearson', 'spearman', 'withinGroupPearson']) expect(Number.isFinite(d.length[k])).toBe(true);
  });

  it('--out writes one line per rollout; a [1,0,0,1] group gets the TRL and verl advantages by hand', () => {
    const reward = file('default.ts', DEFAULT_REWARD_TS);
    const out = join(dir, 'rows.jsonl');
    const r = cli(['score', DEMO, '--reward', reward, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const rows = readOut(out);
    expect(rows).toHaveLength(800);
    expect(Object.keys(rows[0])).toEqual(['index', 'group', 'reward', 'advantage', 'length', 'error']);
    expect(rows.map((x) => x.index)).toEqual(demo.map((_, i) => i));
    expect(rows.map((x) => x.reward)).toEqual(demo.map(independentReward));
    expect(rows.map((x) => x.length)).toEqual(demo.map((x) => x.completion.length));
    expect(rows.map((x) => x.group)).toEqual(demo.map((x) => String(x.group)));
    expect(rows.every((x) => x.error === null)).toBe(true);

    const g21 = rows.filter((x) => x.group === '21');
    expect(g21.map((x) => x.reward)).toEqual([1, 0, 0, 1]);
    // TRL: (r − μ) / (σ + 1e-4), σ = Bessel std of [1,0,0,1] = sqrt(1/3).
    const trl = 0.5 / (Math.sqrt(1 / 3) + 1e-4);
    g21.forEach((x, i) => expect(x.advantage).toBeCloseTo([trl, -trl, -trl, trl][i], 12));

    const outVerl = join(dir, 'rows-verl.jsonl');
    expect(cli(['score', DEMO, '--reward', reward, '--out', outVerl, '--preset', 'verl', '--json']).code).toBe(0);
    const verl = 0.5 / (Math.sqrt(1 / 3) + 1e-6);
    const v21 = readOut(outVerl).filter((x) => x.group === '21');
    v21.forEach((x, i) => expect(x.advantage).toBeCloseTo([verl, -verl, -verl, verl][i], 12));
  });

  it('prints a human-readable report without --json', () => {
    const reward = file('default.ts', DEFAULT_REWARD_TS);
    const r = cli(['score', DEMO, '--reward', reward, '--label', 'is_correct_openai']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rows\s+800 in 200 groups \(skipped lines: 0\)/);
    expect(r.stdout).toMatch(/scored\s+800\s+nulls 0\s+errors 0\s+timed out 0/);
    expect(r.stdout).toMatch(/mean 0\.3688\b/);
    expect(r.stdout).toMatch(/pearson -?\d/);
    expect(r.stdout).toMatch(/groups with zero reward std 49\.5%/);
    expect(r.stdout).toMatch(/agreement with is_correct_openai: 100\.0%/);
  });
});

describe('rows that fail', () => {
  it('a reward that throws on some rows: errors counted, messages with the line in --out and the report', () => {
    const reward = file(
      'throws.ts',
      `export default function reward(t: { index: number }): number {\n  const k = t.index % 3;\n  if (k === 0) throw new Error('boom ' + t.index);\n  return k;\n}\n`,
    );
    const out = join(dir, 'throws.jsonl');
    const r = cli(['score', DEMO, '--reward', reward, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.errors).toBe(267); // rows 0, 3, …, 798
    // 267 rows score 1 (index % 3 = 1), 266 score 2.
    expect(d.reward).toMatchObject({ min: 1, max: 2, distinct: 2 });
    expect(d.reward.mean).toBeCloseTo((267 + 2 * 266) / 533, 12);
    const rows = readOut(out);
    expect(rows[0]).toMatchObject({ reward: null, advantage: null, error: 'Error: boom 0 (line 3)' });
    expect(rows[1]).toMatchObject({ reward: 1, error: null });
    expect(rows.filter((x) => x.error !== null)).toHaveLength(267);

    const h = cli(['score', DEMO, '--reward', reward]);
    expect(h.stdout).toMatch(/errors 267/);
    expect(h.stdout).toContain('row 0: Error: boom 0 (line 3)');
  });

  it('an endless reward times out on its rows (--time-limit 1000); the others are scored and the process exits', () => {
    const data = file(
      'hang.jsonl',
      ['ok', 'hang', 'ok', 'ok', 'hang', 'ok'].map((c, i) => JSON.stringify({ prompt: `q${i >> 1}`, completion: c, uid: `g${i >> 1}` })).join('\n') + '\n',
    );
    const reward = file('hang.ts', `export default function reward(t) {\n  if (t.completion === 'hang') while (true) {}\n  return 1;\n}\n`);
    const out = join(dir, 'hang-out.jsonl');
    // The child is killed after 20 s (then its signal is not null): the process must exit on its own.
    const r = cli(['score', data, '--reward', reward, '--time-limit', '1000', '--workers', '2', '--out', out, '--json'], 20_000);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 6, groups: 3, errors: 2, reward: { mean: 1 } });
    const rows = readOut(out);
    expect(rows.map((x) => x.error)).toEqual([null, 'timed out after 1000 ms', null, null, 'timed out after 1000 ms', null]);
    expect(rows.map((x) => x.reward)).toEqual([1, null, 1, 1, null, 1]);
  }, 30_000);
});

describe('several reward functions (TRL reward_funcs + reward_weights)', () => {
  it('--reward twice with --reward-weights 1,0.5: the weighted nansum, each function in `functions`, a failing one names itself', () => {
    const data = file(
      'four.jsonl',
      ['a', 'bb', 'ccc', 'dddd'].map((c, i) => JSON.stringify({ prompt: `q${i >> 1}`, completion: c, uid: `g${i >> 1}` })).join('\n') + '\n',
    );
    const len = file('len.ts', 'export default (t) => t.completion.length;\n');
    const ok = file(
      'ok.ts',
      "export default (t) => {\n  if (t.completion === 'bb') return null;\n  if (t.completion === 'dddd') throw new Error('boom');\n  return 1;\n};\n",
    );
    const out = join(dir, 'weighted-out.jsonl');
    const r = cli(['score', data, '--reward', len, '--reward', ok, '--reward-weights', '1,0.5', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(Object.keys(d)).toEqual(['rows', 'groups', 'errors', 'nulls', 'reward', 'functions', 'length', 'collapse', 'label']);
    // len: 1, 2, 3, 4; ok: 1, None, 1, error. Totals: 1 + 0.5·1 = 1.5; 2 + (None left out) = 2; 3 + 0.5 = 3.5; row 3 fails.
    expect(readOut(out).map((x) => [x.reward, x.error])).toEqual([
      [1.5, null],
      [2, null],
      [3.5, null],
      [null, 'ok(): Error: boom (line 3)'],
    ]);
    expect(d.errors).toBe(1);
    expect(d.reward.mean).toBeCloseTo(7 / 3, 12);
    // len: mean 2.5, Bessel std sqrt((1.5² + 0.5² + 0.5² + 1.5²) / 3) = sqrt(5/3); ok: values 1, 1 → mean 1, std 0, 1 error.
    expect(d.functions).toHaveLength(2);
    expect(d.functions[0]).toMatchObject({ name: 'len', weight: 1, mean: 2.5, errors: 0 });
    expect(d.functions[0].std).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(d.functions[1]).toEqual({ name: 'ok', weight: 0.5, mean: 1, std: 0, errors: 1 });
    const human = cli(['score', data, '--reward', len, '--reward', ok, '--reward-weights', '1,0.5']);
    expect(human.stdout).toMatch(/^ {2}ok × 0\.5 {3}mean 1 {3}std 0 {3}errors 1$/m);
  }, 60_000);

  it('one TypeScript file listing its functions (export const rewardFuncs + rewardWeights) gives the same figures', () => {
    const data = file(
      'four-list.jsonl',
      ['a', 'bb', 'ccc', 'dddd'].map((c, i) => JSON.stringify({ prompt: `q${i >> 1}`, completion: c, uid: `g${i >> 1}` })).join('\n') + '\n',
    );
    const list = file(
      'list.ts',
      [
        'const len = (t) => t.completion.length;',
        "function ok(t) {\n  if (t.completion === 'bb') return null;\n  if (t.completion === 'dddd') throw new Error('boom');\n  return 1;\n}",
        'export const rewardFuncs = [len, ok];',
        'export const rewardWeights = [1, 0.5];',
        '',
      ].join('\n'),
    );
    const out = join(dir, 'list-out.jsonl');
    const r = cli(['score', data, '--reward', list, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    // As above: totals 1.5, 2, 3.5 and a failing row 3; len mean 2.5, std sqrt(5/3); ok mean 1, std 0, 1 error.
    expect(readOut(out).map((x) => [x.reward, x.error])).toEqual([
      [1.5, null],
      [2, null],
      [3.5, null],
      [null, 'ok(): Error: boom (line 4)'],
    ]);
    expect(d.reward.mean).toBeCloseTo(7 / 3, 12);
    expect(d.functions[0]).toMatchObject({ name: 'len', weight: 1, mean: 2.5, errors: 0 });
    expect(d.functions[0].std).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(d.functions[1]).toEqual({ name: 'ok', weight: 0.5, mean: 1, std: 0, errors: 1 });
  }, 60_000);
});

describe('one reward cannot change the next (src/engine/harden.ts)', () => {
  const three = () => file('three.jsonl', ['a', 'bb', 'ccc'].map((c, i) => JSON.stringify({ prompt: `q${i >> 1}`, completion: c })).join('\n') + '\n');

  it('what a function tries on the realm and its rollout is refused; the next function in the same worker computes as it would alone', () => {
    // The first function tries ten changes a later reward would see; the second uses each thing they target.
    const list = file(
      'hostile-list.ts',
      [
        'function hostile(t) {',
        '  const tries = [',
        '    () => { String.prototype.includes = () => false; },',
        '    () => { Function.prototype.call = function () { return 0; }; },',
        '    () => { JSON.parse = () => ({}); },',
        '    () => { Array.prototype.map = function () { return []; }; },',
        '    () => { Object.values = () => []; },',
        '    () => { globalThis.Math = { max: () => -1 }; },',
        "    () => { Object.defineProperty(globalThis, 'Number', { value: () => 0 }); },",
        '    () => { Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true }); },',
        '    () => { Float64Array.prototype.fill = function () { return this; }; },',
        "    () => { t.completion = 'x'; },",
        '  ];',
        '  let refused = 0;',
        '  for (const f of tries) try { f(); } catch { refused++; }',
        '  return refused;',
        '}',
        "class Mine extends Error { constructor(m) { super(m); this.name = 'Mine'; } }",
        'function honest(t) {',
        '  const chars = [...JSON.parse(JSON.stringify({ c: t.completion })).c].map((c) => c.length);',
        "  const e = new Mine('x');",
        '  return chars.reduce((a, b) => a + b, 0) + (t.completion.includes(t.completion) ? 100 : 0) + Math.max(0, Object.values({ a: 1 })[0]) +',
        "    Number('1') + (String(e) === 'Mine: x' ? 1000 : 0);",
        '}',
        'export const rewardFuncs = [hostile, honest];',
        'export const rewardWeights = [0, 1];',
        '',
      ].join('\n'),
    );
    const r = cli(['score', three(), '--reward', list, '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    // Every try refused (10 of 10 on each row); honest: length + 100 (includes) + 1 (Object.values, Math.max) + 1 (Number) + 1000
    // (an Error subclass still names itself): 1103, 1104, 1105.
    expect(d.functions[0]).toMatchObject({ name: 'hostile', mean: 10, std: 0, errors: 0 });
    expect(d.functions[1]).toMatchObject({ name: 'honest', mean: 1104, errors: 0 });
    expect(d.reward).toMatchObject({ mean: 1104, min: 1103, max: 1105 });
  }, 60_000);

  it('a polyfill on a built-in fails to compile, with the reason and the way out', () => {
    const poly = file('polyfill.ts', 'Array.prototype.last = function () {\n  return this[this.length - 1];\n};\nexport default (t) => [1].last();\n');
    const r = cli(['score', three(), '--reward', poly, '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the reward does not compile \(.*polyfill\.ts, line 1\): TypeError: Cannot add property last, object is not extensible \(rollouts and built-ins are read-only in reward code/,
    );
  }, 60_000);

  it('a reward that changes RegExp.prototype (left unfrozen for speed) stops the run with the reason', () => {
    const re = file('regexp.ts', "export default (t) => { RegExp.prototype[Symbol.split] = () => ['x']; return t.completion.split(/b/).length; };\n");
    const r = cli(['score', three(), '--reward', re, '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('reward code changed RegExp.prototype, which every later run in this worker would have seen');
  }, 60_000);
});

describe('input problems', () => {
  it('malformed lines are reported on stderr with their line numbers; the rest is scored', () => {
    const good = (i: number) => JSON.stringify({ prompt: `q${i}`, completion: `answer ${i}`, uid: `g${i % 3}` });
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) lines.push(i % 2 === 1 && i < 26 ? `{"prompt": "q${i}", "completion": ` : good(i));
    lines[27] = JSON.stringify({ prompt: 'q27' }); // parses, but has no completion
    const data = file('malformed.jsonl', lines.join('\n') + '\n');
    const reward = file('len.ts', `export default function reward(t) {\n  return t.completion.length;\n}\n`);
    const r = cli(['score', data, '--reward', reward, '--json']);
    expect(r.code).toBe(0);
    // Lines 2, 4, …, 26 (13 broken JSON lines) and line 28 (no completion): 14 in all, the first 10 listed.
    expect(r.stderr).toMatch(/skipped 14 malformed lines/);
    for (const n of [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]) expect(r.stderr).toMatch(new RegExp(`line ${n}: `));
    expect(r.stderr).not.toMatch(/line 22: /);
    expect(r.stderr).toMatch(/… and 4 more/);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 16, errors: 0 });
  });

  it('a data file that cannot be read: exit 1 with a clear message', () => {
    const reward = file('len.ts', `export default function reward(t) {\n  return t.completion.length;\n}\n`);
    const missing = cli(['score', join(dir, 'nope.jsonl'), '--reward', reward]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read the data file .*nope\.jsonl: no such file/);
    const binary = cli(['score', file('junk.bin', '\u0000\u0001\u0002garbage\u0000\u0003'.repeat(50)), '--reward', reward]);
    expect(binary.code).toBe(1);
    expect(binary.stderr).toMatch(/cannot read the data file/);
    expect(cli(['score', DEMO, '--reward', join(dir, 'nope.ts')]).stderr).toMatch(/cannot read the reward file/);
  });

  it('a reward that does not compile: exit 1, the message with its line', () => {
    const reward = file('bad.ts', `export default function reward(t) {\n  return t.completion.length +;\n}\n`);
    const r = cli(['score', DEMO, '--reward', reward, '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/the reward does not compile \(.*bad\.ts, line 2\): /);
  });

  it('usage errors exit 2 with the usage; --help exits 0', () => {
    for (const args of [
      [],
      ['score'],
      ['score', DEMO],
      ['score', DEMO, '--reward', 'r.ts', '--preset', 'ppo'],
      ['frobnicate'],
      ['score', DEMO, '--reward', 'r.ts', '--nope'],
    ]) {
      const r = cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/Usage: reward-studio score/);
    }
    const h = cli(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/Usage: reward-studio score <data file \| folder \| files…> --reward <file\.ts\|file\.js\|file\.py>/);
    // Python rewards: the conventions, the function choice, the batch size.
    expect(h.stdout).toMatch(/a \.py file with a TRL, verl or OpenRLHF reward function/);
    expect(h.stdout).toMatch(/--function <name> +\(\.py\) the function to call/);
    expect(h.stdout).toMatch(/--batch-size <n> +\(\.py\) rows per call .*\(default 32\)/);
    const py = cli(['score', DEMO, '--reward', 'r.ts', '--function', 'f']);
    expect(py.code).toBe(2);
    expect(py.stderr).toMatch(/--function applies to Python rewards/);
  });
});

describe('reward code conveniences', () => {
  it('ctx.tokenCount with --tokenizer; console.log goes to stderr, stdout keeps one JSON object', () => {
    const data = file(
      'tok.jsonl',
      JSON.stringify({ prompt: 'p', completion: 'Hello world' }) +
        '\n' +
        JSON.stringify({ prompt: 'p', completion: 'Natalia sold clips to 48 of her friends in April.\n\nA: 72' }) +
        '\n',
    );
    const reward = file('tok.ts', `export default function reward(t, ctx) {\n  console.log('scoring', t.index);\n  return ctx.tokenCount(t.completion);\n}\n`);
    const out = join(dir, 'tok-out.jsonl');
    const r = cli(['score', data, '--reward', reward, '--tokenizer', 'qwen3', '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).rows).toBe(2);
    expect(r.stderr).toMatch(/scoring 0/);
    // Counts from Hugging Face's Rust tokenizers (see src/core/tokenize/tokenizers.test.ts).
    expect(readOut(out).map((x) => x.reward)).toEqual([2, 20]);
  });

  it('the pool grows past one worker only when the scoring left outlasts reading the file', () => {
    const data = file('slow.jsonl', Array.from({ length: 600 }, (_, i) => JSON.stringify({ prompt: `q${i >> 2}`, completion: `c${i}` })).join('\n') + '\n');
    // ~3 ms a row: ~1.8 s for one thread, several times what a worker needs to start and read 600 rows.
    const slow = file(
      'slow.ts',
      `export default function reward(t) {\n  const end = Date.now() + 3;\n  while (Date.now() < end) {}\n  return t.index % 2;\n}\n`,
    );
    const fast = file('fast.ts', `export default function reward(t) {\n  return t.index % 2;\n}\n`);
    const r = cli(['score', data, '--reward', slow, '--workers', '2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/scored\s+600\b/);
    expect(r.stdout).toMatch(/2 worker threads \(of up to 2\)/);
    const f = cli(['score', data, '--reward', fast, '--workers', '2']);
    expect(f.stdout).toMatch(/1 worker thread \(of up to 2\)/);
  });

  it('npx reward-studio resolves the package’s own bin from the repo root', () => {
    const r = spawnSync('npx', ['--no-install', 'reward-studio', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: reward-studio score/);
  }, 60_000);

  it('by default reward code may not write files, read others or start processes (Node permission model); --allow-all lifts it', () => {
    const target = join(dir, 'planted.txt');
    const spawned = join(dir, 'spawned.txt');
    const reward = file(
      'hostile.ts',
      `export default function reward(t: any) {
  const get = (process as any).getBuiltinModule;
  if (t.index === 0) get('fs').writeFileSync(${JSON.stringify(target)}, 'planted');
  if (t.index === 1) get('child_process').execSync(${JSON.stringify(`touch ${spawned}`)});
  if (t.index === 2) return get('fs').readFileSync('/etc/hostname', 'utf8').length;
  return 1;
}
`,
    );
    const out = join(dir, 'hostile-out.jsonl');
    const r = cli(['score', DEMO, '--reward', reward, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const rows = readOut(out);
    for (const i of [0, 1, 2]) expect(rows[i].error).toMatch(/^Error: Access to this API has been restricted \(line \d\)$/);
    expect(rows.slice(3).every((x) => x.reward === 1)).toBe(true);
    expect(existsSync(target) || existsSync(spawned)).toBe(false);
    // The same reward with --allow-all runs as `node reward.js` would.
    const free = cli(['score', DEMO, '--reward', reward, '--allow-all', '--json']);
    expect(free.code).toBe(0);
    expect([readFileSync(target, 'utf8'), existsSync(spawned)]).toEqual(['planted', true]);
  }, 60_000);

  it('a reward that exhausts its worker\'s memory fails that row with "out of memory"; a fresh worker scores the rest', () => {
    const reward = file(
      'hog.ts',
      'export default function reward(t) {\n  if (t.index === 3) {\n    const keep = [];\n    for (;;) keep.push(new Array(1e5).fill(t.index));\n  }\n  return 1;\n}\n',
    );
    const out = join(dir, 'hog-out.jsonl');
    // A long row limit: on a loaded machine filling 128 MB can take past the default second, and this is about memory.
    const r = cli(['score', DEMO, '--reward', reward, '--worker-memory', '128', '--time-limit', '20000', '--out', out, '--json'], 60_000);
    expect(r.code).toBe(0);
    const rows = readOut(out);
    expect(rows[3].error).toBe('the reward worker died on this row (out of memory: past its 128 MB heap)');
    expect(rows.filter((x) => x.reward === 1)).toHaveLength(799);
  }, 90_000);
});

describe('--group-by (issue 21, item 16)', () => {
  // The demo has 200 rollouts per model; is_correct_openai is true for 45 / 75 / 65 / 110 of them (a Python one-off:
  // collections.Counter over the file). A 0/1 reward with a share p of ones has mean p and population std √(p(1−p)).
  const byModel: [string, number][] = [
    ['6b_finetuning', 45 / 200],
    ['6b_verification', 75 / 200],
    ['175b_finetuning', 65 / 200],
    ['175b_verification', 110 / 200],
  ];
  it('--json adds groupBy {column, values: [{value, rows, mean, std}]} after the usual keys, population std', () => {
    const reward = file('label.ts', 'export default function reward(t) { return t.fields.is_correct_openai ? 1 : 0; }\n');
    const r = cli(['score', DEMO, '--reward', reward, '--group-by', 'model', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(Object.keys(d)).toEqual(['rows', 'groups', 'errors', 'nulls', 'reward', 'length', 'collapse', 'label', 'groupBy']);
    expect(d.groupBy.column).toBe('model');
    expect(d.groupBy.values.map((v: { value: string }) => v.value)).toEqual(byModel.map(([m]) => m));
    for (const [i, [, p]] of byModel.entries()) {
      const v = d.groupBy.values[i];
      expect(Object.keys(v)).toEqual(['value', 'rows', 'mean', 'std']);
      expect(v.rows).toBe(200);
      expect(v.mean).toBeCloseTo(p, 12);
      expect(v.std).toBeCloseTo(Math.sqrt(p * (1 - p)), 12);
    }
  });
  it('rows the reward fails on count in rows, not in mean and std; the report shows the table', () => {
    // a: rewards 1, 3 and one throw → rows 3, mean 2, std 1 (deviations ±1); b: 10 → rows 1, mean 10, std 0.
    const data = file(
      'grouped.jsonl',
      ['a', 'b', 'a', 'a'].map((m, i) => JSON.stringify({ prompt: `p${i}`, completion: `c${i}`, model: m, x: [1, 10, 3, -1][i] })).join('\n'),
    );
    const reward = file('x.ts', "export default function reward(t) { if (t.fields.x < 0) throw new Error('no'); return t.fields.x; }\n");
    const j = JSON.parse(cli(['score', data, '--reward', reward, '--group-by', 'model', '--json']).stdout);
    expect(j.groupBy).toEqual({
      column: 'model',
      values: [
        { value: 'a', rows: 3, mean: 2, std: 1 },
        { value: 'b', rows: 1, mean: 10, std: 0 },
      ],
    });
    const h = cli(['score', data, '--reward', reward, '--group-by', 'model']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('group by    model (std: population)');
    expect(h.stdout).toContain(`\n${' '.repeat(14)}a${' '.repeat(12)}3${' '.repeat(9)}2${' '.repeat(9)}1\n`);
  });
  it('a column no row has: exit 2 with the columns there are; without --group-by the JSON has no groupBy', () => {
    const reward = file('label2.ts', 'export default function reward(t) { return 1; }\n');
    const r = cli(['score', DEMO, '--reward', reward, '--group-by', 'modle', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--group-by: no row has a column "modle" (columns: prompt, completion, ground_truth, group, model, is_correct_openai)');
    expect(cli(['score', DEMO, '--reward', reward, '--group-by', '']).code).toBe(2);
    const plain = JSON.parse(cli(['score', DEMO, '--reward', reward, '--json']).stdout);
    expect(plain.groupBy).toBeUndefined();
  });
});
