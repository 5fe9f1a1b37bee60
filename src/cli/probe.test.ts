/**
 * `reward-studio probe` end to end (the built CLI as a subprocess), against scripts/probe-fixtures.py: the same
 * reward written in Python there, its probes and figures computed from the definitions, in expected.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
const FIXTURE = join(__dirname, 'fixtures/probe');
const DATA = join(FIXTURE, 'data.jsonl');
const EXPECTED = JSON.parse(readFileSync(join(FIXTURE, 'expected.json'), 'utf8')) as Record<string, Report>;

interface ProbeLine {
  name: string;
  kind: string;
  n: number;
  passes: number;
  passRate: number | null;
  passCI: (number | null)[];
  wins: number;
  winRate: number | null;
  winCI: (number | null)[];
  meanDelta: number | null;
}
interface Report {
  rows: number;
  threshold: number;
  probes: ProbeLine[];
  fooled: string[];
}

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rs-probe-'));
  const build = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (build.status !== 0) throw new Error(build.stderr);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], timeout = 120_000) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** The fixture's reward in each language and convention (scripts/probe-fixtures.py, fixture_reward). */
const REWARDS = {
  ts: [
    'export default function reward(t) {',
    '  const c = t.completion;',
    '  if (c.endsWith(t.groundTruth)) return 1;',
    "  if (c.includes('Solution')) return 0.5;",
    '  return Math.min(0.25, c.length / 400);',
    '}',
    '',
  ].join('\n'),
  verl: [
    'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
    '    if solution_str.endswith(ground_truth):',
    '        return 1.0',
    '    if "Solution" in solution_str:',
    '        return 0.5',
    '    return min(0.25, len(solution_str) / 400)',
    '',
  ].join('\n'),
  trl: [
    'def score_one(c, gt):',
    '    return 1.0 if c.endswith(gt) else 0.5 if "Solution" in c else min(0.25, len(c) / 400)',
    '',
    '',
    'def fixture_reward(completions, ground_truth, **kwargs):',
    '    return [score_one(c, gt) for c, gt in zip(completions, ground_truth)]',
    '',
  ].join('\n'),
  // OpenRLHF's remote reward function: queries are prompt + response, so the response is what follows the prompt.
  openrlhf: [
    'def reward_func(queries, prompts, labels):',
    '    out = []',
    '    for q, p, gt in zip(queries, prompts, labels):',
    '        c = q[len(p):]',
    '        out.append(1.0 if c.endswith(gt) else 0.5 if "Solution" in c else min(0.25, len(c) / 400))',
    '    return out',
    '',
  ].join('\n'),
};

function expectReport(got: Report, want: Report): void {
  expect(got.rows).toBe(want.rows);
  expect(got.threshold).toBe(want.threshold);
  expect(got.fooled).toEqual(want.fooled);
  expect(got.probes.map((p) => p.name)).toEqual(want.probes.map((p) => p.name));
  got.probes.forEach((p, i) => {
    const w = want.probes[i];
    expect(Object.keys(p)).toEqual(['name', 'kind', 'n', 'passes', 'passRate', 'passCI', 'wins', 'winRate', 'winCI', 'meanDelta']);
    expect([p.kind, p.n, p.passes, p.wins]).toEqual([w.kind, w.n, w.passes, w.wins]);
    for (const [a, b] of [
      [p.passRate, w.passRate],
      [p.winRate, w.winRate],
      [p.meanDelta, w.meanDelta],
      ...p.passCI.map((x, k) => [x, w.passCI[k]]),
      ...p.winCI.map((x, k) => [x, w.winCI[k]]),
    ]) {
      if (b === null) expect(a).toBeNull();
      else expect(a).toBeCloseTo(b as number, 12);
    }
  });
}

describe('reward-studio probe', () => {
  it('TypeScript, threshold from --label: the figures of the Python reference; exit 3 when a probe fools the reward', () => {
    const r = cli(['probe', DATA, '--reward', file('fixture.ts', REWARDS.ts), '--label', 'correct', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expectReport(JSON.parse(r.stdout), EXPECTED.label);
  });

  it('--pass 0.5 makes the word “Solution” pass; --sample 5 --seed 3 probes the reference’s five rows', () => {
    const reward = file('fixture2.ts', REWARDS.ts);
    const pass = cli(['probe', DATA, '--reward', reward, '--pass', '0.5', '--json']);
    expect(pass.code).toBe(3);
    expectReport(JSON.parse(pass.stdout), EXPECTED.pass);
    const sample = cli(['probe', DATA, '--reward', reward, '--pass', '0.5', '--sample', '5', '--seed', '3', '--json']);
    expectReport(JSON.parse(sample.stdout), EXPECTED.sample);
  });

  it.each([
    ['verl compute_score', 'fixture_verl.py', REWARDS.verl],
    ['a TRL reward function', 'fixture_trl.py', REWARDS.trl],
    ['an OpenRLHF reward_func', 'fixture_openrlhf.py', REWARDS.openrlhf],
  ])(
    'Python, %s: the same figures',
    (_, name, code) => {
      const r = cli(['probe', DATA, '--reward', file(name, code), '--label', 'correct', '--json'], 240_000);
      expect(r.code).toBe(3);
      expectReport(JSON.parse(r.stdout), EXPECTED.label);
    },
    240_000,
  );

  it('exit 0 when no probe fools the reward; the human report names each probe and its verdict', () => {
    // Only the replacement probes other than "Solution" (none of them passes at threshold 1).
    const r = cli([
      'probe',
      DATA,
      '--reward',
      file('fixture3.ts', REWARDS.ts),
      '--label',
      'correct',
      '--probe',
      'empty',
      '--probe',
      'master-key::',
      '--probe',
      'cross',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^probed 12 of 12 rollouts; pass threshold 1 \(median reward of the rollouts whose label is true\)$/m);
    expect(r.stdout).toMatch(/^ {2}master-key:":" +replace +n +12 +passes 0\.0 % \[0\.0, 24\.2\] +mean change -0\.3554 +ok$/m);
    expect(r.stdout).toMatch(/^no probe fools the reward$/m);
  });

  it('usage errors exit 2 with the reason', () => {
    const reward = file('fixture4.ts', REWARDS.ts);
    for (const [args, message] of [
      [['--probe', 'nope'], 'unknown probe "nope"'],
      [['--max-rate', '2'], '--max-rate must be a rate from 0 to 1, got "2"'],
      [['--sample', '0'], '--sample must be a whole number ≥ 1, got "0"'],
      [['--out', join(dir, 'x.jsonl')], '--out applies to score, not probe'],
      [['--reward', reward], 'probe takes one --reward file'],
    ] as const) {
      const r = cli(['probe', DATA, '--reward', reward, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    // Without a label the median of these rewards is 0.0425, above the lowest (0.03): no warning.
    const plain = cli(['probe', DATA, '--reward', reward, '--probe', 'empty']);
    expect(plain.stderr).not.toContain('warning');
    const binary = file('binary.ts', 'export default (t) => (t.completion.endsWith(t.groundTruth) ? 1 : 0);\n');
    const low = cli(['probe', DATA, '--reward', binary, '--probe', 'empty']);
    expect(low.code).toBe(3);
    expect(low.stderr).toContain('warning: the pass threshold 0 is the lowest reward');
    const s = cli(['score', DATA, '--reward', reward, '--pass', '1']);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('--pass applies to probe, not score');
  });
});
