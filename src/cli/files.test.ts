/**
 * `reward-studio score <folder | files…>` (issue 24): the real CLI, built and run as a subprocess under its default
 * sandbox (Node's permission model), on a training run's folder of verl dumps, one file per step.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
let dir = '';
let run = '';

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const line = (r: unknown) => JSON.stringify(r);
/** A verl dump of one step: prompts A, A, B, B, no `step` field (the file's name gives it). */
const dump = (tag: string) =>
  ['A', 'A', 'B', 'B'].map((q, k) => line({ input: `Question ${q}?`, output: `answer ${tag}.${k}`, gts: '1', score: k % 2 })).join('\n') + '\n';
// Scores each row with its step; a row without one fails.
const STEP_REWARD = `export default function reward(t) {
  if (t.step === undefined) throw new Error('no step');
  return t.step;
}\n`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-files-'));
  run = join(dir, 'run7');
  mkdirSync(run);
  mkdirSync(join(run, 'nested'));
  writeFileSync(join(run, '1.jsonl'), dump('1'));
  const two = dump('2').split('\n');
  two.splice(2, 0, '{"input": broken'); // line 3 of 2.jsonl
  writeFileSync(join(run, '2.jsonl'), two.join('\n'));
  writeFileSync(join(run, '10.jsonl'), dump('10'));
  writeFileSync(join(run, 'notes.md'), '# not data\n');
  writeFileSync(join(run, 'nested', '3.jsonl'), dump('3')); // subfolders are not read
  writeFileSync(join(dir, 'step.ts'), STEP_REWARD);
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}, 130_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('reward-studio score <folder | files…>', () => {
  it('a folder: its data files in step order, steps from the names, groups per step, --out rows in that order', () => {
    const out = join(dir, 'rows.jsonl');
    const r = cli(['score', run, '--reward', join(dir, 'step.ts'), '--json', '--out', out]);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    // 12 rows (steps 1, 2, 10: four each); groups A and B at each step: 6. Mean (4 + 8 + 40) / 12 = 13 / 3.
    expect(d).toMatchObject({ rows: 12, groups: 6, errors: 0, nulls: 0 });
    expect(d.reward.mean).toBeCloseTo(13 / 3, 12);
    expect(d.reward).toMatchObject({ min: 1, max: 10 });
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { index: number; reward: number; group: string });
    expect(rows.map((x) => x.reward)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 10, 10, 10, 10]);
    expect(rows.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // The same prompt keeps its label at every step (the file's own key, here a prompt hash).
    expect(rows[0].group).toBe(rows[4].group);
    expect(rows[0].group).not.toBe(rows[2].group);
  });

  it('without --json: says how many files and what was skipped, and names the bad line by its file', () => {
    const r = cli(['score', run, '--reward', join(dir, 'step.ts')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('3 data files in step order (3 with a step in their name); 1 skipped (not data files)');
    expect(r.stdout + r.stderr).toContain('2.jsonl line 3');
  });

  it('a Python TRL reward sees each file’s step as trainer_state.global_step', () => {
    const py = join(dir, 'steps.py');
    writeFileSync(py, 'def by_step(completions, trainer_state=None, **kwargs):\n    return [float(trainer_state.global_step) for _ in completions]\n');
    const r = cli(['score', run, '--reward', py, '--batch-size', '4', '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    // Batches of 4 rows never straddle a file here (4 rows per file): the same figures as t.step gives.
    expect(d).toMatchObject({ rows: 12, errors: 0 });
    expect(d.reward.mean).toBeCloseTo(13 / 3, 12);
  }, 60_000);

  it('TRL completions parquet files: each row’s own step column wins over the name; the same (step, key) joins one group', () => {
    const fixture = readFileSync(resolve(ROOT, 'src/core/formats/fixtures/trl-completions.parquet'));
    const trl = join(dir, 'trl');
    mkdirSync(trl);
    writeFileSync(join(trl, 'completions_1.parquet'), fixture);
    writeFileSync(join(trl, 'completions_2.parquet'), fixture);
    const one = JSON.parse(cli(['score', join(trl, 'completions_1.parquet'), '--reward', join(dir, 'step.ts'), '--json']).stdout);
    const both = cli(['score', trl, '--reward', join(dir, 'step.ts'), '--json']);
    expect(both.code).toBe(0);
    const d = JSON.parse(both.stdout);
    // Twice the rows with the same steps (the files' own `step`, not 1 and 2): the same mean, and each group of the
    // one file now holds its rows from both files (same step, same prompt): as many groups.
    expect(d.rows).toBe(2 * one.rows);
    expect(d.reward.mean).toBe(one.reward.mean);
    expect(d.groups).toBe(one.groups);
    expect(one.errors).toBe(0);
  });

  it('several files named: read in step order whatever the order given', () => {
    const r = cli(['score', join(run, '10.jsonl'), join(run, '1.jsonl'), '--reward', join(dir, 'step.ts'), '--json']);
    expect(r.code).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ rows: 8, groups: 4 });
    expect(d.reward.mean).toBe(5.5); // (4 × 1 + 4 × 10) / 8
  });

  it('a missing file, a non-data file named, or a folder without data files: exit 1 naming it', () => {
    const missing = cli(['score', join(run, '1.jsonl'), join(run, '99.jsonl'), '--reward', join(dir, 'step.ts')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read the data file ${join(run, '99.jsonl')}: no such file or folder`);
    const notData = cli(['score', join(run, '1.jsonl'), join(run, 'notes.md'), '--reward', join(dir, 'step.ts')]);
    expect(notData.code).toBe(1);
    expect(notData.stderr).toContain('notes.md is not a data file');
    const empty = cli(['score', join(run, 'nested', '..', 'nested'), '--reward', join(dir, 'step.ts')]);
    expect(empty.code).toBe(0); // nested/ holds 3.jsonl: a folder of one data file
    const none = join(dir, 'empty');
    mkdirSync(none);
    const e = cli(['score', none, '--reward', join(dir, 'step.ts')]);
    expect(e.code).toBe(1);
    expect(e.stderr).toContain('no data file in');
  });

  it('the sandbox reads the folder and nothing beside it', () => {
    writeFileSync(join(dir, 'secret.txt'), 'top secret');
    const peek = join(dir, 'peek.ts');
    const read = (p: string) => `(process as any).getBuiltinModule('fs').readFileSync(${JSON.stringify(p)}, 'utf8').length`;
    // Row 0 reads a file of the folder (allowed: the folder is the data); row 1 the file beside it (refused).
    writeFileSync(
      peek,
      `export default function reward(t: any) {\n  if (t.index === 0) return ${read(join(run, '1.jsonl'))};\n  if (t.index === 1) return ${read(join(dir, 'secret.txt'))};\n  return 1;\n}\n`,
    );
    const out = join(dir, 'peek-out.jsonl');
    const r = cli(['score', run, '--reward', peek, '--json', '--out', out]);
    expect(r.code).toBe(0);
    const rows = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { reward: number | null; error: string | null });
    expect(rows[0].reward).toBe(dump('1').length);
    expect(rows[1].error).toMatch(/^Error: Access to this API has been restricted/);
  });
});
