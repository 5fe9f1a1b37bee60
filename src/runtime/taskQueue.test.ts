import { describe, expect, it } from 'vitest';
import { MAX_TASK, TaskQueue } from './taskQueue';

const ranges = (q: TaskQueue, max = Infinity) => {
  const out: [number, number][] = [];
  while (!q.empty && out.length < max) {
    const t = q.take();
    out.push([t.start, t.end]);
  }
  return out;
};

describe('TaskQueue (guided self-scheduling)', () => {
  it('cuts 1/12 of what is left for 2 workers, worked by hand', () => {
    // 100000 / 12 = 8333.3 → 8334; 91666 / 12 = 7638.8 → 7639; 84027 / 12 = 7002.25 → 7003.
    expect(ranges(new TaskQueue(100_000, 2), 3)).toEqual([
      [0, 8334],
      [8334, 15973],
      [15973, 22976],
    ]);
  });

  it('covers every row once, in order, shrinking to 1000-row tasks at the end', () => {
    const got = ranges(new TaskQueue(100_000, 2));
    expect(got[0][0]).toBe(0);
    expect(got.at(-1)![1]).toBe(100_000);
    for (let i = 1; i < got.length; i++) expect(got[i][0]).toBe(got[i - 1][1]);
    const sizes = got.map(([a, b]) => b - a);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]);
    // Worked out separately (sizes max(1000, ceil(left / 12)) until the rows run out): 37 tasks ending
    // 1341, 1229, 1126, 1033, then eleven of 1000, then the 353 rows left.
    expect(sizes.length).toBe(37);
    expect(sizes.slice(-16)).toEqual([1341, 1229, 1126, 1033, ...Array(11).fill(1000), 353]);
  });

  it('caps a task at MAX_TASK rows', () => {
    expect(ranges(new TaskQueue(1_000_000, 2), 1)).toEqual([[0, MAX_TASK]]);
  });

  it('gives a small dataset about eight tasks per worker', () => {
    // 800 rows, 2 workers: smallest task ceil(800 / 16) = 50; first ceil(800 / 12) = 67, then ceil(733 / 12) = 62.
    const got = ranges(new TaskQueue(800, 2));
    expect(got.slice(0, 2)).toEqual([
      [0, 67],
      [67, 129],
    ]);
    expect(got.length).toBeGreaterThanOrEqual(12);
    expect(got.at(-1)![1]).toBe(800);
  });

  it('a tiny dataset is one task of at least 16 rows; no rows, no task', () => {
    expect(ranges(new TaskQueue(10, 2))).toEqual([[0, 10]]);
    expect(new TaskQueue(0, 2).empty).toBe(true);
  });

  it('rows given back go out first, whole when they fit in one task', () => {
    const q = new TaskQueue(100_000, 2);
    const first = q.take();
    expect([first.start, first.end]).toEqual([0, 8334]);
    // A worker stuck on row 4 of that task: rows 5–8333, then rows 0–3, are handed out again, ahead of the rest.
    q.giveBack(5, 8334);
    q.giveBack(0, 4);
    q.giveBack(7, 7); // empty: ignored
    // Left: 4 + 8329 + 91666 = 99999 → size 8334 ≥ 4: [0, 4) whole; then 99995 → 8333 ≥ 8329: [5, 8334) whole;
    // then 91666 → 7639 as before.
    expect(ranges(q, 3)).toEqual([
      [0, 4],
      [5, 8334],
      [8334, 15973],
    ]);
  });

  it('task ids are unique', () => {
    const q = new TaskQueue(5000, 4);
    const ids = new Set<number>();
    let count = 0;
    while (!q.empty) {
      ids.add(q.take().id);
      count++;
    }
    expect(ids.size).toBe(count);
  });
});
