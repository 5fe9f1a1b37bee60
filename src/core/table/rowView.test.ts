import { describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import { textColumn, type ColumnValues } from './columns';
import { groupLabelClasses } from '../dataset/groupLabels';
import { rowView } from './rowView';

const input = {
  size: 4,
  groupOf: Int32Array.from([0, 1, 0, 1]),
  charLengths: Int32Array.from([3, 7, 5, 1]),
  scores: Float64Array.from([0.5, Number.NaN, 1, 0]),
  status: Uint8Array.from([RowStatus.Ok, RowStatus.Error, RowStatus.Ok, RowStatus.Ok]),
};
const ids = (a: Int32Array) => Array.from(a);

describe('rowView', () => {
  it('keeps source order by default and reverses it descending', () => {
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: false }))).toEqual([0, 1, 2, 3]);
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: true }))).toEqual([3, 2, 1, 0]);
  });
  it('sorts by reward with unscored rows last in both directions', () => {
    expect(ids(rowView(input, { sortKey: 'reward', sortDesc: false }))).toEqual([3, 0, 2, 1]);
    expect(ids(rowView(input, { sortKey: 'reward', sortDesc: true }))).toEqual([2, 0, 3, 1]);
  });
  it('sorts by length and by group (stable)', () => {
    expect(ids(rowView(input, { sortKey: 'length', sortDesc: true }))).toEqual([1, 2, 0, 3]);
    expect(ids(rowView(input, { sortKey: 'group', sortDesc: false }))).toEqual([0, 2, 1, 3]);
  });
  it('filters errors only, one group, search hits and a subset', () => {
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: false, errorsOnly: true }))).toEqual([1]);
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: false, group: 0 }))).toEqual([0, 2]);
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: false, hits: [3, 1] }))).toEqual([1, 3]);
    expect(ids(rowView(input, { sortKey: 'reward', sortDesc: true, hits: [3, 1], group: 1 }))).toEqual([3, 1]);
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: false, hits: [] }))).toEqual([]);
    expect(ids(rowView(input, { sortKey: 'index', sortDesc: false, subset: [3, 1] }))).toEqual([3, 1]);
  });
  it('errors-only is empty before any run', () => {
    expect(ids(rowView({ ...input, scores: null, status: null }, { sortKey: 'reward', sortDesc: true, errorsOnly: true }))).toEqual([]);
  });
});

describe('rowView with extra columns', () => {
  // Columns worked by hand for the 4 rows above.
  const columns = new Map<string, ColumnValues>([
    ['advantage', { kind: 'number' as const, values: Float64Array.from([-0.5, Number.NaN, 0.5, -1]) }],
    ['field:src', textColumn(['b', 'item 10', null, 'item 9'])],
  ]);
  const withCols = { ...input, columns };
  it('sorts by a number column, rows without a value last', () => {
    expect(ids(rowView(withCols, { sortKey: 'advantage', sortDesc: false }))).toEqual([3, 0, 2, 1]);
    expect(ids(rowView(withCols, { sortKey: 'advantage', sortDesc: true }))).toEqual([2, 0, 3, 1]);
  });
  it('sorts text with digits as numbers (item 9 before item 10), nulls last', () => {
    expect(ids(rowView(withCols, { sortKey: 'field:src', sortDesc: false }))).toEqual([0, 3, 1, 2]);
  });
  it('filters by range (ends included, either open) and by text', () => {
    expect(ids(rowView(withCols, { sortKey: 'index', sortDesc: false, filters: [{ id: 'advantage', min: -0.5, max: 0.5 }] }))).toEqual([0, 2]);
    expect(ids(rowView(withCols, { sortKey: 'index', sortDesc: false, filters: [{ id: 'advantage', max: -0.5 }] }))).toEqual([0, 3]);
    expect(ids(rowView(withCols, { sortKey: 'index', sortDesc: false, filters: [{ id: 'field:src', contains: 'ITEM' }] }))).toEqual([1, 3]);
    expect(ids(rowView(withCols, { sortKey: 'index', sortDesc: false, filters: [{ id: 'field:src', contains: '' }] }))).toEqual([0, 1, 2, 3]);
    // Two filters: both must pass.
    expect(
      ids(
        rowView(withCols, {
          sortKey: 'index',
          sortDesc: false,
          filters: [
            { id: 'field:src', contains: 'item' },
            { id: 'advantage', min: -2 },
          ],
        }),
      ),
    ).toEqual([3]);
  });
  it('keeps no row for a filter on a column not loaded yet', () => {
    expect(ids(rowView(withCols, { sortKey: 'index', sortDesc: false, filters: [{ id: 'tokens', min: 0 }] }))).toEqual([]);
  });
  it('with label classes, the group filter keeps every group of the label (one key at several steps)', () => {
    // Groups 0 and 2 are both labelled "200" (steps 1 and 2): class 0; group 1 is "7".
    const stepped = { ...input, size: 5, groupOf: Int32Array.from([0, 1, 2, 1, 2]), charLengths: Int32Array.from([1, 2, 3, 4, 5]) };
    const groupClass = groupLabelClasses(['200', '7', '200']);
    expect(Array.from(groupClass)).toEqual([0, 1, 0]);
    expect(ids(rowView({ ...stepped, scores: null, status: null, groupClass }, { sortKey: 'index', sortDesc: false, group: 2 }))).toEqual([0, 2, 4]);
    expect(ids(rowView({ ...stepped, scores: null, status: null }, { sortKey: 'index', sortDesc: false, group: 2 }))).toEqual([2, 4]);
    expect(ids(rowView({ ...stepped, scores: null, status: null, groupClass }, { sortKey: 'index', sortDesc: false, group: -1 }))).toEqual([]);
  });

  it("sorts groups by their labels' ranks when given", () => {
    // Group 0 is labelled "200", group 1 "7": rank 1 and 0, so group 1's rows come first.
    expect(ids(rowView({ ...input, groupRank: Int32Array.from([1, 0]) }, { sortKey: 'group', sortDesc: false }))).toEqual([1, 3, 0, 2]);
  });
});
