import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { shardOf } from '../core/dataset/shard';
import type { ScoreColumns } from './columns';
import { combine } from './merge';
import { decodePartial, encodePartial, PARTIAL_LIMITS, type PartialHeader } from './partial';

// Shards of 3 (scripts/shard-fixtures.py): "a", "foobar", "" → 2; "0" → 1.
const run: PartialHeader['run'] = {
  rewards: [{ file: 'r.ts', sha256: 'a'.repeat(64) }],
  weights: null,
  function: null,
  preset: 'trl',
  label: 'ok',
  groupBy: null,
  byStep: false,
  maxLength: null,
  tokenizer: 'gpt2',
  import: { format: null, mapping: null },
  data: { name: 'd.jsonl', bytes: 123 },
  detection: { container: 'jsonl', gzip: false, format: 'trl-standard' },
  datasetRows: 6,
  skipped: 0,
  groupByValues: null,
  functions: null,
};
const time = { elapsedMs: 1, workersUsed: 1, poolSize: 2 };
const cols = (c: Omit<ScoreColumns, 'rows'> & { rows: Record<string, number[]> }): ScoreColumns => ({
  ...c,
  rows: {
    index: Int32Array.from(c.rows.index),
    score: Float64Array.from(c.rows.score),
    status: Uint8Array.from(c.rows.status),
    group: Int32Array.from(c.rows.group),
    length: Float64Array.from(c.rows.length),
    error: Int32Array.from(c.rows.error),
    label: Float64Array.from(c.rows.label),
    groupBy: null,
    step: null,
    truncated: null,
  },
});

// Dataset rows 0…5 with groups a, 0, a, foobar, 0, foobar: shard 1/3 holds rows 1, 4; shard 2/3 rows 0, 2, 3, 5.
const one = cols({
  rows: { index: [1, 4], score: [0.5, 0.25], status: [1, 1], group: [0, 0], length: [10, 20], error: [-1, -1], label: [1, 0] },
  groupKeys: ['0'],
  groupByValues: null,
  errorTable: [],
  functions: [],
  components: [],
});
const two = cols({
  rows: {
    index: [0, 2, 3, 5],
    score: [1, NaN, 0, 2],
    status: [1, 3, 1, 1],
    group: [0, 0, 1, 1],
    length: [1, 2, 3, 4],
    error: [-1, 0, -1, -1],
    label: [1, 1, NaN, 0],
  },
  groupKeys: ['a', 'foobar'],
  groupByValues: null,
  errorTable: [{ message: 'boom', line: 3 }],
  functions: [],
  components: [],
});

describe('partial files', () => {
  it('round trip: the header says what was run; the columns come back as they went', () => {
    expect([shardOf('0', 3), shardOf('a', 3), shardOf('foobar', 3)]).toEqual([1, 2, 2]);
    const bytes = encodePartial({ run, shard: { index: 2, count: 3 }, time }, two);
    const raw = gunzipSync(bytes);
    // 4 (header length) + header + 4 rows × (4 + 8 + 1 + 4 + 8 + 4 + 8) bytes of columns.
    expect(raw.length).toBe(4 + raw.readUInt32LE(0) + 4 * 37);
    const d = decodePartial('two.rsp', bytes);
    if (!d.ok) throw new Error(d.message);
    expect(d.partial.header.shard).toEqual({ index: 2, count: 3 });
    expect(d.partial.header.columns.map((c) => c.name)).toEqual(['index', 'score', 'status', 'group', 'length', 'error', 'label']);
    expect(d.partial.columns).toEqual(two);
  });

  it('combine puts rows back in dataset order, groups numbered in first-seen order, error texts renumbered', () => {
    const p1 = decodePartial('1.rsp', encodePartial({ run, shard: { index: 1, count: 3 }, time }, one));
    const p2 = decodePartial('2.rsp', encodePartial({ run, shard: { index: 2, count: 3 }, time }, two));
    const p3 = decodePartial(
      '3.rsp',
      encodePartial(
        { run, shard: { index: 3, count: 3 }, time },
        cols({ ...one, rows: { index: [], score: [], status: [], group: [], length: [], error: [], label: [] }, groupKeys: [] }),
      ),
    );
    if (!p1.ok || !p2.ok || !p3.ok) throw new Error('decode');
    const m = combine([
      { path: '3.rsp', p: p3.partial },
      { path: '2.rsp', p: p2.partial },
      { path: '1.rsp', p: p1.partial },
    ]);
    if (!m.ok) throw new Error(m.message);
    const r = m.columns.rows;
    expect(Array.from(r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(r.score)).toEqual([1, 0.5, NaN, 0, 0.25, 2]);
    expect(Array.from(r.status)).toEqual([1, 1, 3, 1, 1, 1]);
    // Groups a, 0, a, foobar, 0, foobar → 0, 1, 0, 2, 1, 2.
    expect(m.columns.groupKeys).toEqual(['a', '0', 'foobar']);
    expect(Array.from(r.group)).toEqual([0, 1, 0, 2, 1, 2]);
    expect(Array.from(r.length)).toEqual([1, 10, 2, 3, 20, 4]);
    expect(Array.from(r.label!)).toEqual([1, 1, 1, NaN, 0, 0]);
    expect(Array.from(r.error)).toEqual([-1, -1, 0, -1, -1, -1]);
    expect(m.columns.errorTable).toEqual([{ message: 'boom', line: 3 }]);
  });

  it('combine refuses a group in two partials and rows that do not add up (checks behind the decoder’s own)', () => {
    // "0" falls to shard 2 of 2 (scripts/shard-fixtures.py): the decoder refuses it in shard 1/2.
    expect(decodePartial('1.rsp', encodePartial({ run, shard: { index: 1, count: 2 }, time }, one))).toEqual({
      ok: false,
      message: '1.rsp: group "0" belongs to shard 2/2, not 1/2',
    });
    const p2 = decodePartial('2.rsp', encodePartial({ run, shard: { index: 2, count: 2 }, time }, one));
    if (!p2.ok) throw new Error(p2.message);
    // Built in memory past the decoder, combine still refuses the same group twice.
    const twin = { ...p2.partial, header: { ...p2.partial.header, shard: { index: 1, count: 2 } } };
    expect(
      combine([
        { path: '1.rsp', p: twin },
        { path: '2.rsp', p: p2.partial },
      ]),
    ).toEqual({ ok: false, message: 'group "0" is in two partials (1.rsp and 2.rsp)' });
    const alone = decodePartial('a.rsp', encodePartial({ run, shard: { index: 1, count: 1 }, time }, one));
    if (!alone.ok) throw new Error(alone.message);
    expect(combine([{ path: 'a.rsp', p: alone.partial }])).toEqual({ ok: false, message: 'the partials hold 2 rows where the dataset has 6' });
  });

  it('a file that inflates past the limit is refused while inflating (a gzip bomb)', () => {
    const bytes = encodePartial({ run, shard: { index: 2, count: 3 }, time }, two);
    const limit = PARTIAL_LIMITS.bytes;
    PARTIAL_LIMITS.bytes = gunzipSync(bytes).length - 1;
    try {
      expect(decodePartial('bomb.rsp', bytes)).toEqual({ ok: false, message: `bomb.rsp: inflates to more than ${PARTIAL_LIMITS.bytes} bytes` });
    } finally {
      PARTIAL_LIMITS.bytes = limit;
    }
  });

  it('optional columns: present exactly when the run has their option', () => {
    const noLabel = encodePartial({ run, shard: { index: 2, count: 3 }, time }, { ...two, rows: { ...two.rows, label: null } });
    expect(decodePartial('n.rsp', noLabel)).toEqual({ ok: false, message: 'n.rsp: header → columns: label missing in a run with it' });
    const withLabel = encodePartial({ run: { ...run, label: null }, shard: { index: 2, count: 3 }, time }, two);
    expect(decodePartial('w.rsp', withLabel)).toEqual({ ok: false, message: 'w.rsp: header → columns: label present in a run without it' });
    const ok = decodePartial(
      'o.rsp',
      encodePartial({ run: { ...run, label: null }, shard: { index: 2, count: 3 }, time }, { ...two, rows: { ...two.rows, label: null } }),
    );
    expect(ok.ok && ok.partial.columns.rows.label).toBeNull();
  });

  it('--by-step: steps, truncation and components travel; a step column without --by-step, or a bad truncation value, is refused', () => {
    const stepRows = { ...two.rows, step: Float64Array.from([1, 1, 2, NaN]), truncated: Float64Array.from([NaN, 1, 0, 0]) };
    const stepped = { ...two, rows: stepRows, components: [{ name: 'half', values: Float64Array.from([0.5, NaN, 0, 1]) }] };
    const byStep = { ...run, byStep: true, maxLength: 40 };
    const back = decodePartial('s.rsp', encodePartial({ run: byStep, shard: { index: 2, count: 3 }, time }, stepped));
    expect(back.ok && Array.from(back.partial.columns.rows.step!)).toEqual([1, 1, 2, NaN]);
    expect(back.ok && back.partial.columns.components.map((x) => [x.name, Array.from(x.values)])).toEqual([['half', [0.5, NaN, 0, 1]]]);
    expect(back.ok && back.partial.header.run.maxLength).toBe(40);
    expect(decodePartial('x.rsp', encodePartial({ run, shard: { index: 2, count: 3 }, time }, { ...two, rows: stepRows }))).toEqual({
      ok: false,
      message: 'x.rsp: header → columns: step present in a run without it',
    });
    const badCut = { ...stepped, rows: { ...stepRows, truncated: Float64Array.from([NaN, 1, 0.5, 0]) } };
    expect(decodePartial('t.rsp', encodePartial({ run: byStep, shard: { index: 2, count: 3 }, time }, badCut))).toEqual({
      ok: false,
      message: 't.rsp: row 2: truncated 0.5 is not 1, 0 or NaN',
    });
  });

  it('a hostile header is named with its place', () => {
    const bytes = encodePartial({ run: { ...run, preset: 'nope' as 'trl' }, shard: { index: 2, count: 3 }, time }, two);
    expect(decodePartial('x.rsp', bytes)).toMatchObject({ ok: false, message: expect.stringMatching(/^x\.rsp: header → run\.preset: /) });
    const noShard = encodePartial({ run, shard: { index: 4, count: 3 }, time }, two);
    expect(decodePartial('y.rsp', noShard)).toEqual({ ok: false, message: 'y.rsp: header → shard: 4/3 is not a shard (1 ≤ i ≤ n)' });
    const unordered = encodePartial(
      { run, shard: { index: 2, count: 3 }, time },
      cols({
        ...two,
        rows: { ...Object.fromEntries(Object.entries(two.rows).map(([k, v]) => [k, v ? Array.from(v as ArrayLike<number>) : []])), index: [0, 3, 2, 5] },
      }),
    );
    expect(decodePartial('z.rsp', unordered)).toEqual({ ok: false, message: 'z.rsp: row 2: index 2 is not above the one before (rows ascending, each once)' });
  });
});
