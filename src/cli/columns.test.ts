import { describe, expect, it } from 'vitest';
import type { DatasetMeta } from '../core/dataset/meta';
import type { RunResult } from '../engine/engine';
import { columnsOf, errorsOf } from './columns';

// Six rows in groups x, y, x, z, y, z; a shard's run covered rows 1, 3, 4 (positions 0, 1, 2).
const meta = {
  rows: 6,
  issues: [],
  detection: { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: [], gzip: false },
  groupOf: Int32Array.from([0, 1, 0, 2, 1, 2]),
  groupKeys: ['x', 'y', 'z'],
  lengths: Float64Array.from([10, 11, 12, 13, 14, 15]),
  labels: Float64Array.from([1, 0, 1, NaN, 1, 0]),
  labelPresent: 5,
  groupBy: { codes: Int32Array.from([0, -1, 1, 1, 0, 0]), values: ['m1', 'm2'], present: 5 },
  steps: new Float64Array(6).fill(NaN),
  truncated: Float64Array.from([NaN, 1, 0, NaN, 1, 0]),
} satisfies DatasetMeta;

const result = (n: number, errors: [number, string][]): RunResult => ({
  scores: Float64Array.from({ length: n }, (_, j) => j / 2),
  status: new Uint8Array(n).fill(1),
  errors: new Map(errors.map(([row, message]) => [row, { row, message }])),
  components: { f: Float64Array.from({ length: n }, (_, j) => 10 + j) },
  notes: new Map(),
  stdout: '',
});

describe('columnsOf', () => {
  it('a shard: rows by position, groups renumbered in first-seen order over its rows, errors by dataset row', () => {
    const c = columnsOf(
      meta,
      result(3, [
        [2, 'late'],
        [0, 'early'],
      ]),
      Int32Array.from([1, 3, 4]),
      ['f', 'missing'],
    );
    expect(Array.from(c.rows.index)).toEqual([1, 3, 4]);
    // Rows 1, 3, 4 are in groups y, z, y.
    expect(c.groupKeys).toEqual(['y', 'z']);
    expect(Array.from(c.rows.group)).toEqual([0, 1, 0]);
    expect(Array.from(c.rows.length)).toEqual([11, 13, 14]);
    expect(Array.from(c.rows.label!)).toEqual([0, NaN, 1]);
    expect(Array.from(c.rows.groupBy!)).toEqual([-1, 1, 0]);
    expect(c.groupByValues).toEqual(['m1', 'm2']);
    expect(Array.from(c.rows.error)).toEqual([0, -1, 1]);
    expect(c.errorTable).toEqual([{ message: 'early' }, { message: 'late' }]);
    expect([...errorsOf(c)]).toEqual([
      [1, { row: 1, message: 'early' }],
      [4, { row: 4, message: 'late' }],
    ]);
    expect(Array.from(c.functions[0])).toEqual([10, 11, 12]);
    expect(Array.from(c.functions[1])).toEqual([NaN, NaN, NaN]);
  });

  it('a whole run: the dataset’s own rows and group numbering', () => {
    const c = columnsOf({ ...meta, labels: null, groupBy: null }, result(6, []), null, []);
    expect(Array.from(c.rows.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(c.groupKeys).toEqual(['x', 'y', 'z']);
    expect(Array.from(c.rows.group)).toEqual([0, 1, 0, 2, 1, 2]);
    expect([c.rows.label, c.rows.groupBy, c.groupByValues]).toEqual([null, null, null]);
  });

  it('--by-step: the rows’ steps, what their fields say of truncation, and the components by name', () => {
    const stepped = { ...meta, steps: Float64Array.from([1, 1, 2, 2, NaN, 3]) };
    const c = columnsOf(stepped, result(3, []), Int32Array.from([1, 3, 4]), [], true);
    expect(Array.from(c.rows.step!)).toEqual([1, 2, NaN]);
    // A stepped group's key carries its step (the same key recurs at other steps); a row without a step keeps its own.
    expect(c.groupKeys).toEqual(['\u00001\u0000y', '\u00002\u0000z']);
    expect(Array.from(c.rows.truncated!)).toEqual([1, NaN, 1]);
    expect(c.components.map((x) => [x.name, Array.from(x.values)])).toEqual([['f', [10, 11, 12]]]);
    const plain = columnsOf(meta, result(3, []), Int32Array.from([1, 3, 4]), []);
    expect([plain.rows.step, plain.rows.truncated, plain.components]).toEqual([null, null, []]);
  });
});
