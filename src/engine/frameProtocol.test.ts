import { describe, expect, it } from 'vitest';
import { checkFromFrame, checkRunResult, checkToFrame } from './frameProtocol';

const result = (n: number) => ({
  scores: new Float64Array(n).fill(0.5),
  status: new Uint8Array(n).fill(1),
  errors: new Map([[1, { row: 1, message: 'boom', line: 3 }]]),
  components: {},
  notes: new Map([[0, 'fine']]),
  stdout: '',
});
const outcome = (n: number, extra: Record<string, unknown> = {}) => ({
  kind: 'outcome',
  runId: 7,
  outcome: { kind: 'done', result: { ...result(n), ...extra }, elapsedMs: 12, workersUsed: 2 },
});
const rowsOf = (id: number) => (id === 7 ? 4 : undefined);

describe('replies from the reward sandbox, checked on the page', () => {
  it('a well-formed outcome of a run in flight passes, unchanged', () => {
    const c = checkFromFrame(outcome(4), rowsOf);
    expect(c.ok).toBe(true);
    if (!c.ok || c.value.kind !== 'outcome' || c.value.outcome.kind !== 'done') throw new Error('expected an outcome');
    expect([...c.value.outcome.result.scores]).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(c.value.outcome.result.errors.get(1)).toEqual({ row: 1, message: 'boom', line: 3 });
  });

  it.each([
    ['scores of another length', outcome(5), 'result.scores: expected a Float64Array of 4'],
    ['a status byte outside 0–4', outcome(4, { status: Uint8Array.from([1, 1, 9, 1]) }), 'result.status.2: expected a row status 0–4'],
    ['an error on a row outside the run', outcome(4, { errors: new Map([[4, { row: 4, message: 'x' }]]) }), 'result.errors key: expected an integer in [0, 3]'],
    ['a note that is not text (it would blank the page)', outcome(4, { notes: new Map([[0, { evil: true }]]) }), 'result.notes.0: expected a string'],
    ['errors as a plain object', outcome(4, { errors: {} }), 'result.errors: expected a Map'],
    ['a component column of the wrong kind', outcome(4, { components: { a: [1, 2, 3, 4] } }), 'result.components.a: expected a Float64Array of 4'],
    [
      'a text value that is an object',
      outcome(4, { strings: { pred: ['1', { html: '<b>' }, null, null] } }),
      'result.strings.pred.1: expected null or a string',
    ],
    ['a text column of another length', outcome(4, { strings: { pred: ['1'] } }), 'result.strings.pred: expected an array of 4'],
    [
      'a text value of 500 characters',
      outcome(4, { strings: { pred: ['x'.repeat(500), null, null, null] } }),
      'result.strings.pred.0: expected null or a string',
    ],
    [
      '17 text columns',
      outcome(4, { strings: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`s${i}`, [null, null, null, null]])) }),
      'at most 16 text columns',
    ],
    [
      '65 components',
      outcome(4, { components: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, new Float64Array(4)])) }),
      'at most 64 components',
    ],
  ])('refused: %s', (_, msg, error) => {
    const c = checkFromFrame(msg, rowsOf);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toContain(error);
  });

  it('an outcome for a run the page did not start is refused', () => {
    const c = checkFromFrame({ ...outcome(4), runId: 8 }, rowsOf);
    expect(c).toEqual({ ok: false, error: 'runId: expected a run in flight' });
  });

  it('progress past its total, an unknown kind and a non-object are refused', () => {
    expect(checkFromFrame({ kind: 'progress', runId: 7, progress: { done: 5, total: 4, rowsPerSecond: 1 } }, rowsOf).ok).toBe(false);
    expect(checkFromFrame({ kind: 'result', taskId: 1 }, rowsOf).ok).toBe(false);
    expect(checkFromFrame('outcome', rowsOf).ok).toBe(false);
  });

  it('components named __proto__ and constructor stay names', () => {
    const components = JSON.parse('{"__proto__": 0, "constructor": 0}') as Record<string, unknown>;
    for (const k of Object.keys(components)) components[k] = new Float64Array(2).fill(3);
    const r = checkRunResult({ ...result(2), errors: new Map(), notes: new Map(), components }, 2);
    expect(Object.keys(r.components)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(r.components)).toBe(Object.prototype);
  });

  it('text columns pass with their values; a run without them has none', () => {
    const strings = JSON.parse('{"__proto__": ["72", null]}') as Record<string, unknown>;
    const r = checkRunResult({ ...result(2), strings }, 2);
    expect(Object.keys(r.strings!)).toEqual(['__proto__']);
    expect(r.strings!['__proto__']).toEqual(['72', null]);
    expect(checkRunResult(result(2), 2).strings).toBeUndefined();
  });

  it('step rewards cross to the page; crafted ones are refused with the place named', () => {
    const steps = { offsets: new Int32Array([0, 2, 3]), values: new Float64Array([0.5, 0.25, -1]) };
    expect(checkRunResult({ ...result(2), steps }, 2).steps).toEqual(steps);
    expect(checkRunResult(result(2), 2).steps).toBeUndefined();
    const nan = { offsets: steps.offsets, values: new Float64Array([0.5, Number.NaN, 1]) };
    expect(() => checkRunResult({ ...result(2), steps: nan }, 2)).toThrow('result.steps.values.1');
    const backwards = { offsets: new Int32Array([0, 3, 2]), values: new Float64Array(3) };
    expect(() => checkRunResult({ ...result(2), steps: backwards }, 2)).toThrow('result.steps.offsets.2');
    expect(() => checkRunResult({ ...result(2), steps: { offsets: [0, 1, 2], values: steps.values } }, 2)).toThrow('result.steps.offsets');
  });

  it('a long stdout and a long error message are cut, not refused', () => {
    const r = checkRunResult({ ...result(2), errors: new Map([[0, { row: 0, message: 'e'.repeat(200_000) }]]), stdout: 'o'.repeat(300_000) }, 2);
    expect(r.errors.get(0)!.message.length).toBeLessThan(100_100);
    expect(r.stdout.length).toBeLessThan(201_100);
  });
});

describe('requests from the page, checked in the sandbox', () => {
  const blob = new Blob(['{}\n']);
  const rows = () => 4;

  it('a load of a dataset by its id passes', () => {
    expect(checkToFrame({ kind: 'load', pool: 'py', datasetId: 'd', ds: 'dropped' }, rows)).toEqual({
      ok: true,
      value: { kind: 'load', pool: 'py', datasetId: 'd' },
    });
  });

  it('an edit hint names its pool and carries nothing else; an unknown pool is refused', () => {
    expect(checkToFrame({ kind: 'edit', pool: 'py', code: 'dropped' }, rows)).toEqual({ ok: true, value: { kind: 'edit', pool: 'py' } });
    expect(checkToFrame({ kind: 'edit', pool: '__proto__' }, rows).ok).toBe(false);
  });

  it('a run with a model column of the dataset’s size passes', () => {
    const m = { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { timeLimitMs: 1000, models: { rm: new Float64Array(4) }, tokenizer: 'gpt2' } };
    expect(checkToFrame(m, rows).ok).toBe(true);
  });

  it.each([
    ['an unknown pool', { kind: 'check', pool: 'rust', reqId: 1, code: '' }],
    ['a model column of another size', { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { models: { rm: new Float64Array(3) } } }],
    [
      'a probe run with a model column of the dataset’s size (not the probe’s)',
      { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe: { name: 'empty', rows: Int32Array.from([0, 1]) }, models: { rm: new Float64Array(4) } } },
    ],
    ['an unknown tokenizer', { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { tokenizer: 'constructor' } }],
    ['a zero time limit', { kind: 'run', pool: 'py', runId: 1, code: 'x', opts: { timeLimitMs: 0 } }],
    ['a probe row past the dataset', { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe: { name: 'empty', rows: Int32Array.from([0, 4]) } } }],
    ['a negative probe row', { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe: { name: 'empty', rows: Int32Array.from([-1]) } } }],
    ['an unknown probe', { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe: { name: 'toString', rows: Int32Array.from([0]) } } }],
    [
      'probe donors of another length',
      { kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe: { name: 'cross', rows: Int32Array.from([0, 1]), donors: Int32Array.from([1]) } } },
    ],
    ['a dataset without its file', { kind: 'dataset', pool: 'ts', ds: { file: { datasetId: 'd', name: 'a.jsonl' } }, load: true }],
    ['a load naming no dataset', { kind: 'load', pool: 'ts', datasetId: 7 }],
    ['a load for an unknown pool', { kind: 'load', pool: 'wasm', datasetId: 'd' }],
    ['an unknown Python kind', { kind: 'run', pool: 'py', runId: 1, code: 'x', opts: { python: { name: 'f', kind: 'torch', batchSize: 8 } } }],
    [
      'a reward_funcs weight that is not a number',
      {
        kind: 'run',
        pool: 'py',
        runId: 1,
        code: 'x',
        opts: { python: { name: 'reward_funcs', kind: 'trl', batchSize: 8, functions: [{ name: 'f', weight: '2' }] } },
      },
    ],
  ])('refused: %s', (_, m) => {
    expect(checkToFrame(m, rows).ok).toBe(false);
  });

  it('a reward_funcs call keeps its functions and weights (and nothing else)', () => {
    const python = { name: 'reward_funcs', kind: 'trl', batchSize: 8, functions: [{ name: 'f', weight: 0.5, extra: 1 }], evil: true };
    const c = checkToFrame({ kind: 'run', pool: 'py', runId: 1, code: 'x', opts: { python } }, rows);
    if (!c.ok || c.value.kind !== 'run') throw new Error('expected a run');
    expect(c.value.opts.python).toEqual({ name: 'reward_funcs', kind: 'trl', batchSize: 8, functions: [{ name: 'f', weight: 0.5 }] });
  });

  it('a probe run keeps its probe, rows and donors', () => {
    const probe = { name: 'cross', rows: Int32Array.from([3, 0]), donors: Int32Array.from([1, 2]), evil: 1 };
    const c = checkToFrame({ kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe } }, rows);
    if (!c.ok || c.value.kind !== 'run') throw new Error('expected a run');
    expect(c.value.opts.probe).toEqual({ name: 'cross', rows: Int32Array.from([3, 0]), donors: Int32Array.from([1, 2]) });
  });

  it('a probe run takes model columns of the probe’s length (scores of the probed texts, by position)', () => {
    const models = { rm: Float64Array.from([0.5, -1.5]) };
    const c = checkToFrame({ kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { probe: { name: 'empty', rows: Int32Array.from([3, 0]) }, models } }, rows);
    if (!c.ok || c.value.kind !== 'run') throw new Error('expected a run');
    expect(c.value.opts.models).toEqual(models);
  });

  it('a row-subset run keeps its rows and takes model columns of the subset’s length; a bad subset is refused', () => {
    const models = { rm: Float64Array.from([0.5, -1.5]) };
    const c = checkToFrame({ kind: 'run', pool: 'ts', runId: 1, code: 'x', opts: { rows: Int32Array.from([1, 3]), models } }, rows);
    if (!c.ok || c.value.kind !== 'run') throw new Error('expected a run');
    expect(c.value.opts.rows).toEqual(Int32Array.from([1, 3]));
    expect(c.value.opts.models).toEqual(models);
    const run = (opts: unknown) => checkToFrame({ kind: 'run', pool: 'ts', runId: 1, code: 'x', opts }, rows);
    expect(run({ rows: Int32Array.from([1, 4]) })).toMatchObject({
      ok: false,
      error: expect.stringContaining('opts.rows.1: expected ascending rows of the dataset (0 to 3)'),
    });
    expect(run({ rows: Int32Array.from([2, 2]) })).toMatchObject({ ok: false, error: expect.stringContaining('opts.rows.1') });
    expect(run({ rows: [0, 1] })).toMatchObject({ ok: false, error: expect.stringContaining('opts.rows: expected an Int32Array') });
    expect(run({ rows: Int32Array.from([0, 1]), models: { rm: new Float64Array(4) } })).toMatchObject({ ok: false });
    expect(run({ rows: Int32Array.from([0]), probe: { name: 'empty', rows: Int32Array.from([0]) } })).toMatchObject({
      ok: false,
      error: expect.stringContaining('opts.rows: expected absent in a probe run'),
    });
  });

  it('a dataset with its file passes', () => {
    expect(checkToFrame({ kind: 'dataset', pool: 'py', ds: { size: 4, file: { datasetId: 'd', name: 'a.jsonl', blob } }, load: false }, rows).ok).toBe(true);
  });
});
