import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory';
import { categories, CategoryCollector, MAX_COLLECTED_VALUES } from './categories';
import { LabelCollector } from './labelColumns';

const rowsOf = (records: Record<string, unknown>[]) => records.map((fields) => ({ fields }) as unknown as Trajectory);

describe('CategoryCollector', () => {
  it('collects what categories() reads from the rows: strings, numbers and booleans as JSON writes them, none for null', () => {
    const records = [
      { model: 'a', step: 1, subset: true, source: 'x'.repeat(250), prompt: 'p' },
      { model: 'b', step: 1.5, subset: false, source: 'x'.repeat(260), prompt: 'p' },
      { model: null, step: -0, subset: true },
      { step: 1e21, model: 'a' },
    ];
    const c = new CategoryCollector();
    records.forEach((r, i) => c.addRecord(i, r));
    const got = c.finish(records.length).filter((x) => x.name !== 'step');
    // Only the columns Group by offers first (GROUP_BY_COLUMNS) are collected: not step, not prompt.
    expect(got.map((x) => x.name)).toEqual(['model', 'subset', 'source']);
    for (const { name, categories: cats } of got) expect(cats, name).toEqual(categories(rowsOf(records), name));
    // Worked by hand.
    expect(got[0].categories).toEqual({ codes: Int32Array.from([0, 1, -1, 0]), values: ['a', 'b'], present: 3 });
    expect(got[1].categories).toEqual({ codes: Int32Array.from([0, 1, 0, -1]), values: ['true', 'false'], present: 3 });
    expect(got[2].categories.values).toEqual([`${'x'.repeat(200)}…`]); // both cut to the same text
    // Numbers as JSON writes them.
    const n = new CategoryCollector();
    [1, 1.5, -0, 1e21].forEach((v, i) => n.addRecord(i, { task: v }));
    expect(n.finish(4)[0].categories.values).toEqual(['1', '1.5', '0', '1e+21']);
  });

  it('gives up a column with a list or object value, or with too many values', () => {
    const c = new CategoryCollector();
    c.addRecord(0, { task: ['a'], model: 'm', split: { a: 1 } });
    for (let i = 0; i < MAX_COLLECTED_VALUES; i++) c.addRecord(i + 1, { source: `r${i}`, model: 'm' });
    expect(c.finish(MAX_COLLECTED_VALUES + 1).map((x) => x.name)).toEqual(['model', 'source']);
    c.addRecord(MAX_COLLECTED_VALUES + 1, { source: 'one more' });
    expect(c.finish(MAX_COLLECTED_VALUES + 2).map((x) => x.name)).toEqual(['model']);
  });

  it('joins the partials of consecutive stretches in first-seen order, as one pass over the rows numbers them', () => {
    const a = new CategoryCollector();
    a.addRecord(0, { model: 'x' });
    a.addRecord(1, { model: 'y' });
    const b = new CategoryCollector();
    b.addRecord(0, { model: 'z' });
    b.addRecord(1, {});
    b.addRecord(2, { model: 'x', task: 'only here' });
    const joined = new CategoryCollector();
    joined.merge(a.partial(2), 0);
    joined.merge(b.partial(3), 2);
    // Worked by hand: x 0, y 1, z 2; row 3 has no model; task only on row 4.
    expect(joined.finish(5)).toEqual([
      { name: 'model', categories: { codes: Int32Array.from([0, 1, 2, -1, 0]), values: ['x', 'y', 'z'], present: 4 } },
      { name: 'task', categories: { codes: Int32Array.from([-1, -1, -1, -1, 0]), values: ['only here'], present: 1 } },
    ]);
  });

  it('gives up a column whose partial codes do not fit its values or its rows', () => {
    const c = new CategoryCollector();
    c.merge({ rows: 2, columns: [{ name: 'model', codes: Int32Array.from([0, 5]), values: ['x'] }] }, 0);
    c.merge({ rows: 2, columns: [{ name: 'task', codes: Int32Array.from([0]), values: ['x'] }] }, 2);
    expect(c.finish(4)).toEqual([]);
  });

  it('collects nothing when some rows were joined without their categories (a part that failed part-way)', () => {
    const labels = new LabelCollector();
    labels.add(rowsOf([{ model: 'x' }]));
    expect(labels.categoryColumns().map((c) => c.name)).toEqual(['model']);
    labels.merge({ rows: 3, fields: [] });
    expect(labels.categoryColumns()).toEqual([]);
  });
});
