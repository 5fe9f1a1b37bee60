import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory';
import { categories, CategoryCollector, MAX_COLLECTED_COLUMNS, MAX_COLLECTED_VALUES } from './categories';
import { LabelCollector } from './labelColumns';

const rowsOf = (records: Record<string, unknown>[]) => records.map((fields) => ({ fields }) as unknown as Trajectory);

describe('CategoryCollector', () => {
  it('collects what categories() reads from the rows: strings, numbers and booleans as JSON writes them, none for null', () => {
    const records = [
      { model: 'a', n: 1, ok: true, long: 'x'.repeat(250) },
      { model: 'b', n: 1.5, ok: false, long: 'x'.repeat(260) },
      { model: null, n: -0, ok: true },
      { n: 1e21, model: 'a' },
    ];
    const c = new CategoryCollector();
    records.forEach((r, i) => c.addRecord(i, r));
    const got = c.finish(records.length);
    expect(got.map((x) => x.name)).toEqual(['model', 'n', 'ok', 'long']);
    for (const { name, categories: cats } of got) expect(cats, name).toEqual(categories(rowsOf(records), name));
    // Worked by hand.
    expect(got[0].categories).toEqual({ codes: Int32Array.from([0, 1, -1, 0]), values: ['a', 'b'], present: 3 });
    expect(got[1].categories.values).toEqual(['1', '1.5', '0', '1e+21']);
    expect(got[3].categories.values).toEqual([`${'x'.repeat(200)}…`]); // both cut to the same text
  });

  it('gives up a column with a list or object value, or with too many values; collects the first columns only', () => {
    const c = new CategoryCollector();
    c.addRecord(0, { tags: ['a'], meta: 'm' });
    for (let i = 0; i <= MAX_COLLECTED_VALUES; i++) c.addRecord(i + 1, { id: `r${i}`, meta: 'm' });
    const wide: Record<string, unknown> = {};
    for (let k = 0; k < MAX_COLLECTED_COLUMNS + 2; k++) wide[`c${k}`] = 'v';
    c.addRecord(MAX_COLLECTED_VALUES + 2, wide);
    const got = c.finish(MAX_COLLECTED_VALUES + 3).map((x) => x.name);
    // tags (list), id (1,001 values) given up; meta and the first 13 c-columns fill the 16 columns.
    expect(got).toEqual(['meta', ...Array.from({ length: MAX_COLLECTED_COLUMNS - 3 }, (_, k) => `c${k}`)]);
  });

  it('joins the partials of consecutive stretches in first-seen order, as one pass over the rows numbers them', () => {
    const a = new CategoryCollector();
    a.addRecord(0, { m: 'x' });
    a.addRecord(1, { m: 'y' });
    const b = new CategoryCollector();
    b.addRecord(0, { m: 'z' });
    b.addRecord(1, {});
    b.addRecord(2, { m: 'x', s: 'only here' });
    const joined = new CategoryCollector();
    joined.merge(a.partial(2), 0);
    joined.merge(b.partial(3), 2);
    // Worked by hand: x 0, y 1, z 2; row 3 has no m; s only on row 4.
    expect(joined.finish(5)).toEqual([
      { name: 'm', categories: { codes: Int32Array.from([0, 1, 2, -1, 0]), values: ['x', 'y', 'z'], present: 4 } },
      { name: 's', categories: { codes: Int32Array.from([-1, -1, -1, -1, 0]), values: ['only here'], present: 1 } },
    ]);
  });

  it('gives up a column whose partial codes do not fit its values or its rows', () => {
    const c = new CategoryCollector();
    c.merge({ rows: 2, columns: [{ name: 'm', codes: Int32Array.from([0, 5]), values: ['x'] }] }, 0);
    c.merge({ rows: 2, columns: [{ name: 'n', codes: Int32Array.from([0]), values: ['x'] }] }, 2);
    expect(c.finish(4)).toEqual([]);
  });

  it('collects nothing when some rows were joined without their categories (a part that failed part-way)', () => {
    const labels = new LabelCollector();
    labels.add(rowsOf([{ m: 'x' }]));
    expect(labels.categoryColumns().map((c) => c.name)).toEqual(['m']);
    labels.merge({ rows: 3, fields: [] });
    expect(labels.categoryColumns()).toEqual([]);
  });
});
