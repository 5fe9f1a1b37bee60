/** `score --shape` through the built CLI (bin/reward-studio.mjs), on a file whose shaped rewards are worked out by hand. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
let dir = '';
let data = '';
let reward = '';

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

// Group a: lengths 100, 350, 420, rewards 1, 0, 1; group b: 300, 380, rewards 0.5, 0.5, both cut at the length limit.
// Step rewards for the step transforms: 0.9, 0.7, 0.8 | none | 0.2 | 0.5, 0.6 | none.
const ROWS = [
  { group: 'a', n: 100, r: 1, steps: [0.9, 0.7, 0.8] },
  { group: 'a', n: 350, r: 0, steps: [] },
  { group: 'a', n: 420, r: 1, steps: [0.2] },
  { group: 'b', n: 300, r: 0.5, finish_reason: 'length', steps: [0.5, 0.6] },
  { group: 'b', n: 380, r: 0.5, finish_reason: 'length' },
];
let stepReward = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-shape-'));
  data = join(dir, 'data.jsonl');
  writeFileSync(data, ROWS.map(({ n, ...rest }) => JSON.stringify({ prompt: `q ${rest.group}`, completion: 'x'.repeat(n), ...rest })).join('\n') + '\n');
  stepReward = join(dir, 'steps.ts');
  writeFileSync(stepReward, 'export default function reward(t) { return { score: Number(t.fields.r), steps: t.fields.steps ?? [] }; }\n');
  reward = join(dir, 'r.ts');
  writeFileSync(reward, 'export default function reward(t) { return Number(t.fields.r); }\n');
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}, 130_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('reward-studio score --shape', () => {
  it('the issue’s example: reward/length/collapse shaped, raw apart, --out shaped', () => {
    const out = join(dir, 'rows.jsonl');
    const r = cli([
      'score',
      data,
      '--reward',
      reward,
      '--json',
      '--out',
      out,
      '--shape',
      'dapo-overlong:max=400,cache=100,unit=chars',
      '--shape',
      'kimi-length:unit=chars',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    // DAPO (L − C = 300): 1, −0.5, 0, 0.5, −0.3; then Kimi per group (λ 0.5, −0.28125, −0.5 | 0.5, −0.5):
    // 1.5, −0.78125, −0.5, 1, −0.8 → mean 0.41875 / 5.
    expect(j.reward.mean).toBeCloseTo(0.08375, 12);
    expect(j.reward.min).toBeCloseTo(-0.8, 12);
    expect(j.reward.max).toBe(1.5);
    expect(j.raw.reward.mean).toBeCloseTo(0.6, 12);
    // Raw: group b (0.5, 0.5) has zero std, and both its rollouts were truncated (finish_reason "length").
    expect(j.raw.collapse.zeroStdGroupFraction).toBe(0.5);
    expect(j.collapse.zeroStdGroupFraction).toBe(0);
    expect(j.shaping.transforms).toEqual(['dapo-overlong:max=400,cache=100,unit=chars', 'kimi-length:unit=chars']);
    expect(j.shaping.truncation).toBe('fields');
    expect(j.shaping.raw.zeroStd).toEqual({ fraction: 0.5, allMax: 0, allMin: 0, truncated: 0.5, other: 0 });
    expect(j.shaping.shaped.zeroStd.fraction).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.reward)).toEqual([1.5, -0.78125, -0.5, 1, expect.closeTo(-0.8, 12)]);
  });
  it('--group-by describes the shaped reward', () => {
    // scale by 2: group a 2, 0, 2 (mean 4/3), group b 1, 1.
    const r = cli(['score', data, '--reward', reward, '--json', '--group-by', 'group', '--shape', 'scale:by=2']);
    expect(r.code).toBe(0);
    const values = JSON.parse(r.stdout).groupBy.values as { value: string; mean: number }[];
    expect(values.find((v) => v.value === 'a')!.mean).toBeCloseTo(4 / 3, 12);
    expect(values.find((v) => v.value === 'b')!.mean).toBe(1);
  });
  it('the human report has the raw and shaped columns', () => {
    const r = cli(['score', data, '--reward', reward, '--shape', 'scale:by=2']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Shaping: scale:by=2');
    expect(r.stdout).toMatch(/mean\s+0\.6000\s+1\.200/);
  });
  it('lengths in tokens: the tokenizer is read inside the sandbox', () => {
    // 'x' × 100 is tens of GPT-2 tokens at most and at least one: above L = 1 (−1 each), so the mean drops by 1.
    const r = cli(['score', data, '--reward', reward, '--json', '--shape', 'dapo-overlong:max=1,cache=0']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.shaping.transforms).toEqual(['dapo-overlong:max=1,cache=0,unit=tokens']);
    expect(j.reward.mean).toBeCloseTo(-0.4, 12);
  });
  it('a folder with a part that cannot be read: the part is named and skipped when the rows are read again for tokens', () => {
    // The reward workers skip an unreadable part; the second read (token lengths) once threw on it and failed the run.
    const folder = join(dir, 'run');
    mkdirSync(folder);
    writeFileSync(join(folder, 'step_1.jsonl'), readFileSync(data));
    writeFileSync(join(folder, 'step_2.jsonl.gz'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x67, 0x61, 0x72, 0x62, 0x61, 0x67, 0x65]));
    const r = cli(['score', folder, '--reward', reward, '--json', '--shape', 'dapo-overlong:max=1,cache=0']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/step_2\.jsonl\.gz line 0: the file could not be read: step_2\.jsonl\.gz looks gzip-compressed but could not be decompressed/);
    const j = JSON.parse(r.stdout);
    expect(j.rows).toBe(5);
    expect(j.reward.mean).toBeCloseTo(-0.4, 12);
  });
  it('step rewards (RewardResult.steps) through the worker threads: Clip, Delta, step-sum', () => {
    // η = 0.75: clipped 0, −0.05, 0 | — | −0.55 | −0.25, −0.15 | —; then Delta: 0.05, −0.05, 0 | −0.55 | −0.1, −0.15;
    // summed: 1 + 0, 0, 1 − 0.55, 0.5 − 0.25, 0.5 → mean 2.2 / 5.
    const r = cli(['score', data, '--reward', stepReward, '--json', '--shape', 'step-clip:eta=0.75', '--shape', 'step-delta', '--shape', 'step-sum']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).reward.mean).toBeCloseTo(0.44, 12);
    // A Python verl reward's dict carries them too: 1 + 0.5 + 0.25 on every row.
    const py = join(dir, 'steps.py');
    writeFileSync(py, 'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return {"score": 1.0, "steps": [0.5, 0.25]}\n');
    const p = cli(['score', data, '--reward', py, '--json', '--shape', 'step-sum']);
    expect(p.code).toBe(0);
    expect(JSON.parse(p.stdout).reward).toMatchObject({ mean: 1.75, min: 1.75, max: 1.75 });
    const none = cli(['score', data, '--reward', reward, '--shape', 'step-sum']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('step-sum needs step rewards: no row returned `steps`');
  });
  it('bad values exit 2 naming the bad part', () => {
    const r = cli(['score', data, '--reward', reward, '--shape', 'dapo-overlong:max=400,cache=100,unit=bytes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shape "dapo-overlong:max=400,cache=100,unit=bytes": invalid dapo-overlong unit: bytes');
    const c = cli(['score', data, '--reward', reward, '--shape', 'par:ref=column,column=nope']);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--shape: par: no row has a column "nope"');
  });
});
