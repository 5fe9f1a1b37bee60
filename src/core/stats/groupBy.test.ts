import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../trajectory';
import { categories } from '../dataset/categories';
import { RowStatus } from '../reward/contract';
import { groupByStats } from './groupBy';

const { Ok, Null, Error: Err } = RowStatus;
const row = (fields: Record<string, unknown>) => ({ fields }) as unknown as Trajectory;

describe('groupByStats', () => {
  it('rows, mean and population std per model, worked by hand', () => {
    // gpt-4: rewards 1, 0, 1, 1 → mean 3/4 = 0.75; deviations .25, −.75, .25, .25 → squares .0625+.5625+.0625+.0625 = .75;
    //        population variance .75/4 = .1875, std √.1875 = 0.4330127018922193.
    // vicuna: 2, 4 (and one error row) → rows 3, mean 3, deviations −1, 1 → variance 2/2 = 1, std 1.
    // llama: one null row → rows 1, mean and std NaN (nothing scored).
    const cats = categories(
      ['gpt-4', 'vicuna', 'gpt-4', 'gpt-4', 'vicuna', 'llama', 'vicuna', 'gpt-4'].map((model) => row({ model })),
      'model',
    );
    const scores = [1, 2, 0, 1, 4, 0, 99, 1];
    const status = [Ok, Ok, Ok, Ok, Ok, Null, Err, Ok];
    const g = groupByStats(scores, status, cats.codes, cats.values);
    expect(g.map((x) => [x.value, x.rows])).toEqual([
      ['gpt-4', 4],
      ['vicuna', 3],
      ['llama', 1],
    ]);
    expect(g[0].mean).toBe(0.75);
    expect(g[0].std).toBeCloseTo(0.4330127018922193, 15);
    expect(g[1].mean).toBe(3);
    expect(g[1].std).toBe(1);
    expect(g[2].mean).toBeNaN();
    expect(g[2].std).toBeNaN();
  });
  it('a large offset does not spoil the std (two passes): 1e9 + {1, 3} → std 1', () => {
    const g = groupByStats([1e9 + 1, 1e9 + 3], [Ok, Ok], new Int32Array([0, 0]), ['a']);
    expect(g[0].mean).toBe(1e9 + 2);
    expect(g[0].std).toBe(1);
  });
  it('rows without the column are left out', () => {
    const cats = categories([row({ model: 'a' }), row({}), row({ model: null }), row({ model: 'a' })], 'model');
    expect(cats.present).toBe(2);
    expect([...cats.codes]).toEqual([0, -1, -1, 0]);
    expect(groupByStats([1, 5, 5, 3], [Ok, Ok, Ok, Ok], cats.codes, cats.values)).toEqual([{ value: 'a', rows: 2, mean: 2, std: 1 }]);
  });
});

describe('categories', () => {
  it('numbers, booleans and objects as JSON; first-seen order; long text cut at 200 characters', () => {
    const long = 'x'.repeat(250);
    const cats = categories([row({ v: 1 }), row({ v: true }), row({ v: { a: 1 } }), row({ v: '1' }), row({ v: long })], 'v');
    // 1 (a number) and '1' (a string) are one category: the table shows them alike.
    expect(cats.values).toEqual(['1', 'true', '{"a":1}', `${'x'.repeat(200)}…`]);
    expect([...cats.codes]).toEqual([0, 1, 2, 0, 3]);
  });
  it('a column named __proto__ or constructor is read as a column, not from the prototype', () => {
    expect(categories([row({}), row({})], 'constructor').present).toBe(0);
  });
});
