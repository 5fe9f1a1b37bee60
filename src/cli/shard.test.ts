/**
 * Scoring past one machine (issue 24): `score --shard i/n --save-partial`, then `merge`, through the real CLI
 * (built once, run as a subprocess as in cli.test.ts). A merge must print what scoring everything at once prints.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
const DEMO = join(ROOT, 'public/demo/gsm8k-rollouts.jsonl');
const DEMO_ROWS = 800;
let dir = '';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
/** The CLI as a child process; asynchronous, so a test can run its shards side by side. */
function cli(args: string[], timeout = 120_000): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, timeout });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}
const path = (name: string) => join(dir, name);

/** Every number of two report objects equal within `tol` (keys, order and everything else exactly). */
function expectClose(a: unknown, b: unknown, tol: number, where = '$'): void {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Math.abs(a - b) > tol) throw new Error(`${where}: ${a} vs ${b}`);
    return;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    expect(a, where).toEqual(b);
    return;
  }
  expect(Object.keys(a), where).toEqual(Object.keys(b));
  for (const k of Object.keys(a)) expectClose((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], tol, `${where}.${k}`);
}

/** Score whole and as shards 1..n (saving partials), merge; returns the outputs. */
async function wholeAndShards(name: string, args: string[], n: number) {
  const whole = await cli(['score', DEMO, ...args, '--json']);
  expect(whole.stderr).toBe('');
  expect(whole.code).toBe(0);
  const shards: Run[] = [];
  // Two at a time: the machine has few cores.
  for (let i = 1; i <= n; i += 2) {
    const batch = [i, i + 1].filter((k) => k <= n);
    shards.push(
      ...(await Promise.all(
        batch.map((k) =>
          cli(['score', DEMO, ...args, '--json', '--shard', `${k}/${n}`, '--save-partial', path(`${name}-${k}.rsp`), '--out', path(`${name}-${k}.jsonl`)]),
        ),
      )),
    );
  }
  for (const s of shards) {
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
  }
  const partials = Array.from({ length: n }, (_, k) => path(`${name}-${k + 1}.rsp`));
  const merged = await cli(['merge', ...partials, '--json']);
  expect(merged.stderr).toBe('');
  expect(merged.code).toBe(0);
  return {
    whole: JSON.parse(whole.stdout),
    shards: shards.map((s) => JSON.parse(s.stdout)),
    merged: JSON.parse(merged.stdout),
    mergedText: merged.stdout,
    wholeText: whole.stdout,
    partials,
  };
}

/** Each shard's --out lines: every dataset row in exactly one shard, every group in one shard only. */
function expectPartition(name: string, n: number): void {
  const groupShard = new Map<string, number>();
  const seen = new Set<number>();
  for (let k = 1; k <= n; k++) {
    const lines = readFileSync(path(`${name}-${k}.jsonl`), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { index: number; group: string });
    for (const l of lines) {
      expect(seen.has(l.index), `row ${l.index} in two shards`).toBe(false);
      seen.add(l.index);
      const before = groupShard.get(l.group);
      expect(before === undefined || before === k, `group ${l.group} split between shards ${before} and ${k}`).toBe(true);
      groupShard.set(l.group, k);
    }
  }
  expect(seen.size).toBe(DEMO_ROWS);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-shard-'));
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}, 130_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Ties, nulls and thrown errors, so Spearman's ranks, the error table and the collapse split all have work to do.
const LENGTHS_TS = `export default function reward(t) {
  const n = t.completion.length;
  if (n % 13 === 0) throw new Error('thirteen: ' + n);
  if (n % 11 === 0) return null;
  return (n % 5) / 4 + (t.completion.includes('A:') ? 0.5 : 0);
}
`;
const ANSWER_TS = `export default function reward(t) {
  return t.completion.trim().endsWith(String(t.groundTruth ?? '')) ? 1 : 0;
}
`;
const LENGTHS_PY = `def length_reward(completions, **kwargs):
    return [None if len(c) % 11 == 0 else (len(c) % 7) / 6 for c in completions]
`;

describe('score --shard i/n --save-partial, then merge (issue 24)', () => {
  it('TypeScript, two functions with weights, --label, --group-by, --preset verl: 3 shards merge to the whole run’s JSON', async () => {
    const args = ['--reward', file('lengths.ts', LENGTHS_TS), '--reward', file('answer.ts', ANSWER_TS), '--reward-weights', '1,0.5'];
    const opts = [...args, '--label', 'is_correct_openai', '--group-by', 'model', '--preset', 'verl'];
    const r = await wholeAndShards('ts', opts, 3);
    // Every figure within 1e-9, Spearman and the distinct count exactly; in fact the rows are merged back in dataset
    // order and go through the same report function, so the object is the same to the last bit.
    expectClose(r.merged, r.whole, 1e-9);
    expect(r.merged.length.spearman).toBe(r.whole.length.spearman);
    expect(r.merged.reward.distinct).toBe(r.whole.reward.distinct);
    expect(r.mergedText).toBe(r.wholeText);
    expect(r.whole.errors).toBeGreaterThan(0);
    expect(r.whole.functions[0].errors).toBe(r.whole.errors);
    expect(r.whole.functions.map((f: { name: string }) => f.name)).toEqual(['lengths', 'answer']);
    // The shards describe their own rows: they sum to the whole.
    expect(r.shards.map((s) => s.rows).reduce((a, b) => a + b)).toBe(DEMO_ROWS);
    expect(r.shards.map((s) => s.groups).reduce((a, b) => a + b)).toBe(r.whole.groups);
    expect(r.shards.map((s) => s.errors).reduce((a, b) => a + b)).toBe(r.whole.errors);
    expect(r.shards.every((s) => s.rows > 0 && s.rows < DEMO_ROWS)).toBe(true);
    expectPartition('ts', 3);

    // Without --json, merge prints the human report of the whole run (all but the time line; files by their names).
    const human = await cli(['score', DEMO, ...opts]);
    const mergedHuman = await cli(['merge', ...r.partials]);
    expect(mergedHuman.code).toBe(0);
    const strip = (t: string) =>
      t
        .split('\n')
        .filter((l) => !l.startsWith('time'))
        .join('\n')
        .replace(DEMO, 'gsm8k-rollouts.jsonl')
        .replaceAll(`${dir}/`, '');
    expect(strip(mergedHuman.stdout)).toBe(strip(human.stdout));
    expect(mergedHuman.stdout).toContain('thirteen');
  }, 240_000);

  it('Python (a TRL function): 3 shards merge to the whole run’s JSON', async () => {
    const opts = ['--reward', file('lengths.py', LENGTHS_PY), '--label', 'is_correct_openai'];
    const r = await wholeAndShards('py', opts, 3);
    expectClose(r.merged, r.whole, 1e-9);
    expect(r.merged.length.spearman).toBe(r.whole.length.spearman);
    expect(r.mergedText).toBe(r.wholeText);
    expect(r.shards.map((s) => s.rows).reduce((a, b) => a + b)).toBe(DEMO_ROWS);
    expectPartition('py', 3);
  }, 300_000);

  it('--model: each shard’s rows get their own model scores (by position); 2 shards merge to the whole run’s JSON', async () => {
    const model = join(ROOT, 'public/models/tiny-reward');
    const opts = ['--reward', file('rm.ts', 'export default (t, ctx) => ctx.models.tiny_reward;\n'), '--model', model, '--json'];
    const whole = await cli(['score', DEMO, ...opts]);
    expect(whole.code).toBe(0);
    for (const k of [1, 2]) expect((await cli(['score', DEMO, ...opts, '--shard', `${k}/2`, '--save-partial', path(`m-${k}.rsp`)])).code).toBe(0);
    const merged = await cli(['merge', path('m-1.rsp'), path('m-2.rsp'), '--json']);
    expect(merged.stdout).toBe(whole.stdout);
    expect(JSON.parse(whole.stdout).reward.distinct).toBeGreaterThan(700);
  }, 120_000);

  it('a shard of 1/1 merges alone; shard 5/8 runs exactly the groups FNV-1a gives shard 5, and no row of another shard', async () => {
    const reward = file('one.ts', LENGTHS_TS);
    const whole = await cli(['score', DEMO, '--reward', reward, '--json', '--shard', '1/1', '--save-partial', path('one.rsp')]);
    expect(whole.code).toBe(0);
    const merged = await cli(['merge', path('one.rsp'), '--json']);
    expect(merged.stdout).toBe(whole.stdout);
    // Group "0" falls to shard 8/8: a reward that never returns on it must never be called on shard 5.
    const hangs = file('hangs.ts', `export default function reward(t) { if (t.group === '0') for (;;); return t.completion.length; }\n`);
    const five = await cli(['score', DEMO, '--reward', hangs, '--shard', '5/8', '--out', path('five.jsonl'), '--time-limit', '2000']);
    expect(five.code).toBe(0);
    expect(five.stdout).toMatch(/errors 0 {3}timed out 0/);
    expect(five.stdout).toMatch(/^.*gsm8k-rollouts\.jsonl \(shard 5\/8: \d+ of 800 rows\)/);
    const groups = new Set(
      readFileSync(path('five.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (JSON.parse(l) as { group: string }).group),
    );
    // The demo's group column holds 0…199; their shards of 8 by scripts/shard-fixtures.py's FNV-1a.
    expect([...groups].sort((a, b) => Number(a) - Number(b))).toEqual(FIVE_OF_EIGHT);
  }, 120_000);
});

// scripts/shard-fixtures.py's shard_of: [str(g) for g in range(200) if shard_of(str(g), 8) == 5]
const FIVE_OF_EIGHT = [
  '1',
  '9',
  '10',
  '18',
  '21',
  '29',
  '36',
  '47',
  '54',
  '65',
  '72',
  '83',
  '90',
  '98',
  '100',
  '108',
  '113',
  '126',
  '131',
  '139',
  '144',
  '157',
  '162',
  '175',
  '180',
  '188',
  '193',
];

/** A partial rewritten: its header changed by `edit`, its payload by `body` (then gzipped again). */
function forge(from: string, to: string, edit: (h: Record<string, unknown>) => void, body?: (raw: Buffer) => Buffer): string {
  const raw = gunzipSync(readFileSync(from));
  const len = raw.readUInt32LE(0);
  const h = JSON.parse(raw.subarray(4, 4 + len).toString('utf8')) as Record<string, unknown>;
  edit(h);
  const head = Buffer.from(JSON.stringify(h));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  let out: Buffer = Buffer.concat([size, head, raw.subarray(4 + len)]);
  if (body) out = body(out);
  writeFileSync(path(to), gzipSync(out));
  return path(to);
}

describe('merge refuses partials that do not add up (exit 1, the file and the reason named)', () => {
  const parts = () => [1, 2, 3].map((k) => path(`h-${k}.rsp`));
  beforeAll(async () => {
    const reward = file('h.ts', LENGTHS_TS);
    await Promise.all([1, 2, 3].map((k) => cli(['score', DEMO, '--reward', reward, '--shard', `${k}/3`, '--save-partial', path(`h-${k}.rsp`), '--json'])));
    const ok = await cli(['merge', ...parts(), '--json']);
    expect(ok.code).toBe(0);
  }, 120_000);

  const refused = async (files: string[], message: string | RegExp) => {
    const r = await cli(['merge', ...files, '--json']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(1);
  };

  it('a file cut short (the gzip stream, or the columns inside it), or not a partial at all', async () => {
    const [p1, p2, p3] = parts();
    const bytes = readFileSync(p1);
    writeFileSync(path('cut.rsp'), bytes.subarray(0, bytes.length >> 1));
    await refused([path('cut.rsp'), p2, p3], /cut\.rsp: not a partial file of reward-studio \(not gzip, or cut short: unexpected end of file\)/);
    const inner = forge(
      p1,
      'inner.rsp',
      () => {},
      (raw) => raw.subarray(0, raw.length - 100),
    );
    await refused([inner, p2, p3], /inner\.rsp: cut short: column \S+ needs \d+ bytes at \d+, the file has \d+/);
    await refused([DEMO, p2, p3], /gsm8k-rollouts\.jsonl: not a partial file of reward-studio \(not gzip/);
    await refused([path('nowhere.rsp')], /cannot read .*nowhere\.rsp/);
  });

  it('another format version, a reward file that differs, another preset', async () => {
    const [p1, p2, p3] = parts();
    await refused([forge(p1, 'v2.rsp', (h) => (h.version = 2)), p2, p3], /v2\.rsp: partial format version 2; this reward-studio reads version 1/);
    const otherReward = forge(p2, 'sha.rsp', (h) => ((h.run as { rewards: { sha256: string }[] }).rewards[0].sha256 = 'f'.repeat(64)));
    await refused([p1, otherReward, p3], /sha\.rsp and .*h-1\.rsp come from different runs: their rewards differs/);
    await refused(
      [p1, p2, forge(p3, 'preset.rsp', (h) => ((h.run as { preset: string }).preset = 'rloo'))],
      /preset\.rsp and .*h-1\.rsp come from different runs: their preset differs \("rloo" vs "trl"\)/,
    );
  });

  it('a shard twice, a shard missing, a group in the wrong shard', async () => {
    const [p1, p2, p3] = parts();
    await refused([p1, p2, p2, p3], /shard 2\/3 given twice \(.*h-2\.rsp and .*h-2\.rsp\)/);
    await refused([p1, p3], /shard 2\/3 missing \(2 of 3 given\)/);
    // Shard 1's rows relabelled as shard 2: its groups hash to shard 1.
    await refused([forge(p1, 'moved.rsp', (h) => ((h.shard as { index: number }).index = 2)), p3], /moved\.rsp: group "\d+" belongs to shard 1\/3, not 2\/3/);
  });

  it('columns of different lengths, and sizes declared huge', async () => {
    const [p1, p2, p3] = parts();
    const short = forge(p1, 'short.rsp', (h) => ((h.columns as { length: number }[])[1].length -= 1));
    await refused([short, p2, p3], /short\.rsp: column score has \d+ values where the partial has \d+ rows/);
    const huge = forge(p1, 'huge.rsp', (h) => (h.rows = 1e12));
    await refused([huge, p2, p3], /huge\.rsp: header → rows: /);
    // Within the limits but far past the file: refused before any column is copied.
    const big = forge(p1, 'big.rsp', (h) => {
      h.rows = 40_000_000;
      (h.run as { datasetRows: number }).datasetRows = 40_000_000;
      for (const c of h.columns as { length: number }[]) c.length = 40_000_000;
    });
    await refused([big, p2, p3], /big\.rsp: cut short: column index needs 160000000 bytes/);
    const header = forge(
      p1,
      'header.rsp',
      () => {},
      (raw) => (raw.writeUInt32LE(0xfffffff0, 0), raw),
    );
    await refused([header, p2, p3], /header\.rsp: cut short or malformed: its header declares 4294967280 bytes/);
  });

  it('usage errors exit 2: merge with no files, an option of score', async () => {
    const none = await cli(['merge']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('merge: missing the partial files');
    const shard = await cli(['score', DEMO, '--reward', path('h.ts'), '--shard', '4/3']);
    expect(shard.code).toBe(2);
    expect(shard.stderr).toContain('--shard must be i/n with 1 ≤ i ≤ n ≤ 100000 (shard i of n), got "4/3"');
  });
});
