import { describe, expect, it } from 'vitest';
import { parseArgs, type ScoreOptions } from './args';
import { handedCopies } from './inflateCopy';
import { permissionFlags, sandboxEnv, v8Flags } from './sandbox';

const options = (argv: string[]): ScoreOptions => {
  const p = parseArgs(argv);
  if (p.kind !== 'score') throw new Error(p.kind);
  return p.options;
};

describe('permissionFlags', () => {
  it('reads: the studio folder and its runtime packages, then the inputs outside them; writes: only --out; workers, no processes', () => {
    const o = options(['score', '/data/rows.jsonl', '--reward', '/code/reward.ts', '--out', '/results/out.jsonl']);
    const pkg = (id: string) => (id.startsWith('pyodide') ? '/elsewhere/node_modules/pyodide/package.json' : `/studio/node_modules/${id}`);
    expect(permissionFlags(o, '/studio', pkg)).toEqual([
      '--experimental-permission',
      '--allow-worker',
      '--allow-fs-read=/studio/*',
      '--allow-fs-read=/elsewhere/node_modules/pyodide/*',
      '--allow-fs-read=/data/rows.jsonl',
      '--allow-fs-read=/code/reward.ts',
      '--allow-fs-write=/results/out.jsonl',
    ]);
  });

  it('leaves out a file inside an allowed folder, and packages it cannot find', () => {
    const o = options(['score', '/studio/public/demo/rows.jsonl', '--reward', '/code/reward.ts']);
    expect(permissionFlags(o, '/studio', () => null)).toEqual([
      '--experimental-permission',
      '--allow-worker',
      '--allow-fs-read=/studio/*',
      '--allow-fs-read=/code/reward.ts',
    ]);
  });

  it('--model: reads the model folders (tokenizer, config; each once), and still allows no addons', () => {
    const o = options(['score', '/data/rows.jsonl', '--reward', '/code/reward.ts', '--model', '/models/rm', '--model', '/models/rm2', '--model', '/models/rm']);
    expect(permissionFlags(o, '/studio', () => null)).toEqual([
      '--experimental-permission',
      '--allow-worker',
      '--allow-fs-read=/studio/*',
      '--allow-fs-read=/models/rm/*',
      '--allow-fs-read=/models/rm2/*',
      '--allow-fs-read=/data/rows.jsonl',
      '--allow-fs-read=/code/reward.ts',
    ]);
  });

  it('a data folder is read whole (its listing and files); several data files each', () => {
    const folder = (p: string) => p === '/runs/r7';
    expect(permissionFlags(options(['score', '/runs/r7', '--reward', '/code/reward.ts']), '/studio', () => null, folder)).toEqual([
      '--experimental-permission',
      '--allow-worker',
      '--allow-fs-read=/studio/*',
      '--allow-fs-read=/runs/r7/*',
      '--allow-fs-read=/code/reward.ts',
    ]);
    expect(
      permissionFlags(
        options(['score', '/runs/1.jsonl', '/runs/2.jsonl', '--reward', '/code/reward.ts']),
        '/studio',
        () => null,
        () => false,
      ),
    ).toEqual([
      '--experimental-permission',
      '--allow-worker',
      '--allow-fs-read=/studio/*',
      '--allow-fs-read=/runs/1.jsonl',
      '--allow-fs-read=/runs/2.jsonl',
      '--allow-fs-read=/code/reward.ts',
    ]);
  });

  it('--allow-all is a flag of the command line', () => {
    expect(options(['score', 'd.jsonl', '--reward', 'r.ts', '--allow-all']).allowAll).toBe(true);
    expect(options(['score', 'd.jsonl', '--reward', 'r.ts']).allowAll).toBe(false);
  });

  it('--save-partial may be written, as --out', () => {
    const o = options(['score', '/data/rows.jsonl', '--reward', '/code/reward.ts', '--shard', '1/2', '--save-partial', '/results/p1.rsp']);
    const flags = permissionFlags(o, '/studio', () => null);
    expect(flags.filter((f) => f.startsWith('--allow-fs-write'))).toEqual(['--allow-fs-write=/results/p1.rsp']);
  });
});

describe('sandboxEnv', () => {
  const key = 'ab'.repeat(32);
  it("hands the sandboxed run this launcher's snapshot key, replacing an inherited one", () => {
    const env = sandboxEnv({ HOME: '/h', REWARD_STUDIO_SNAPSHOT_KEY: 'cd'.repeat(32) }, { path: '/c/pyodide-abab.snapshot', key });
    expect(env).toEqual({ HOME: '/h', REWARD_STUDIO_SNAPSHOT_KEY: key });
  });
  it('passes none on when the launcher made or checked no snapshot', () => {
    expect(sandboxEnv({ HOME: '/h', REWARD_STUDIO_SNAPSHOT_KEY: key }, null)).toEqual({ HOME: '/h' });
  });
  it("hands over the launcher's inflated copies of the data only: an inherited list, which the run would read instead, is dropped", () => {
    const inherited = { HOME: '/h', REWARD_STUDIO_INFLATED: JSON.stringify([['/data/rows.jsonl.gz', '/home/me/.ssh/id_rsa']]) };
    expect(sandboxEnv(inherited, null)).toEqual({ HOME: '/h' });
    const copies: [string, string][] = [['/data/rows.jsonl.gz', '/tmp/reward-studio-x1/rows.jsonl']];
    expect(sandboxEnv(inherited, null, copies)).toEqual({ HOME: '/h', REWARD_STUDIO_INFLATED: JSON.stringify(copies) });
    expect(handedCopies(sandboxEnv(inherited, null, copies).REWARD_STUDIO_INFLATED)).toEqual(copies);
  });
  it('reads a handed list of [data file, copy] pairs, and nothing from any other value', () => {
    for (const v of [undefined, '', 'x', '{}', '[["a"]]', '[["a", 1]]', '[["a", "b", "c"]]', '"a"']) expect(handedCopies(v)).toEqual([]);
  });
});

describe('v8Flags', () => {
  it('a single-threaded garbage collector when a reward is Python (its workers keep every core busy); none for TypeScript alone', () => {
    expect(v8Flags(options(['score', 'd.jsonl', '--reward', 'r.py']))).toEqual(['--single-threaded-gc']);
    expect(v8Flags(options(['score', 'd.jsonl', '--reward', 'a.ts', '--reward', 'b.py']))).toEqual(['--single-threaded-gc']);
    expect(v8Flags(options(['score', 'd.jsonl', '--reward', 'r.ts']))).toEqual([]);
  });
});
