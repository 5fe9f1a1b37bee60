import { describe, expect, it } from 'vitest';
import { PRESET_IDS } from '../core/stats/advantage';
import { labelValue } from '../core/dataset/meta';
import { parseArgs } from './args';

const base = ['score', 'data.jsonl', '--reward', 'r.ts'];

describe('parseArgs', () => {
  it('takes a folder or several data files (issue 24)', () => {
    const p = parseArgs(['score', 'run/1.jsonl', 'run/2.jsonl', '--reward', 'r.ts']);
    if (p.kind !== 'score') throw new Error(JSON.stringify(p));
    expect(p.options.dataPaths).toEqual(['run/1.jsonl', 'run/2.jsonl']);
    expect(p.options.dataPath).toBe('run/1.jsonl');
    const q = parseArgs(['probe', 'rollouts/', '--reward', 'r.ts']);
    if (q.kind !== 'probe') throw new Error(JSON.stringify(q));
    expect(q.options.dataPaths).toEqual(['rollouts/']);
  });
  it('reads the command line of the issue, with defaults', () => {
    const p = parseArgs(base);
    expect(p).toEqual({
      kind: 'score',
      options: {
        dataPath: 'data.jsonl',
        dataPaths: ['data.jsonl'],
        rewardPaths: ['r.ts'],
        rewardWeights: null,
        preset: 'trl',
        label: null,
        groupBy: null,
        out: null,
        json: false,
        timeLimitMs: 1000,
        tokenizer: 'gpt2',
        workers: null,
        format: null,
        mapping: null,
        pythonFunction: null,
        batchSize: 32,
        allowAll: false,
        byStep: false,
        maxLength: null,
        models: [],
        shapes: [],
        workerMemoryMb: 4096,
        shard: null,
        savePartial: null,
      },
    });
  });

  it('--shard i/n and --save-partial; merge takes partial files and --json only', () => {
    const s = parseArgs([...base, '--shard', '2/8', '--save-partial', 'p.rsp']);
    expect(s.kind === 'score' && [s.options.shard, s.options.savePartial]).toEqual([{ index: 2, count: 8 }, 'p.rsp']);
    expect(parseArgs([...base, '--shard=1/1'])).toMatchObject({ kind: 'score', options: { shard: { index: 1, count: 1 } } });
    for (const bad of ['0/3', '4/3', '1/0', '2', '1/2/3', 'a/b', '-1/3', '1.5/3', '1/100001', ''])
      expect(parseArgs([...base, '--shard', bad])).toEqual({
        kind: 'usage-error',
        message: `--shard must be i/n with 1 ≤ i ≤ n ≤ 100000 (shard i of n), got "${bad}"`,
      });
    expect(parseArgs([...base, '--save-partial='])).toMatchObject({ kind: 'usage-error', message: '--save-partial needs a file name' });
    expect(parseArgs([...base, '--save-partial', 'x', '--out', 'x'])).toMatchObject({
      kind: 'usage-error',
      message: '--save-partial and --out name the same file',
    });
    expect(parseArgs(['probe', 'd.jsonl', '--reward', 'r.ts', '--shard', '1/2'])).toMatchObject({ message: '--shard applies to score, not probe' });
    expect(parseArgs([...base, '--shard', '1/2', '--shape', 'clip:min=0'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^--shape does not go with --shard/),
    });
    expect(parseArgs([...base, '--save-partial', 'p.rsp', '--shape', 'clip:min=0'])).toMatchObject({ kind: 'usage-error' });
    expect(parseArgs([...base, '--save-partial', 'p.rsp', '--model', 'a', '--model', 'b'])).toMatchObject({
      kind: 'usage-error',
      message: expect.stringMatching(/^--save-partial does not go with two or more --model/),
    });
    expect(parseArgs([...base, '--save-partial', 'p.rsp', '--model', 'a'])).toMatchObject({ kind: 'score' });
    expect(parseArgs(['merge', 'a.rsp', 'b.rsp', '--json'])).toEqual({ kind: 'merge', paths: ['a.rsp', 'b.rsp'], json: true });
    expect(parseArgs(['merge', 'a.rsp'])).toEqual({ kind: 'merge', paths: ['a.rsp'], json: false });
    expect(parseArgs(['merge'])).toMatchObject({ kind: 'usage-error', message: 'merge: missing the partial files (written by score --save-partial)' });
    expect(parseArgs(['merge', 'a.rsp', '--preset', 'verl'])).toMatchObject({
      kind: 'usage-error',
      message: '--preset applies to score, not merge (merge takes partial files and --json)',
    });
  });

  it('reads --by-step and --max-length (a whole number of characters ≥ 1)', () => {
    const s = parseArgs(['score', 'd.jsonl', '--reward', 'r.ts', '--by-step', '--max-length=512']);
    expect(s.kind === 'score' && [s.options.byStep, s.options.maxLength]).toEqual([true, 512]);
    for (const bad of ['0', '-3', '1.5', 'x', '']) {
      expect(parseArgs(['score', 'd.jsonl', '--reward', 'r.ts', '--max-length', bad])).toMatchObject({
        kind: 'usage-error',
        message: expect.stringMatching(/--max-length must be/),
      });
    }
    expect(parseArgs(['score', 'd.jsonl', '--reward', 'r.ts', '--by-step=1'])).toEqual({ kind: 'usage-error', message: '--by-step takes no value' });
  });
  it('takes --model more than once, in order, for score and probe', () => {
    const s = parseArgs([...base, '--model', 'a', '--model=models/b']);
    expect(s.kind === 'score' && s.options.models).toEqual(['a', 'models/b']);
    const p = parseArgs(['probe', 'd.jsonl', '--reward', 'r.ts', '--model', 'm']);
    expect(p.kind === 'probe' && p.options.models).toEqual(['m']);
    expect(parseArgs([...base, '--model='])).toMatchObject({ kind: 'usage-error', message: '--model needs a folder' });
  });

  it('reads every option, in any order, with --x=v too', () => {
    const p = parseArgs([
      '--json',
      'score',
      '--preset=rloo',
      'd.csv',
      '--label',
      'is_correct',
      '--out',
      'o.jsonl',
      '--reward=r.js',
      '--time-limit',
      '200',
      '--tokenizer',
      'qwen3',
      '--workers',
      '3',
    ]);
    expect(p.kind).toBe('score');
    if (p.kind !== 'score') return;
    expect(p.options).toMatchObject({
      dataPath: 'd.csv',
      rewardPaths: ['r.js'],
      preset: 'rloo',
      label: 'is_correct',
      out: 'o.jsonl',
      json: true,
      timeLimitMs: 200,
      tokenizer: 'qwen3',
      workers: 3,
    });
  });

  it('accepts every advantage preset of the registry in src/core/stats', () => {
    for (const id of PRESET_IDS) expect(parseArgs([...base, '--preset', id])).toMatchObject({ kind: 'score', options: { preset: id } });
  });

  it('builds a column mapping from --prompt/--completion', () => {
    const p = parseArgs([...base, '--prompt', 'q', '--completion', 'a', '--group', 'qid', '--ground-truth', 'gold']);
    expect(p).toMatchObject({ kind: 'score', options: { format: 'mapped', mapping: { prompt: 'q', completion: 'a', group: 'qid', groundTruth: 'gold' } } });
    expect(parseArgs([...base, '--format', 'openai-messages'])).toMatchObject({ kind: 'score', options: { format: 'openai-messages', mapping: null } });
  });

  it('reads the Python options of a .py reward', () => {
    expect(parseArgs(['score', 'd.jsonl', '--reward', 'r.py'])).toMatchObject({
      kind: 'score',
      options: { rewardPaths: ['r.py'], pythonFunction: null, batchSize: 32 },
    });
    expect(parseArgs(['score', 'd.jsonl', '--reward', 'r.py', '--function', 'compute_score', '--batch-size=8'])).toMatchObject({
      kind: 'score',
      options: { pythonFunction: 'compute_score', batchSize: 8 },
    });
  });

  it('reads several --reward files, in order, with --reward-weights (TRL reward_funcs + reward_weights)', () => {
    expect(parseArgs([...base, '--reward=acc.py', '--reward-weights', '1, 0.5'])).toMatchObject({
      kind: 'score',
      options: { rewardPaths: ['r.ts', 'acc.py'], rewardWeights: [1, 0.5], batchSize: 32 },
    });
    expect(parseArgs([...base, '--reward', 'b.ts'])).toMatchObject({ kind: 'score', options: { rewardPaths: ['r.ts', 'b.ts'], rewardWeights: null } });
  });

  it('asks for help', () => {
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['score', '-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [[], /missing command/],
    [['run', 'd.jsonl'], /unknown command "run"/],
    [['score', '--reward', 'r.ts'], /missing the data file/],
    [['score', 'd.jsonl'], /missing --reward/],
    [['score', 'd.jsonl', '--reward'], /--reward needs a value/],
    [[...base, '--preset', 'ppo'], /unknown --preset "ppo"/],
    [[...base, '--bogus'], /unknown option --bogus/],
    [[...base, '--time-limit', '0'], /--time-limit/],
    [[...base, '--time-limit', 'soon'], /--time-limit/],
    [[...base, '--tokenizer', 'bert'], /unknown --tokenizer/],
    [[...base, '--workers', '0'], /--workers/],
    [[...base, '--format', 'mapped'], /unknown --format/],
    [[...base, '--prompt', 'q'], /needs both --prompt and --completion/],
    [[...base, '--json=yes'], /takes no value/],
    [[...base, '--out', 'a', '--out', 'b'], /given twice/],
    [[...base, '--reward', 'b.ts', '--reward-weights', '1'], /invalid --reward-weights: 1 weights for 2 reward functions/],
    [[...base, '--reward-weights', 'one'], /invalid --reward-weights: "one" is not a number/],
    [[...base, '--reward', 'b.py', '--function', 'f'], /--function applies to a single --reward file/],
    [[...base, '--function', 'f'], /--function applies to Python rewards/],
    [[...base, '--batch-size', '4'], /--batch-size applies to Python rewards/],
    [['score', 'd.jsonl', '--reward', 'r.py', '--function', 'a-b'], /--function must be a Python function name/],
    [['score', 'd.jsonl', '--reward', 'r.py', '--batch-size', '0'], /--batch-size must be a whole number/],
    [['score', 'd.jsonl', '--reward', 'r.py', '--batch-size', '2.5'], /--batch-size must be a whole number/],
  ])('usage error: %j', (argv, message) => {
    const p = parseArgs(argv);
    expect(p.kind).toBe('usage-error');
    if (p.kind === 'usage-error') expect(p.message).toMatch(message);
  });
});

describe('labelValue', () => {
  it('reads booleans, numbers, numeric strings and "true"/"false"; anything else is NaN', () => {
    expect([true, false, 1, 0, 0.5, -2].map(labelValue)).toEqual([1, 0, 1, 0, 0.5, -2]);
    expect(['1', '0', ' 0.25 ', 'true', 'FALSE', ' True '].map(labelValue)).toEqual([1, 0, 0.25, 1, 0, 1]);
    for (const v of ['', 'yes', 'maybe', null, undefined, {}, [], Number.NaN, Infinity]) expect(labelValue(v)).toBeNaN();
  });
});
