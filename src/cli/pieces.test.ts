/**
 * A plain JSONL file read in pieces by every worker at once (pieces.ts) gives the output of one worker reading it
 * whole, byte for byte: the real CLI, built once and run as a subprocess, with pieces of any size
 * (REWARD_STUDIO_MIN_PIECE_BYTES=1) against none (a minimum larger than the file).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanParts, leanPieces, mayReadInPieces, pieceCount, piecesFor, piecesPay } from './pieceCount';
import { joinPartPieces, planFilePieces } from './pieces';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/reward-studio.mjs');
let dir = '';

/**
 * `pieces`: read in pieces of any size; 'lean', pieces that keep no row (each task reads its rows again). Either also
 * reads a gzip file from its inflated copy (inflateCopy.ts); `tmp`: the system's temporary folder the run sees.
 */
function cli(args: string[], pieces: boolean | 'lean', tmp?: string) {
  const env = {
    ...process.env,
    REWARD_STUDIO_MIN_PIECE_BYTES: pieces ? '1' : String(2 ** 50),
    REWARD_STUDIO_LEAN_PIECE_BYTES: pieces === 'lean' ? '1' : String(2 ** 50),
    ...(tmp ? { TMPDIR: tmp } : {}),
  };
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const file = (name: string, data: string | Uint8Array) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

/** A reward that reads each row's position, line, id and texts: any row given another's place changes its score. */
const REWARD = `export default function reward(t) {
  let h = t.index * 7 + t.line * 13 + t.id.length * 3 + t.completion.length + t.prompt.length * 5 + (t.preference === 'rejected' ? 11 : 0);
  if (t.completion.includes('boom')) throw new Error('boom on line ' + t.line);
  return (h % 17) / 4;
}
`;

/** Rows with groups, steps, a label, a model column; broken, blank and non-object lines; any text. */
function rollouts(n: number, eol: string): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 53 === 7) lines.push('{"prompt": broken', '', '   ', '[1, 2]');
    lines.push(
      JSON.stringify({
        prompt: `Q${i % 40}: ${'ça 日本語'.repeat(i % 3)}`,
        completion: `${'😀 '.repeat(i % 5)}${i % 97 === 3 ? 'boom' : ''} A: ${i % 11}`,
        uid: `g${i % 40}`,
        step: Math.floor(i / 150),
        correct: i % 3 === 0,
        model: `m${i % 4}`,
      }),
    );
  }
  return lines.join(eol) + eol;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reward-studio-pieces-'));
  const b = spawnSync(process.execPath, [join(ROOT, 'bin/build-cli.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}, 130_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The human report without its time line (how long it took, and on how many workers, differs between runs). */
const untimed = (s: string) => s.replace(/^time {8}.*$/m, 'time');
const workersOf = (s: string) => Number(/^time {8}[\d.]+ s, (\d+) worker/m.exec(s)?.[1]);

describe('reward-studio score: a file read in pieces gives the output of a whole read', () => {
  it('issues with their lines, every figure, --out rows, label, group-by and steps: the same bytes (BOM, CRLF, LF)', () => {
    const reward = file('r.js', REWARD);
    const enc = new TextEncoder();
    for (const [name, eol, bom] of [
      ['lf.jsonl', '\n', false],
      ['crlf.jsonl', '\r\n', true],
    ] as const) {
      const text = enc.encode(rollouts(600, eol));
      const data = file(name, bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...text]) : text);
      for (const workers of ['2', '3']) {
        const outs = ([true, false, 'lean'] as const).map((pieces) => {
          const out = join(dir, `${name}.out.jsonl`);
          const args = ['score', data, '--reward', reward, '--workers', workers, '--label', 'correct', '--group-by', 'model', '--by-step', '--out', out];
          const human = cli(args, pieces);
          const json = cli([...args, '--json'], pieces);
          return { human, json, rows: readFileSync(out, 'utf8') };
        });
        const [split, whole, lean] = outs;
        expect(split.human.code).toBe(0);
        // Lean pieces: the same bytes, from rows read again by each task.
        expect(workersOf(lean.human.stdout)).toBe(Number(workers));
        expect(untimed(lean.human.stdout)).toBe(untimed(whole.human.stdout));
        expect(lean.human.stderr).toBe(whole.human.stderr);
        expect([lean.json.stdout, lean.rows]).toEqual([whole.json.stdout, whole.rows]);
        // The pieces were read by every worker; the whole file by one (the staged start adds no other for 600 rows).
        expect(workersOf(split.human.stdout)).toBe(Number(workers));
        expect(workersOf(whole.human.stdout)).toBe(1);
        expect(untimed(split.human.stdout)).toBe(untimed(whole.human.stdout));
        expect(split.human.stderr).toBe(whole.human.stderr);
        expect(split.human.stderr).toMatch(/line 8\b/); // the first broken line, numbered in the whole file
        expect(split.json.stdout).toBe(whole.json.stdout);
        expect(split.rows).toBe(whole.rows);
        expect(split.rows.split('\n').filter(Boolean)).toHaveLength(600);
        expect(JSON.parse(split.json.stdout).errors).toBe(7); // rows 3, 100, 197, …, 585 throw
      }
    }
  }, 120_000);

  it('a reward that does not compile: the same message and exit, at once (no piece read keeps the process alive)', () => {
    const bad = file('bad.js', 'export default function reward(t) { return 1 +; }\n');
    const data = file('ok.jsonl', rollouts(200, '\n'));
    const [split, whole] = [true, false].map((pieces) => cli(['score', data, '--reward', bad, '--workers', '2'], pieces));
    expect(split.code).toBe(1);
    expect(split.stderr).toMatch(/the reward does not compile \(.*bad\.js, line 1\)/);
    expect([split.code, split.stdout, split.stderr]).toEqual([whole.code, whole.stdout, whole.stderr]);
  }, 60_000);

  it('a Python reward (TRL batches of 3, a batch that raises): the same bytes, every worker reading its piece', () => {
    // Each score depends on its row's texts and uid (the emoji and multi-byte text move the byte cuts off the rows' blocks).
    const reward = file(
      'r.py',
      `def reward(prompts, completions, uid=None, **kwargs):
    if any('boom' in c for c in completions):
        raise ValueError('boom')
    return [((len(p) * 5 + len(c) + len(u) * 3 + ord(c[0])) % 17) / 4 for p, c, u in zip(prompts, completions, uid)]
`,
    );
    const data = file('py.jsonl', rollouts(400, '\n'));
    const out = join(dir, 'py.out.jsonl');
    const args = ['score', data, '--reward', reward, '--workers', '2', '--batch-size', '3', '--label', 'correct', '--by-step', '--out', out];
    const [split, whole, lean] = ([true, false, 'lean'] as const).map((pieces) => {
      const human = cli(args, pieces);
      return { human, json: cli([...args, '--json'], pieces), rows: readFileSync(out, 'utf8') };
    });
    expect(split.human.code).toBe(0);
    expect(untimed(lean.human.stdout)).toBe(untimed(whole.human.stdout));
    expect([lean.human.stderr, lean.json.stdout, lean.rows]).toEqual([whole.human.stderr, whole.json.stdout, whole.rows]);
    expect(workersOf(split.human.stdout)).toBe(2);
    expect(untimed(split.human.stdout)).toBe(untimed(whole.human.stdout));
    expect(split.human.stderr).toBe(whole.human.stderr);
    expect(split.human.stderr).toMatch(/line 8\b/);
    expect(split.json.stdout).toBe(whole.json.stdout);
    expect(split.rows).toBe(whole.rows);
    // Rows 3, 100, 197, 294 and 391 hold "boom": each fails its batch of 3 (batches start on multiples of 3).
    expect(JSON.parse(split.json.stdout).errors).toBe(15);
  }, 120_000);

  it('preference pairs and --shard: the same bytes', () => {
    const reward = file('r.js', REWARD);
    const pairs = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ prompt: `p${i % 25} é`, chosen: `good ${i}`, rejected: `bad ${'x'.repeat(i % 7)}` }),
    ).join('\n');
    const data = file('pairs.jsonl', pairs + '\n');
    for (const extra of [[], ['--shard', '2/3']]) {
      const args = ['score', data, '--reward', reward, '--workers', '2', '--json', ...extra];
      const [split, whole, lean] = [cli(args, true), cli(args, false), cli(args, 'lean')];
      expect(split.code).toBe(0);
      expect(split.stdout).toBe(whole.stdout);
      expect(split.stderr).toBe(whole.stderr);
      expect([lean.stdout, lean.stderr]).toEqual([whole.stdout, whole.stderr]);
    }
    expect(JSON.parse(cli(['score', data, '--reward', reward, '--json'], true).stdout).rows).toBe(600);
  }, 60_000);

  it('one worker reads a file too large to keep as one lean piece: the same bytes', () => {
    const reward = file('r.js', REWARD);
    const data = file('one.jsonl', rollouts(400, '\n'));
    const args = ['score', data, '--reward', reward, '--workers', '1', '--by-step', '--json'];
    const [lean, whole] = [cli(args, 'lean'), cli(args, false)];
    expect(lean.code).toBe(0);
    expect([lean.stdout, lean.stderr]).toEqual([whole.stdout, whole.stderr]);
  }, 60_000);

  it('a folder of files read lean, a file a worker: the same bytes as a whole read (steps from names and rows, issues by file)', () => {
    const reward = file('r.js', REWARD);
    const folder = join(dir, 'steps');
    mkdirSync(folder);
    const enc = new TextEncoder();
    // step_10 has a byte-order mark and CRLF; in step_20 some rows carry their own step; step_3 comes first (steps order).
    writeFileSync(join(folder, 'run_step_10.jsonl'), new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(rollouts(300, '\r\n').replace(/"step":\d+,/g, ''))]));
    writeFileSync(
      join(folder, 'run_step_20.jsonl'),
      rollouts(250, '\n').replace(/"step":(\d+),/g, (m, k) => (Number(k) % 2 ? '' : m)),
    );
    writeFileSync(join(folder, 'run_step_3.jsonl'), rollouts(120, '\n').replace(/"step":\d+,/g, ''));
    for (const extra of [[], ['--label', 'correct', '--group-by', 'model', '--by-step']]) {
      const out = join(dir, 'steps.out.jsonl');
      const args = ['score', folder, '--reward', reward, '--workers', '2', '--out', out, ...extra];
      const [lean, whole] = (['lean', false] as const).map((mode) => {
        const human = cli(args, mode);
        return { human, json: cli([...args, '--json'], mode), rows: readFileSync(out, 'utf8') };
      });
      expect(lean.human.code).toBe(0);
      expect(untimed(lean.human.stdout)).toBe(untimed(whole.human.stdout));
      expect(lean.human.stderr).toBe(whole.human.stderr);
      expect(lean.human.stderr).toMatch(/run_step_10\.jsonl.*line 8\b|line 8\b.*run_step_10/);
      expect([lean.json.stdout, lean.rows]).toEqual([whole.json.stdout, whole.rows]);
      expect(lean.rows.split('\n').filter(Boolean)).toHaveLength(670);
    }
    // A Python reward (TRL's keyword columns) on the same folder, lean: the same bytes.
    const py = file(
      'r.py',
      'def reward(prompts, completions, uid=None, **kwargs):\n    return [((len(p) * 5 + len(c) + len(u) * 3) % 17) / 4 for p, c, u in zip(prompts, completions, uid)]\n',
    );
    const pyArgs = ['score', folder, '--reward', py, '--workers', '2', '--by-step', '--json'];
    const [pyLean, pyWhole] = [cli(pyArgs, 'lean'), cli(pyArgs, false)];
    expect(pyLean.code).toBe(0);
    expect([pyLean.stdout, pyLean.stderr]).toEqual([pyWhole.stdout, pyWhole.stderr]);
    // A folder with a file that is not JSONL (CSV) is read whole, as before.
    writeFileSync(join(folder, 'run_step_40.csv'), 'prompt,completion\nq,a\n');
    const args = ['score', folder, '--reward', reward, '--workers', '2', '--json'];
    const [lean, whole] = [cli(args, 'lean'), cli(args, false)];
    expect(lean.code).toBe(0);
    expect([lean.stdout, lean.stderr]).toEqual([whole.stdout, whole.stderr]);
    expect(JSON.parse(lean.stdout).rows).toBe(671);
  }, 120_000);

  it('a folder of gzip step files read lean from their copies: the bytes of the gzip read, and no copy left behind', () => {
    const reward = file('r.js', REWARD);
    const folder = join(dir, 'gz-steps');
    const tmp = join(dir, 'tmp-gz-steps');
    mkdirSync(folder);
    mkdirSync(tmp);
    const enc = new TextEncoder();
    writeFileSync(join(folder, 'run_step_10.jsonl.gz'), gzipSync(new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(rollouts(300, '\r\n'))])));
    writeFileSync(join(folder, 'run_step_20.jsonl'), rollouts(250, '\n'));
    writeFileSync(join(folder, 'run_step_3.jsonl.gz'), gzipSync(rollouts(120, '\n').replace(/"step":\d+,/g, '')));
    const out = join(dir, 'gz-steps.out.jsonl');
    for (const more of [[], ['--allow-all']]) {
      const args = ['score', folder, '--reward', reward, '--workers', '2', '--out', out, '--label', 'correct', '--by-step', ...more];
      const [lean, whole] = (['lean', false] as const).map((mode) => {
        const human = cli(args, mode, tmp);
        return { human, json: cli([...args, '--json'], mode, tmp), rows: readFileSync(out, 'utf8') };
      });
      expect(lean.human.code).toBe(0);
      expect(whole.human.stdout).toMatch(/^\S+: JSONL \(gzip\),/m);
      // A file a worker, from the copies (a gzip file is not plain JSONL: without them the parts are read whole, by one).
      expect([workersOf(lean.human.stdout), workersOf(whole.human.stdout)]).toEqual([2, 1]);
      expect(untimed(lean.human.stdout)).toBe(untimed(whole.human.stdout));
      expect(lean.human.stderr).toBe(whole.human.stderr);
      expect(lean.human.stderr).toMatch(/run_step_10\.jsonl\.gz/); // issues name the gzip file
      expect([lean.json.stdout, lean.rows]).toEqual([whole.json.stdout, whole.rows]);
      expect(readdirSync(tmp)).toEqual([]);
    }
  }, 120_000);

  it('lean pieces: a row that loops past the time limit fails alone, and the fresh worker reads its rows again', () => {
    const reward = file('loop.js', REWARD.replace("throw new Error('boom on line ' + t.line)", 'for (;;);'));
    const data = file('loop.jsonl', rollouts(300, '\n'));
    const args = ['score', data, '--reward', reward, '--workers', '2', '--time-limit', '200'];
    const [lean, whole] = [cli(args, 'lean'), cli(args, false)];
    expect(lean.code).toBe(0);
    expect(untimed(lean.stdout)).toBe(untimed(whole.stdout));
    // Rows 3, 100, 197 and 294 hold "boom", and loop.
    expect(lean.stdout).toMatch(/^scored {6}296 {3}nulls 0 {3}errors 0 {3}timed out 4$/m);
    expect(lean.stdout).toMatch(/row 294: timed out after 200 ms/);
  }, 60_000);
});

describe('reward-studio score: a gzip JSONL file read from its inflated copy', () => {
  it('in pieces and lean, sandboxed and not: the bytes of the gzip read (which says gzip), and no copy left behind', () => {
    const reward = file('r.js', REWARD);
    const enc = new TextEncoder();
    const tmp = join(dir, 'tmp-gz');
    mkdirSync(tmp);
    for (const [name, eol, bom] of [
      ['lf.jsonl.gz', '\n', false],
      ['crlf.jsonl.gz', '\r\n', true],
    ] as const) {
      const text = enc.encode(rollouts(600, eol));
      const data = file(name, gzipSync(bom ? new Uint8Array([0xef, 0xbb, 0xbf, ...text]) : text));
      const out = join(dir, `${name}.out.jsonl`);
      const args = ['score', data, '--reward', reward, '--workers', '2', '--label', 'correct', '--group-by', 'model', '--by-step', '--out', out];
      const run = (pieces: boolean | 'lean', more: string[] = []) => {
        const human = cli([...args, ...more], pieces, tmp);
        const json = cli([...args, ...more, '--json'], pieces, tmp);
        return { human, json, rows: readFileSync(out, 'utf8') };
      };
      const whole = run(false);
      expect(whole.human.stdout).toMatch(/^\S+\.jsonl\.gz: JSONL \(gzip\), TRL prompt\/completion$/m);
      expect(workersOf(whole.human.stdout)).toBe(1); // read as gzip, by one worker
      for (const [pieces, more] of [
        [true, []],
        ['lean', []],
        [true, ['--allow-all']],
      ] as const) {
        const copied = run(pieces, [...more]);
        expect(copied.human.code).toBe(0);
        expect(workersOf(copied.human.stdout)).toBe(2); // read in pieces: from the plain copy
        expect(untimed(copied.human.stdout)).toBe(untimed(whole.human.stdout));
        expect(copied.human.stderr).toBe(whole.human.stderr);
        expect([copied.json.stdout, copied.rows]).toEqual([whole.json.stdout, whole.rows]);
        expect(readdirSync(tmp)).toEqual([]);
      }
    }
  }, 120_000);

  it('a truncated gzip file is left to the gzip read: the same rows and issues, nothing left behind', () => {
    const reward = file('r.js', REWARD);
    const tmp = join(dir, 'tmp-cut');
    mkdirSync(tmp);
    const rows = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ prompt: `Q${i % 40}`, completion: `A: ${i} ${'ça 日本語 '.repeat(i % 7)}` }));
    const gz = gzipSync(rows.join('\n') + '\n');
    const data = file('cut.jsonl.gz', gz.subarray(0, Math.floor(gz.length * 0.7)));
    const [copied, whole] = ([true, false] as const).map((pieces) => cli(['score', data, '--reward', reward, '--workers', '2'], pieces, tmp));
    expect(copied.code).toBe(0);
    expect(copied.stderr).toMatch(/the gzip stream ends early/);
    expect([untimed(copied.stdout), copied.stderr]).toEqual([untimed(whole.stdout), whole.stderr]);
    expect(readdirSync(tmp)).toEqual([]);
  }, 60_000);

  it('stopped by SIGTERM or SIGINT mid-run, sandboxed or not: the copy goes with it', async () => {
    const slow = file('slow.js', 'export default function reward(t) { const end = Date.now() + 5; while (Date.now() < end); return 1; }\n');
    const data = file('slow.jsonl.gz', gzipSync(rollouts(3000, '\n')));
    for (const [sig, more] of [
      ['SIGTERM', []],
      ['SIGINT', ['--allow-all']],
      ['SIGTERM', ['--allow-all']],
    ] as const) {
      const tmp = mkdtempSync(join(dir, 'tmp-sig-'));
      const env = { ...process.env, REWARD_STUDIO_MIN_PIECE_BYTES: '1', TMPDIR: tmp };
      const child = spawn(process.execPath, [BIN, 'score', data, '--reward', slow, '--workers', '2', ...more], { cwd: ROOT, env, stdio: 'ignore' });
      const exited = new Promise<[number | null, string | null]>((res) => child.on('exit', (code, signal) => res([code, signal])));
      // The copy is there while the run goes on.
      for (let i = 0; i < 200 && readdirSync(tmp).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(tmp)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 300));
      child.kill(sig);
      const [code, signal] = await exited;
      expect(code !== 0 || signal !== null).toBe(true);
      expect(readdirSync(tmp)).toEqual([]);
    }
  }, 60_000);
});

describe('planFilePieces: lean where the scanner gives the facts', () => {
  const none: { format: null; mapping: null; label: string | null; groupBy: string | null } = { format: null, mapping: null, label: null, groupBy: null };
  it('flat rows with no --label or --group-by, from the given piece size; otherwise only when too large to keep', async () => {
    const flat = file('plan-flat.jsonl', rollouts(600, '\n'));
    const size = readFileSync(flat).length;
    const lean = async (o: Partial<typeof none>, tooLarge: boolean, bytes: number) => {
      const plan = await planFilePieces(flat, 'plan-flat.jsonl', 1, { ...none, ...o }, tooLarge, bytes);
      if (!plan) throw new Error('no plan');
      expect(plan.requests.every((q) => (q.lean === true) === plan.lean)).toBe(true);
      return plan.lean;
    };
    expect(await lean({}, false, size)).toBe(true);
    expect(await lean({}, false, size + 1)).toBe(false);
    expect(await lean({ label: 'correct' }, false, size)).toBe(false);
    expect(await lean({ groupBy: 'model' }, false, size)).toBe(false);
    expect(await lean({ label: 'correct' }, true, size)).toBe(true);
    // Chats are not a flat format: the scanner does not give their facts.
    const chat = file(
      'plan-chat.jsonl',
      Array.from({ length: 80 }, (_, i) =>
        JSON.stringify({
          messages: [
            { role: 'user', content: `q${i}` },
            { role: 'assistant', content: `a${i}` },
          ],
        }),
      ).join('\n'),
    );
    const plan = await planFilePieces(chat, 'plan-chat.jsonl', 1, none, false, 1);
    expect(plan?.detection.format).toBe('openai-messages');
    expect(plan?.lean).toBe(false);
  });
});

describe('mayReadInPieces', () => {
  it('a TypeScript reward has one worker per piece: more workers than pieces would read their rows a second time', () => {
    const reward = file('r.js', REWARD);
    const text = rollouts(600, '\n');
    const data = file('two.jsonl', text);
    // Pieces of at least half the file: two, whatever --workers asks for.
    const env = { ...process.env, REWARD_STUDIO_MIN_PIECE_BYTES: String(Math.floor(Buffer.byteLength(text) / 2)) };
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 20_000, env });
    const split = run(['score', data, '--reward', reward, '--workers', '4']);
    expect(split.status).toBe(0);
    expect(workersOf(split.stdout)).toBe(2);
    const whole = cli(['score', data, '--reward', reward, '--workers', '4'], false);
    expect(untimed(split.stdout)).toBe(untimed(whole.stdout));
  }, 60_000);

  it('counts the pieces a file gives for a number of workers as planPieces cuts them', () => {
    const big = file('sized.jsonl', '{"prompt": "p", "completion": "c"}\n');
    truncateSync(big, 5 * (8 << 20) + 1);
    expect(piecesFor(big, 16)).toBe(5);
    expect(piecesFor(big, 3)).toBe(3);
    expect(piecesFor(join(dir, 'missing.jsonl'), 4)).toBe(1);
  });

  it('a Python reward reads a large JSONL file in pieces on any machine; TypeScript on 3 cores, or 2 from 512 MB', () => {
    const MB = 1 << 20;
    expect([1, 2, 3, 16].map((cores) => piecesPay(cores, 16 * MB, true))).toEqual([true, true, true, true]);
    expect([1, 2, 3, 16].map((cores) => piecesPay(cores, 16 * MB, false))).toEqual([false, false, true, true]);
    expect([1, 2, 3].map((cores) => piecesPay(cores, 512 * MB, false))).toEqual([false, true, true]);
    expect(piecesPay(2, 512 * MB - 1, false)).toBe(false);
    // Sparse: only the head is read. Two pieces of the 8 MB minimum, and a byte less.
    const big = file('big.jsonl', '{"prompt": "p", "completion": "c"}\n');
    truncateSync(big, 2 * (8 << 20));
    expect(mayReadInPieces(big, true)).toBe(true);
    expect(mayReadInPieces(big, false)).toBe(availableParallelism() >= 3);
    truncateSync(big, 512 << 20);
    expect(mayReadInPieces(big, false)).toBe(availableParallelism() >= 2);
    truncateSync(big, 2 * (8 << 20) - 1);
    expect(mayReadInPieces(big, true)).toBe(false);
    const csv = file('big.csv', 'prompt,completion\n');
    truncateSync(csv, 2 * (8 << 20));
    expect(mayReadInPieces(csv, true)).toBe(false);
  });
});

describe('leanPieces', () => {
  it('from 512 MiB a piece, a quarter of the worker heap limit, or rows that would take half the memory', () => {
    const GiB = 2 ** 30;
    const big = file('lean.jsonl', '{"prompt": "p", "completion": "c"}\n');
    truncateSync(big, 2 * GiB);
    const plenty = 2 ** 50;
    expect([2, 3, 4, 5].map((pieces) => leanPieces(big, pieces, 4096, plenty))).toEqual([true, true, true, false]);
    // A quarter of a 1 GiB heap limit: from 256 MiB a piece.
    expect(leanPieces(big, 8, 1024, plenty)).toBe(true);
    expect(leanPieces(big, 9, 1024, plenty)).toBe(false);
    // 1.8 × 2 GiB of rows against half of 7.2 GiB of memory: lean; against half of 7.2 GiB and a byte, not.
    expect(leanPieces(big, 8, 4096, 7.2 * GiB)).toBe(true);
    expect(leanPieces(big, 8, 4096, 7.2 * GiB + 1)).toBe(false);
    expect(leanPieces(big, 0, 4096, 1)).toBe(false);
    expect(leanPieces(join(dir, 'missing.jsonl'), 2, 4096, 1)).toBe(false);
  });
});

describe('a dataset of several files read lean', () => {
  const detection = { container: 'jsonl' as const, format: 'trl-standard' as const, detected: 'trl-standard' as const, reason: '', columns: [], gzip: false };
  const meta = (groupOf: number[], groupKeys: string[], steps: number[], issues: { line: number; reason: string }[] = []) => ({
    rows: groupOf.length,
    issues,
    detection,
    groupOf: Int32Array.from(groupOf),
    groupKeys,
    lengths: Float64Array.from(groupOf, (g) => g + 1),
    steps: Float64Array.from(steps),
    truncated: Float64Array.from(groupOf, () => NaN),
    labels: null,
    labelPresent: 0,
    groupBy: null,
  });
  const index = (n: number) => ({ spans: Float64Array.from({ length: 2 * n }, (_, i) => 10 * i), lines: Int32Array.from({ length: n }, (_, i) => i + 1) });
  const plan = (...ends: number[]) => ({ detection, requests: ends.map((end) => ({ end }) as never), lean: true });

  it('rows without a step take their file’s, groups are (step, key) over all files, issues are named (worked by hand)', () => {
    // File a (step 5): rows of "x" without a step and one of "x" at step 5 of its own, which is the same group; a row of
    // "y" at step 7. File b (no step in its name): "x" without a step, a group of its own; "y" at step 7, the same as a's.
    const a = meta([0, 0, 1, 2], ['x', 'x', 'y'], [NaN, NaN, 5, 7], [{ line: 3, reason: 'bad' }]);
    const b = meta([0, 1], ['x', 'y'], [NaN, 7], [{ line: 1, reason: 'worse' }]);
    const got = joinPartPieces(
      plan(100, 100),
      [
        { meta: a, index: index(4) },
        { meta: b, index: index(2) },
      ],
      [
        { name: 'a_step_5.jsonl', step: 5 },
        { name: 'b.jsonl', step: null },
      ],
    );
    expect(got?.meta.groupKeys).toEqual(['x', 'y', 'x']);
    expect(Array.from(got?.meta.groupOf ?? [])).toEqual([0, 0, 0, 1, 2, 1]);
    expect(Array.from(got?.meta.steps ?? [])).toEqual([5, 5, 5, 7, NaN, 7]);
    expect(got?.meta.issues).toEqual([
      { line: 3, reason: 'bad', file: 'a_step_5.jsonl' },
      { line: 1, reason: 'worse', file: 'b.jsonl' },
    ]);
    expect(got?.indexes).toEqual([index(4), index(2)]);
  });

  it('gives up on a file without rows, or a read that does not fit its file', () => {
    const parts = [{ name: 'a', step: null }];
    expect(joinPartPieces(plan(100), [{ meta: meta([], [], []), index: index(0) }], parts)).toBeNull();
    expect(joinPartPieces(plan(15), [{ meta: meta([0, 0], ['x'], [NaN, NaN]), index: index(2) }], parts)).toBeNull();
    expect(joinPartPieces(plan(100), [{ meta: meta([0, 0], ['x'], [NaN, NaN]), index: index(2) }], parts)).not.toBeNull();
    expect(joinPartPieces(plan(100, 100), [{ meta: meta([0], ['x'], [NaN]), index: index(1) }], parts)).toBeNull();
  });

  it('leanParts: plain JSONL files of 128 MiB a worker together, or too large to keep', () => {
    const GiB = 2 ** 30;
    const paths = ['p1.jsonl', 'p2.jsonl', 'p3.jsonl'].map((n) => file(n, '{"prompt": "p", "completion": "c"}\n'));
    for (const p of paths) truncateSync(p, 100 << 20);
    const plenty = 2 ** 50;
    // 300 MiB: over 128 MiB for each of 2 workers; not for 3.
    expect(leanParts(paths, 2, 4096, plenty)).toBe(true);
    expect(leanParts(paths, 3, 4096, plenty)).toBe(false);
    expect(leanParts(paths, 3, 4096, GiB)).toBe(true); // 1.8 × 300 MiB ≥ half of 1 GiB
    expect(leanParts(paths, 3, 4096, 1.1 * GiB)).toBe(false);
    // A quarter of a 400 MiB heap limit: from 100 MiB a worker.
    expect(leanParts(paths, 3, 400, plenty)).toBe(true);
    expect(leanParts([...paths, file('p4.csv', 'prompt,completion\n')], 2, 4096, plenty)).toBe(false);
    expect(leanParts([...paths, join(dir, 'missing.jsonl')], 2, 4096, plenty)).toBe(false);
    expect(leanParts([], 2, 4096, 1)).toBe(false);
  });
});

describe('the workers a pool starts with', () => {
  it('one per piece of a large JSONL file, else none read in pieces (one worker first)', () => {
    const big = file('first.jsonl', '{"prompt": "p", "completion": "c"}\n');
    truncateSync(big, 5 * (8 << 20) + 1);
    expect(pieceCount(big, true, 16)).toBe(5);
    expect(pieceCount(big, true, 3)).toBe(3);
    expect(pieceCount(big, true, 1)).toBe(0);
    expect(pieceCount(big, false, 16)).toBe(availableParallelism() >= 3 ? 5 : 0);
    expect(pieceCount(null, true, 16)).toBe(0);
    // A file too large to keep (600 MiB, lean from 512 MiB a piece) is one lean piece for one worker.
    truncateSync(big, 600 << 20);
    expect(pieceCount(big, false, 1)).toBe(1);
    expect(pieceCount(big, true, 1)).toBe(1);
    const csv = file('big.csv', 'prompt,completion\n');
    truncateSync(csv, 600 << 20);
    expect(pieceCount(csv, false, 1)).toBe(0);
    expect(pieceCount(file('small.jsonl', '{"prompt": "p", "completion": "c"}\n'), true, 16)).toBe(0);
  });

  it('a Python reward on a small file: one worker for a quick run, every worker once the run shows it is long', () => {
    const data = file('few.jsonl', rollouts(200, '\n'));
    const quick = file('quick.py', 'def reward(prompts, completions, **kwargs):\n    return [len(c) for c in completions]\n');
    // 20 ms a row: 4 s of scoring, against a worker's start of about a second at most (from the snapshot or not).
    const slow = file(
      'slow.py',
      `import time
def reward(prompts, completions, **kwargs):
    out = []
    for c in completions:
        t = time.perf_counter()
        while time.perf_counter() - t < 0.02:
            pass
        out.append(len(c))
    return out
`,
    );
    const run = (reward: string) => cli(['score', data, '--reward', reward, '--workers', '4', '--batch-size', '1'], false);
    const [q, s] = [run(quick), run(slow)];
    expect(q.code).toBe(0);
    expect(workersOf(q.stdout)).toBe(1);
    expect(s.code).toBe(0);
    expect(workersOf(s.stdout)).toBe(4);
    // The same figures either way (only the reward's file name differs).
    const figures = (out: string) => untimed(out).replace(/^reward \S+\.py.*$/m, '');
    expect(figures(s.stdout)).toBe(figures(q.stdout));
  }, 60_000);

  it('a Python pool started with two pieces grows to four: the rows of the grown workers in their places', () => {
    const text = rollouts(200, '\n');
    const data = file('grow.jsonl', text);
    // Each score depends on its row's texts (a row given another's place changes it); 20 ms a row, so the pool grows.
    const reward = file(
      'grow.py',
      `import time
def reward(prompts, completions, uid=None, **kwargs):
    out = []
    for p, c, u in zip(prompts, completions, uid):
        t = time.perf_counter()
        while time.perf_counter() - t < 0.02:
            pass
        out.append(((len(p) * 5 + len(c) + len(u) * 3 + ord(c[0])) % 17) / 4)
    return out
`,
    );
    const args = ['score', data, '--reward', reward, '--workers', '4', '--batch-size', '1', '--label', 'correct'];
    const env = { ...process.env, REWARD_STUDIO_MIN_PIECE_BYTES: String(Math.floor(Buffer.byteLength(text) / 2)) };
    const split = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, env });
    const whole = cli(args, false);
    expect(split.status).toBe(0);
    expect(workersOf(split.stdout)).toBe(4);
    expect(untimed(split.stdout)).toBe(untimed(whole.stdout));
    expect(split.stderr).toBe(whole.stderr);
    // Lean: the two pieces' workers and the two grown ones read every task's rows again.
    const lean = spawnSync(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...env, REWARD_STUDIO_LEAN_PIECE_BYTES: '1' },
    });
    expect(lean.status).toBe(0);
    expect(workersOf(lean.stdout)).toBe(4);
    expect([untimed(lean.stdout), lean.stderr]).toEqual([untimed(whole.stdout), whole.stderr]);
  }, 60_000);
});
