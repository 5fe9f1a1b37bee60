/**
 * `--model <folder>` end to end (the built CLI as a subprocess) with the demo model public/models/tiny-reward. The
 * expected scores are computed here with onnxruntime-node on ids from the tokenizer library's own `encode` (GPT-2's
 * tokenizer adds no special tokens, so a prompt/completion pair is the two id lists joined; over 128 ids the longer
 * one is cut, as transformers' longest-first truncation does), one rollout per run, no padding.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
const MODEL = join(ROOT, 'public/models/tiny-reward');
const json = (f: string) => JSON.parse(readFileSync(join(MODEL, f), 'utf8'));

const LONG = Array.from({ length: 80 }, (_, i) => `step ${i}: add ${i * 7} apples`).join('; ');
/** Two groups of three; one completion well over the model's 128 tokens; one with no ASCII at all. */
const ROWS = [
  { prompt: 'What is 2 + 3?', completion: '2 + 3 = 5', ground_truth: '5', group: 0 },
  { prompt: 'What is 2 + 3?', completion: 'The sum is 6', ground_truth: '5', group: 0 },
  { prompt: 'What is 2 + 3?', completion: LONG, ground_truth: '5', group: 0 },
  { prompt: 'What is 10 + 7?', completion: '10 + 7 = 17', ground_truth: '17', group: 1 },
  { prompt: 'What is 10 + 7?', completion: 'Ünïcödé ✓ — 数学 🙂', ground_truth: '17', group: 1 },
  { prompt: 'What is 10 + 7?', completion: 'I think it is 17.', ground_truth: '17', group: 1 },
];

let dir = '';
let data = '';
let session: ort.InferenceSession;
const tokenizer = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-model-'));
  data = join(dir, 'rows.jsonl');
  writeFileSync(data, ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  session = await ort.InferenceSession.create(join(MODEL, 'model.onnx'), { executionProviders: ['cpu'] });
  const build = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (build.status !== 0) throw new Error(build.stderr);
});
afterAll(async () => {
  await session?.release();
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], timeout = 120_000) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
const rewards = (out: string) =>
  readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { reward: number | null; error: string | null });

/** The model's score of (prompt, completion), run here on its own. */
async function modelScore(prompt: string, completion: string): Promise<number> {
  const a = tokenizer.encode(prompt).ids;
  const b = tokenizer.encode(completion).ids;
  // The prompts here are short: longest-first keeps them whole and cuts the completion to the rest of 128.
  expect(a.length).toBeLessThan(64);
  const ids = a.length + b.length <= 128 ? [...a, ...b] : [...a, ...b.slice(0, 128 - a.length)];
  const dims = [1, ids.length];
  const out = await session.run({
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), dims),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), dims),
  });
  return (out.logits.data as Float32Array)[0];
}
const realScores = () => Promise.all(ROWS.map((r) => modelScore(r.prompt, r.completion)));

describe('reward-studio score --model', () => {
  it('ctx.models.tiny_reward is the model’s score of each rollout (prompt/completion pair, cut to 128 tokens)', async () => {
    const reward = file('model.ts', 'export default function reward(t, ctx) {\n  return ctx.models.tiny_reward;\n}\n');
    const out = join(dir, 'ts.jsonl');
    const r = cli(['score', data, '--reward', reward, '--model', MODEL, '--out', out]);
    expect(r.stderr).toContain('scored 6 rollouts with tiny_reward (pair input)');
    expect(r.stderr).toContain('model tiny_reward read 1 rollouts cut to its max length');
    expect(r.code).toBe(0);
    const expected = await realScores();
    const got = rewards(out);
    expect(got.map((x) => x.error)).toEqual(ROWS.map(() => null));
    got.forEach((x, i) => expect(Math.abs(x.reward! - expected[i])).toBeLessThan(1e-5));
    // The scores differ from row to row: a constant would pass the comparison above only by accident.
    expect(new Set(expected.map((x) => x.toFixed(4))).size).toBe(ROWS.length);
  });

  it('a TRL Python reward reads the same scores in its model_scores column', async () => {
    const reward = file('model.py', 'def reward(completions, model_scores, **kwargs):\n    return [s["tiny_reward"] for s in model_scores]\n');
    const out = join(dir, 'py.jsonl');
    const r = cli(['score', data, '--reward', reward, '--model', MODEL, '--out', out], 240_000);
    expect(r.code, r.stderr).toBe(0);
    const expected = await realScores();
    rewards(out).forEach((x, i) => expect(Math.abs(x.reward! - expected[i])).toBeLessThan(1e-5));
  });

  it('two folders of the same model are named as the studio names them: tiny_reward and tiny_reward_2', () => {
    const reward = file('two.ts', 'export default function reward(t, ctx) {\n  return ctx.models.tiny_reward - ctx.models.tiny_reward_2;\n}\n');
    const out = join(dir, 'two.jsonl');
    const r = cli(['score', data, '--reward', reward, '--model', MODEL, '--model', MODEL, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(rewards(out).map((x) => x.reward)).toEqual(ROWS.map(() => 0));
  });

  it('the reward still cannot load a native addon: the model runs in the parent process, outside the sandbox', () => {
    const binding = join(
      dirname(createRequire(__filename).resolve('onnxruntime-node')),
      `../bin/napi-v6/${process.platform}/${process.arch}/onnxruntime_binding.node`,
    );
    const reward = file(
      'addon.ts',
      `export default function reward(t, ctx) {\n  process.dlopen({ exports: {} }, ${JSON.stringify(binding)});\n  return ctx.models.tiny_reward;\n}\n`,
    );
    const out = join(dir, 'addon.jsonl');
    const r = cli(['score', data, '--reward', reward, '--model', MODEL, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    for (const x of rewards(out)) expect(x.error).toMatch(/loading addons is disabled/);
  });

  it('a folder that is not a model export fails with what is missing', () => {
    const empty = join(dir, 'not-a-model');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'config.json'), '{}');
    const reward = file('plain.ts', 'export default () => 1;\n');
    const r = cli(['score', data, '--reward', reward, '--model', empty]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--model .*not-a-model: the picked files are not a Hugging Face model export: an ONNX model .* tokenizer\.json are missing/);
  });
});

describe('reward-studio probe --model', () => {
  it('probed texts are scored by the model: empty and cross figures from the model’s scores of those texts', async () => {
    const reward = file('probe.ts', 'export default function reward(t, ctx) {\n  return ctx.models.tiny_reward;\n}\n');
    const real = await realScores();
    const pass = [...real].sort((a, b) => a - b)[3];
    const r = cli(['probe', data, '--reward', reward, '--model', MODEL, '--probe', 'empty', '--probe', 'cross', '--pass', String(pass), '--json']);
    expect([0, 3], r.stderr).toContain(r.code);
    const report = JSON.parse(r.stdout) as {
      rows: number;
      threshold: number;
      probes: { name: string; n: number; passes: number; wins: number; meanDelta: number }[];
    };
    expect(report.rows).toBe(ROWS.length);
    // empty: the completion replaced by ''; cross: by the first completion of the next group (the last group's: the first's).
    const firstOfNext = (g: number) => ROWS.find((x) => x.group === (g + 1) % 2)!.completion;
    const texts = { empty: ROWS.map(() => ''), cross: ROWS.map((x) => firstOfNext(x.group)) };
    for (const name of ['empty', 'cross'] as const) {
      const probed = await Promise.all(ROWS.map((x, i) => modelScore(x.prompt, texts[name][i])));
      const f = report.probes.find((p) => p.name === name)!;
      expect(f.n, name).toBe(ROWS.length);
      expect(f.passes, name).toBe(probed.filter((s) => s >= pass).length);
      expect(f.wins, name).toBe(probed.filter((s, i) => s > real[i]).length);
      const delta = probed.reduce((a, s, i) => a + (s - real[i]), 0) / ROWS.length;
      expect(Math.abs(f.meanDelta - delta), name).toBeLessThan(1e-5);
    }
  });
});

describe('reward-studio score with two --model (an ensemble)', () => {
  let second = '';
  let sessionB: ort.InferenceSession;
  beforeAll(async () => {
    // The same architecture with other weights (seed 7): a second member that disagrees with the first.
    second = join(dir, 'tiny-reward-b');
    const made = spawnSync(process.execPath, [join(ROOT, 'scripts/make-tiny-reward-model.mjs'), '--seed', '7', second], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
    sessionB = await ort.InferenceSession.create(join(second, 'model.onnx'), { executionProviders: ['cpu'] });
  });
  afterAll(async () => {
    await sessionB?.release();
  });

  it('ctx.models.ensemble is the mean, min and std of the two scores; --json adds the ensemble summary', async () => {
    const a = await realScores();
    const prev = session;
    session = sessionB;
    const b = await realScores();
    session = prev;
    const reward = file('ens.ts', 'export default (t, ctx) => { const e = ctx.models.ensemble; return e.mean - 0.5 * e.std + 1000 * e.min; }\n');
    const out = join(dir, 'ens.jsonl');
    const r = cli(['score', data, '--reward', reward, '--model', MODEL, '--model', second, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // Two models: mean (a+b)/2, min, population std |a − b|/2.
    const want = a.map((x, i) => (x + b[i]) / 2 - 0.5 * (Math.abs(x - b[i]) / 2) + 1000 * Math.min(x, b[i]));
    rewards(out).forEach((x, i) => expect(Math.abs(x.reward! - want[i])).toBeLessThan(1e-3));
    const j = JSON.parse(r.stdout) as { ensemble: { models: string[]; meanStd: number; pairs: { a: string; b: string; pearson: number; spearman: number }[] } };
    expect(j.ensemble.models).toEqual(['tiny_reward', 'tiny_reward_b']);
    const meanStd = a.reduce((t, x, i) => t + Math.abs(x - b[i]) / 2, 0) / a.length;
    expect(Math.abs(j.ensemble.meanStd - meanStd)).toBeLessThan(1e-6);
    expect(meanStd).toBeGreaterThan(1e-4);
    const mean = (v: number[]) => v.reduce((t, x) => t + x, 0) / v.length;
    const ma = mean(a);
    const mb = mean(b);
    const r_ =
      a.reduce((t, x, i) => t + (x - ma) * (b[i] - mb), 0) / Math.sqrt(a.reduce((t, x) => t + (x - ma) ** 2, 0) * b.reduce((t, y) => t + (y - mb) ** 2, 0));
    expect(j.ensemble.pairs).toHaveLength(1);
    expect(j.ensemble.pairs[0]).toMatchObject({ a: 'tiny_reward', b: 'tiny_reward_b' });
    expect(Math.abs(j.ensemble.pairs[0].pearson - r_)).toBeLessThan(1e-5);
    // Spearman: the Pearson r of the ranks (six distinct scores each, no ties).
    const ranks = (v: number[]) => v.map((x) => v.filter((y) => y < x).length + 1);
    const ra = ranks(a);
    const rb = ranks(b);
    const d2 = ra.reduce((t, x, i) => t + (x - rb[i]) ** 2, 0);
    expect(new Set(a).size + new Set(b).size).toBe(12);
    expect(Math.abs(j.ensemble.pairs[0].spearman - (1 - (6 * d2) / (6 * (36 - 1))))).toBeLessThan(1e-12);
    // The human report says the same in a few lines.
    const human = cli(['score', data, '--reward', reward, '--model', MODEL, '--model', second]);
    expect(human.code, human.stderr).toBe(0);
    // Three decimals: compared as numbers, since the last digit can round either way at float32 precision.
    const line =
      /Ensemble of tiny_reward, tiny_reward_b \(ctx\.models\.ensemble\): mean disagreement \(std across models\) ([\d.]+) over 6 rollouts all scored/.exec(
        human.stdout,
      );
    expect(Math.abs(Number(line?.[1]) - meanStd)).toBeLessThan(1e-3);
    const pair = /tiny_reward vs tiny_reward_b: Pearson (-?[\d.]+), Spearman (-?[\d.]+)/.exec(human.stdout);
    expect(Math.abs(Number(pair?.[1]) - r_)).toBeLessThan(1e-3);
  });

  it('with one model there is no ensemble: the JSON has no key and ctx.models.ensemble fails the row with why', () => {
    const reward = file('ens1.ts', 'export default (t, ctx) => ctx.models.ensemble.mean;\n');
    const out = join(dir, 'ens1.jsonl');
    const r = cli(['score', data, '--reward', reward, '--model', MODEL, '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).not.toHaveProperty('ensemble');
    expect(rewards(out)[0].error).toMatch(/ctx\.models\.ensemble: needs at least 2 reward models \(only tiny_reward has/);
  });
});
