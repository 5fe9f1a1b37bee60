import { describe, expect, it } from 'vitest';
import type { Trajectory } from '../core/trajectory';
import { probeRows, subsetRows } from './probeRows';
import type { WorkerRows } from './workerRows';

const t = (i: number): Trajectory => ({
  id: String(i),
  index: i,
  line: i + 1,
  group: `g${i}`,
  prompt: `p${i}`,
  completion: `c${i}`,
  messages: [
    { role: 'user', content: `p${i}` },
    { role: 'assistant', content: `c${i}` },
  ],
  fields: {},
});

function fakeRows(n: number) {
  const asked: ([number, number] | [number, number, string])[] = [];
  const data = {
    size: n,
    rows: Array.from({ length: n }, (_, i) => t(i)),
    // Scattered rows are read without reading on past them (workerRows.ts `readOn`).
    ensureFor: async (_: string, a: number, b: number, readOn?: boolean) => void (readOn === false ? asked.push([a, b]) : asked.push([a, b, 'reads on'])),
  };
  return { data: data as unknown as WorkerRows, asked };
}

describe('probeRows', () => {
  it('positions start + j hold row rows[j] probed; neighbouring rows are read in one go; nothing is kept', async () => {
    const { data, asked } = fakeRows(10);
    const src = await probeRows(data, 'd', 100, { name: 'cross', rows: Int32Array.from([2, 3, 7]), donors: Int32Array.from([4, 4, 0]) });
    expect(src.keep).toBe(false);
    expect([100, 101, 102].map((i) => [src.rows[i].index, src.rows[i].completion])).toEqual([
      [2, 'c4'],
      [3, 'c4'],
      [7, 'c0'],
    ]);
    expect(asked).toEqual([
      [0, 1],
      [2, 5],
      [7, 8],
    ]);
  });

  it('a row outside the dataset (a forged task) fails the task with the reason', async () => {
    const { data } = fakeRows(3);
    await expect(probeRows(data, 'd', 0, { name: 'empty', rows: Int32Array.from([1, 3]) })).rejects.toThrow('probe row 3 is outside the dataset (3 rows)');
  });

  it('a row subset: position start + j is row rows[j] unchanged; neighbours read in one go; a row past the end fails', async () => {
    const { data, asked } = fakeRows(10);
    const src = await subsetRows(data, 'd', 20, Int32Array.from([1, 2, 3, 8]));
    expect(src.keep).toBe(false);
    expect([20, 21, 22, 23].map((i) => [src.rows[i].index, src.rows[i].completion])).toEqual([
      [1, 'c1'],
      [2, 'c2'],
      [3, 'c3'],
      [8, 'c8'],
    ]);
    expect(asked).toEqual([
      [1, 4],
      [8, 9],
    ]);
    await expect(subsetRows(data, 'd', 0, Int32Array.from([9, 10]))).rejects.toThrow('row 10 is outside the dataset (10 rows)');
  });
});
