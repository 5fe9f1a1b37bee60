import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory';
import { compileReward } from './compile';
import { RowStatus } from './contract';
import { DEFAULT_REWARD_TS } from './defaultReward';
import type { RewardFn } from './compile';
import { runRows } from './runRows';

const row = (index: number, completion: string, groundTruth?: string): Trajectory => ({
  id: String(index),
  index,
  line: index + 1,
  group: 'g',
  prompt: 'p',
  completion,
  messages: [],
  groundTruth,
  fields: {},
});

function compile(src: string) {
  const c = compileReward(src);
  if (!c.ok) throw new Error(c.message);
  return c.fn;
}

describe('compileReward', () => {
  it('compiles TypeScript with type imports', () => {
    const fn = compile(DEFAULT_REWARD_TS);
    expect(typeof fn).toBe('function');
  });
  it('reports a syntax error with its line', () => {
    const c = compileReward('export default function reward(t) {\n  return t.completion.length +;\n}');
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.line).toBe(2);
  });
  it('top-level code that changes something frozen fails to compile with the way out', () => {
    const c = compileReward('const o = Object.freeze({});\no.last = 1;\nexport default () => 1;\n');
    expect(c).toMatchObject({
      ok: false,
      message:
        'TypeError: Cannot add property last, object is not extensible (rollouts and built-ins are read-only in reward code: change a copy, e.g. [...t.fields.xs].sort(), and keep helpers in objects of your own)',
      line: 2,
    });
  });
  it('requires a default export (or a rewardFuncs list)', () => {
    const c = compileReward('export const x = 1;');
    expect(c).toEqual({ ok: false, message: 'reward code must `export default function reward(t, ctx)` or `export const rewardFuncs = [f, g]`' });
  });
});

describe('runRows', () => {
  it('scores the default reward: number after the last A: equals ground truth', () => {
    const rows = [row(0, 'work\nA: 18', '18'), row(1, 'A: 1,000', '1000'), row(2, 'A: 17', '18'), row(3, 'no answer', '18')];
    const r = runRows(compile(DEFAULT_REWARD_TS), (i) => rows[i], 0, 4);
    expect(Array.from(r.scores)).toEqual([1, 1, 0, 0]);
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Ok, RowStatus.Ok]);
  });

  it('records a throw with message and user line, and goes on', () => {
    const src = ['export default function reward(t) {', '  if (t.index === 1) {', "    throw new Error('bad row');", '  }', '  return 1;', '}'].join('\n');
    const rows = [row(0, 'a'), row(1, 'b'), row(2, 'c')];
    const r = runRows(compile(src), (i) => rows[i], 0, 3);
    expect(Array.from(r.status)).toEqual([RowStatus.Ok, RowStatus.Error, RowStatus.Ok]);
    expect(r.errors).toEqual([{ row: 1, message: 'Error: bad row', line: 3 }]);
    expect(Number.isNaN(r.scores[1])).toBe(true);
  });

  it('marks non-numbers as errors and null apart; keeps components and notes; scores a sub-range', () => {
    const src = `export default function reward(t) {
      if (t.index === 1) return null;
      if (t.index === 2) return 'yes';
      if (t.index === 3) return { score: 0.5, components: { fmt: 0.25 }, note: 'half' };
      return 2;
    }`;
    const rows = [row(0, ''), row(1, ''), row(2, ''), row(3, ''), row(4, '')];
    const r = runRows(compile(src), (i) => rows[i], 1, 4);
    expect(r.start).toBe(1);
    expect(Array.from(r.status)).toEqual([RowStatus.Null, RowStatus.Error, RowStatus.Ok]);
    expect(r.errors).toEqual([{ row: 2, message: 'reward returned a string ("yes"), expected a finite number, {score} or null' }]);
    expect(r.scores[2]).toBe(0.5);
    expect(Array.from(r.components.fmt)).toEqual([Number.NaN, Number.NaN, 0.25]);
    expect(r.notes).toEqual([{ row: 3, note: 'half' }]);
  });

  it('calls onRow before each row', () => {
    const seen: number[] = [];
    const rows = [row(0, ''), row(1, ''), row(2, '')];
    runRows(
      compile('export default () => 1'),
      (i) => rows[i],
      1,
      3,
      (i) => seen.push(i),
    );
    expect(seen).toEqual([1, 2]);
  });
});

describe('runRows: rollouts are read-only to reward code', () => {
  const rows = () =>
    [
      { ...row(0, 'A: 1'), messages: [{ role: 'assistant', content: 'A: 1' }], fields: { xs: [3, 1, 2], meta: { tags: ['b', 'a'] } } },
      { ...row(1, 'A: 22'), fields: { xs: [9, 8] } },
    ] as Trajectory[];
  const run = (src: string, data: Trajectory[]) => runRows(compile(src), (i) => data[i], 0, data.length);

  it('a reward that changes its rollout fails that row with the reason and a way out; the rollout is unchanged', () => {
    const data = rows();
    const r = run('export default (t) => (t.fields.xs.sort(), t.fields.xs[0])', data);
    expect([...r.status]).toEqual([RowStatus.Error, RowStatus.Error]);
    expect(r.errors[0].message).toBe(
      "TypeError: Cannot assign to read only property '0' of object '[object Array]' (rollouts and built-ins are read-only in reward code: change a copy, e.g. [...t.fields.xs].sort(), and keep helpers in objects of your own)",
    );
    expect(r.errors[0].line).toBe(1);
    expect(data[0].fields.xs).toEqual([3, 1, 2]);
    // A copy is the way out.
    expect([...run('export default (t) => [...t.fields.xs].sort()[0]', data).scores]).toEqual([1, 8]);
  });

  it('a change the reward swallows reaches no later run, version or function: nested fields, turns, new properties', () => {
    const data = rows();
    const hostile = `export default (t) => {
      for (const f of [
        () => { t.completion = 'A: 999'; },
        () => { t.messages.push({ role: 'user', content: 'x' }); },
        () => { t.messages[0].content = 'changed'; },
        () => { t.fields.meta.tags.reverse(); },
        () => { t.fields.added = 1; },
        () => { delete t.fields.xs; },
        () => { Object.defineProperty(t, 'prompt', { value: 'p2' }); },
      ]) try { f(); } catch {}
      return 0;
    }`;
    expect([...run(hostile, data).status]).toEqual([RowStatus.Ok, RowStatus.Ok]);
    const seen = run('export default (t) => ({ score: t.completion.length, note: JSON.stringify([t.prompt, t.messages, t.fields]) })', data);
    expect([...seen.scores]).toEqual([4, 5]);
    expect(seen.notes.map((n) => n.note)).toEqual([
      JSON.stringify(['p', [{ role: 'assistant', content: 'A: 1' }], { xs: [3, 1, 2], meta: { tags: ['b', 'a'] } }]),
      JSON.stringify(['p', [], { xs: [9, 8] }]),
    ]);
  });

  it('a record nested 100,000 deep is frozen to its last level without overflowing the stack', () => {
    const deep = JSON.parse('['.repeat(100_000) + '7' + ']'.repeat(100_000));
    const data = [{ ...row(0, 'x'), fields: { deep } }] as Trajectory[];
    const r = run(
      'export default (t) => { let v = t.fields.deep; while (Array.isArray(v)) { try { v.push(1); } catch { v = v[0]; continue; } return -1; } return v; }',
      data,
    );
    expect([...r.status]).toEqual([RowStatus.Ok]);
    expect([...r.scores]).toEqual([7]);
  });

  it('a field holding bytes (a Parquet binary column) is handed over as it is', () => {
    const data = [{ ...row(0, 'x'), fields: { bytes: new Uint8Array([7, 8]) } }] as Trajectory[];
    expect([...run('export default (t) => t.fields.bytes[1]', data).scores]).toEqual([8]);
    expect(Object.isFrozen(data[0].fields)).toBe(true);
  });
});

describe('ctx.tokenCount', () => {
  const rows = [{ completion: 'ab' }, { completion: 'abcd' }] as unknown as Trajectory[];
  const fn = ((t: Trajectory, ctx: { tokenCount(s: string): number }) => ctx.tokenCount(t.completion)) as unknown as RewardFn;
  it('uses the counter it is given', () => {
    // A stand-in counter: one token per two characters.
    const r = runRows(
      fn,
      (i) => rows[i],
      0,
      2,
      undefined,
      (s) => s.length / 2,
    );
    expect([...r.scores]).toEqual([1, 2]);
  });
  it('without a tokenizer, each row fails with a message saying what to do', () => {
    const r = runRows(fn, (i) => rows[i], 0, 2);
    expect([...r.status]).toEqual([RowStatus.Error, RowStatus.Error]);
    expect(r.errors[0].message).toBe('Error: ctx.tokenCount: no tokenizer is loaded (pick one in the Tokenizer menu)');
  });
});

describe('ctx.models', () => {
  const rows = [row(10, 'A: 1', '1'), row(11, 'A: 2', '5'), row(12, 'A: 3', '3')];
  // Rows 10..12 of a dataset: the task gets its slice of the column, offset 10.
  const models = { columns: { rm: Float64Array.from([0.5, -1.25, Number.NaN]) }, offset: 10 };
  const fn = compile(`export default function reward(t, ctx) {
    const correct = ctx.numbersEqual(ctx.numberAfter(t.completion), t.groundTruth);
    return (correct ? 1 : 0) + 0.5 * ctx.models.rm;
  }`);
  it('reads the current row of each model column and combines it with rule checks', () => {
    const r = runRows(fn, (i) => rows[i - 10], 10, 13, undefined, undefined, models);
    // row 10: correct, 1 + 0.5·0.5 = 1.25; row 11: wrong, 0 + 0.5·(−1.25) = −0.625; row 12: no model score
    expect([r.scores[0], r.scores[1]]).toEqual([1.25, -0.625]);
    expect([...r.status]).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Error]);
    expect(r.errors[0]).toMatchObject({
      row: 12,
      message: 'Error: ctx.models.rm: the model has no score for rollout 12 (its scoring failed or was cancelled)',
    });
  });
  it('names the loaded models when the code asks for another', () => {
    const other = compile('export default (t, ctx) => ctx.models.nope');
    const r = runRows(other, (i) => rows[i - 10], 10, 11, undefined, undefined, models);
    expect(r.errors[0].message).toBe('Error: ctx.models.nope: no reward model named "nope" has scored these rollouts (the loaded ones are rm)');
    const none = runRows(other, (i) => rows[i - 10], 10, 11);
    expect(none.errors[0].message).toMatch(/load one under "Reward models"/);
  });
  it('lists the models like an object', () => {
    const keys = compile('export default (t, ctx) => Object.keys(ctx.models).length * 10 + ("rm" in ctx.models ? 1 : 0)');
    expect(runRows(keys, (i) => rows[i - 10], 10, 11, undefined, undefined, models).scores[0]).toBe(11);
  });

  it('ctx.models.ensemble: mean, min and population std of the models for the row, only with ≥ 2 models', () => {
    // rows 10..12: rm = 0.5, −1.25, NaN; rm_2 = 1.5, −1.25, 2 → row 10: mean 1, min 0.5, std 0.5; row 11: std 0
    const two = { columns: { rm: models.columns.rm, rm_2: Float64Array.from([1.5, -1.25, 2]) }, offset: 10 };
    const uwo = compile('export default (t, ctx) => { const e = ctx.models.ensemble; return e.mean - 0.5 * e.std + 10 * e.min; }');
    const r = runRows(uwo, (i) => rows[i - 10], 10, 13, undefined, undefined, two);
    // row 10: 1 − 0.25 + 5 = 5.75; row 11: −1.25 − 0 − 12.5 = −13.75; row 12: rm has no score → the row fails
    expect([r.scores[0], r.scores[1]]).toEqual([5.75, -13.75]);
    expect([...r.status]).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Error]);
    expect(r.errors[0].message).toBe('Error: ctx.models.rm: the model has no score for rollout 12 (its scoring failed or was cancelled)');
    // not enumerable: Object.keys and "in" still see the two models; the ensemble object is frozen
    const keys = compile(
      'export default (t, ctx) => Object.keys(ctx.models).length * 10 + ("ensemble" in ctx.models ? 1 : 0) + (Object.isFrozen(ctx.models.ensemble) ? 100 : 0)',
    );
    expect(runRows(keys, (i) => rows[i - 10], 10, 11, undefined, undefined, two).scores[0]).toBe(121);
    const one = runRows(uwo, (i) => rows[i - 10], 10, 11, undefined, undefined, models);
    expect(one.errors[0].message).toBe('Error: ctx.models.ensemble: needs at least 2 reward models (only rm has scored these rollouts)');
  });

  it('puts string component values in text columns, as the Python harness does (16 names, 200 characters)', () => {
    const fn = compile(
      [
        'export default function reward(t) {',
        "  if (t.completion === 'many') return { score: 1, components: Object.fromEntries(Array.from({ length: 20 }, (_, j) => ['k' + j, String(j)])) };",
        "  return { score: 0.5, components: { acc: 1, k0: 'é'.repeat(250) } };",
        '}',
      ].join('\n'),
    );
    const rows = [row(0, 'many'), row(1, 'long')];
    const r = runRows(fn, (i) => rows[i], 0, 2);
    expect(Array.from(r.scores)).toEqual([1, 0.5]);
    expect(Object.keys(r.strings!)).toEqual(Array.from({ length: 16 }, (_, j) => `k${j}`));
    expect(r.strings!.k15).toEqual(['15', null]);
    expect(r.strings!.k0).toEqual(['0', 'é'.repeat(200) + '…']);
    expect(Array.from(r.components.acc)).toEqual([Number.NaN, 1]);
  });
});
