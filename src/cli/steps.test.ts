/**
 * `reward-studio score --by-step`: the real CLI (built as cli.test.ts builds it) on a run of 5 steps, against the numpy
 * reference of scripts/steps-fixtures.py (which also wrote the data file).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diff } from '../core/stats/fixtures/check';
import fixture from '../core/steps/fixtures/steps.json';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
const DATA = join(ROOT, 'src/cli/fixtures/steps/run.jsonl');
let dir = '';
let reward = '';

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-steps-'));
  reward = join(dir, 'field.ts');
  // The reward is the row's own `r` field (null stays null: that row is not scored).
  writeFileSync(
    reward,
    'export default function reward(t: { fields: Record<string, unknown> }) {\n  return t.fields.r === null ? null : Number(t.fields.r);\n}\n',
  );
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}, 130_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The reference's per-step figures in the JSON's shape (the reference also counts n, which the JSON leaves out). */
const expected = fixture.cli.expected.steps.map((s) => ({
  step: s.step,
  rows: s.rows,
  groups: s.groups,
  reward: { mean: s.reward.mean, std: s.reward.std },
  collapse: s.collapse,
  label: s.label && { agreement: s.label.agreement, accuracy: s.label.accuracy, gap: s.label.gap },
  length: s.length,
  truncated: s.truncated,
}));

describe('reward-studio score --by-step', () => {
  it('--json adds steps (equal to the numpy reference) and divergence after the usual keys', () => {
    const r = cli(['score', DATA, '--reward', reward, '--label', 'ok', '--by-step', '--max-length', String(fixture.cli.maxLength), '--json', '--workers', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out).slice(-2)).toEqual(['steps', 'divergence']);
    expect(out.rows).toBe(60);
    expect(diff(out.steps, expected)).toEqual([]);
    expect((out.steps as unknown[]).length).toBe(5);
    expect(out.divergence).toEqual(fixture.cli.expected.divergence);
  }, 60_000);

  it('without --max-length only the finish reasons count; without --label the label is null', () => {
    const r = cli(['score', DATA, '--reward', reward, '--by-step', '--json', '--workers', '1']);
    expect(r.code).toBe(0);
    const steps = (JSON.parse(r.stdout) as { steps: { truncated: number; label: unknown; step: number }[] }).steps;
    expect(steps.map((s) => s.label)).toEqual([null, null, null, null, null]);
    expect(
      diff(
        steps.map((s) => s.truncated),
        fixture.cli.truncatedByReason,
      ),
    ).toEqual([]);
  }, 60_000);

  it('the human report prints a table of the steps and the divergence in words', () => {
    const r = cli(['score', DATA, '--reward', reward, '--label', 'ok', '--by-step', '--workers', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/by step {5}5 steps/);
    expect(r.stdout).toMatch(/step +rows +groups +mean +std +zero std/);
    expect(r.stdout).toMatch(/^divergence {2}/m);
    // The reward takes 0.5 too: agreement is not defined, and the report says why.
    expect(r.stdout).toContain('label       agreement with ok: n/a (agreement needs rows whose reward and label are both 0 or 1)');
  }, 60_000);

  it('--max-length must be a whole number ≥ 1, and --by-step belongs to score', () => {
    expect(cli(['score', DATA, '--reward', reward, '--max-length', '0']).stderr).toMatch(/--max-length must be a whole number of characters ≥ 1, got "0"/);
    expect(cli(['probe', DATA, '--reward', reward, '--by-step']).stderr).toMatch(/--by-step applies to score, not probe/);
  });

  it('--by-step with --shard: 3 partials merge to the whole run’s steps, divergence and components, as the same string', () => {
    // A dict result, so the per-step components travel through the partials too.
    const dict = join(dir, 'dict.ts');
    writeFileSync(
      dict,
      'export default function reward(t: { fields: Record<string, unknown>; completion: string }) {\n' +
        '  if (t.fields.r === null) return null;\n' +
        '  const r = Number(t.fields.r);\n' +
        '  return { score: r, components: { half: r / 2, chars: t.completion.length } };\n}\n',
    );
    const opts = ['--reward', dict, '--label', 'ok', '--by-step', '--max-length', String(fixture.cli.maxLength), '--json', '--workers', '1'];
    const whole = cli(['score', DATA, ...opts]);
    expect(whole.code).toBe(0);
    const out = JSON.parse(whole.stdout) as { steps: { components?: Record<string, unknown> }[] };
    expect(Object.keys(out.steps[0].components ?? {})).toEqual(['half', 'chars']);
    const parts = [1, 2, 3].map((k) => join(dir, `steps-${k}.rsp`));
    for (const [k, p] of parts.entries()) expect(cli(['score', DATA, ...opts, '--shard', `${k + 1}/3`, '--save-partial', p]).code).toBe(0);
    const merged = cli(['merge', ...parts, '--json']);
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toBe(whole.stdout);
  }, 120_000);
});
