import { describe, expect, it } from 'vitest';
import { MAX_TASK, TaskQueue } from './taskQueue';

/** Tasks taken by workers in turn (`order`, repeated), or by worker 0 alone. */
const ranges = (q: TaskQueue, max = Infinity, order: number[] = [0]) => {
  const out: [number, number][] = [];
  while (!q.empty && out.length < max) {
    const t = q.take(order[out.length % order.length]);
    out.push([t.start, t.end]);
  }
  return out;
};

describe('TaskQueue (guided self-scheduling, a block per worker)', () => {
  it('cuts 1/12 of what is left for 2 workers, worked by hand', () => {
    // 100000 / 12 = 8333.3 → 8334; 91666 / 12 = 7638.8 → 7639; 84027 / 12 = 7002.25 → 7003.
    expect(ranges(new TaskQueue(100_000, 2), 3)).toEqual([
      [0, 8334],
      [8334, 15973],
      [15973, 22976],
    ]);
  });

  it('covers every row once with tasks shrinking to 1000 rows, each worker in its own block in order first', () => {
    const got = ranges(new TaskQueue(100_000, 2), Infinity, [0, 1]);
    const covered = new Uint8Array(100_000);
    for (const [a, b] of got) for (let i = a; i < b; i++) covered[i]++;
    expect(covered.every((c) => c === 1)).toBe(true);
    // Taking in turn: worker 0 walks rows 0–49,999 and worker 1 rows from 50,000 on, each in order, until worker 0's
    // block runs out (its first task was the larger); it then takes 1000-row tasks from the end of worker 1's block.
    const w0 = got.filter((_, i) => i % 2 === 0);
    const w1 = got.filter((_, i) => i % 2 === 1);
    const own0 = w0.filter(([a]) => a < 50_000);
    expect(own0[0][0]).toBe(0);
    expect(own0.at(-1)).toEqual([49_745, 50_000]);
    expect(w0.slice(own0.length)).toEqual([
      [99_000, 100_000],
      [98_000, 99_000],
    ]);
    expect(w1[0][0]).toBe(50_000);
    expect(w1.at(-1)).toEqual([97_902, 98_000]);
    for (const w of [own0, w1]) for (let i = 1; i < w.length; i++) expect(w[i][0]).toBe(w[i - 1][1]);
    // Sizes: ceil(left / 12), at least 1000, cut at a block's end. First 100000 / 12 → 8334 for worker 0, then
    // 91666 / 12 = 7638.8 → 7639 for worker 1, 84027 / 12 = 7002.25 → 7003 for worker 0.
    expect(got.slice(0, 3)).toEqual([
      [0, 8334],
      [50_000, 57_639],
      [8334, 15_337],
    ]);
    // Only a block's last task is cut below 1000 rows.
    const small = got.filter(([a, b]) => b - a < 1000);
    expect(small).toEqual([
      [49_745, 50_000],
      [97_902, 98_000],
    ]);
  });

  it('a worker whose block is done takes from the end of the block with the most rows left, worked by hand', () => {
    // 100 rows, 2 workers: blocks [0, 50) and [50, 100); every task is the smallest, max(16, ceil(100 / 16)) = 16 rows.
    expect(ranges(new TaskQueue(100, 2), Infinity, [0])).toEqual([
      [0, 16],
      [16, 32],
      [32, 48],
      [48, 50],
      [84, 100],
      [68, 84],
      [52, 68],
      [50, 52],
    ]);
    // In turn: each worker stays in its block.
    expect(ranges(new TaskQueue(100, 2), Infinity, [0, 1])).toEqual([
      [0, 16],
      [50, 66],
      [16, 32],
      [66, 82],
      [32, 48],
      [82, 98],
      [48, 50],
      [98, 100],
    ]);
    // Worker 1 four times as fast: after its block it takes the end of worker 0's, which keeps its front.
    expect(ranges(new TaskQueue(100, 2), Infinity, [1, 1, 1, 1, 1, 0, 1, 0])).toEqual([
      [50, 66],
      [66, 82],
      [82, 98],
      [98, 100],
      [34, 50],
      [0, 16],
      [18, 34],
      [16, 18],
    ]);
  });

  it('gives the same rows to the same worker on a second run taken in the same order', () => {
    const order = [0, 1, 1, 0, 1, 0, 0, 1, 1];
    expect(ranges(new TaskQueue(5000, 2), Infinity, order)).toEqual(ranges(new TaskQueue(5000, 2), Infinity, order));
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
    expect(got.reduce((n, [a, b]) => n + b - a, 0)).toBe(800);
  });

  it('a tiny dataset is one task per worker; no rows, no task', () => {
    expect(ranges(new TaskQueue(10, 2))).toEqual([
      [0, 5],
      [5, 10],
    ]);
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

  it('blockOf gives the block a worker takes first', () => {
    expect([0, 1, 2].map((k) => TaskQueue.blockOf(k, 100, 3))).toEqual([
      [0, 33],
      [33, 66],
      [66, 100],
    ]);
    expect(ranges(new TaskQueue(100, 3), 1, [2])).toEqual([[66, 82]]); // 16-row tasks from the front of block 2
  });

  it('tailsOf gives the last eighth of every other block, worked by hand', () => {
    // Blocks of 100 rows among 3: [0, 33), [33, 66), [66, 100); eighths: ceil(33 / 8) = 5, ceil(34 / 8) = 5.
    expect([0, 1, 2].map((k) => TaskQueue.tailsOf(k, 100, 3))).toEqual([
      [
        [61, 66],
        [95, 100],
      ],
      [
        [28, 33],
        [95, 100],
      ],
      [
        [28, 33],
        [61, 66],
      ],
    ]);
    // Aligned to 4 (a Python batch): blocks [0, 48) and [48, 100); a tail starts on the multiple of 4 at or before
    // end − ⌈block / 8⌉: 100 − 7 = 93 → 92, 48 − 6 = 42 → 40.
    expect(TaskQueue.tailsOf(0, 100, 2, 4)).toEqual([[92, 100]]);
    expect(TaskQueue.tailsOf(1, 100, 2, 4)).toEqual([[40, 48]]);
    // One worker has no other block; a block of one row has a tail of one row.
    expect(TaskQueue.tailsOf(0, 100, 1)).toEqual([]);
    expect(TaskQueue.tailsOf(0, 2, 2)).toEqual([[1, 2]]);
  });

  it('atLeast raises the smallest task for the rest of the run, within its own minimum and MAX_TASK, worked by hand', () => {
    const q = new TaskQueue(100_000, 2);
    expect(ranges(q, 1)).toEqual([[0, 8334]]);
    // 91666 left: ceil(91666 / 12) = 7639 is above a 5000-row minimum, so the cut is unchanged.
    q.atLeast(5000.7);
    expect(ranges(q, 1)).toEqual([[8334, 15_973]]);
    // 84027 left: ceil(84027 / 12) = 7003 is below a 9000-row minimum: the task is 9000 rows.
    q.atLeast(9000);
    expect(ranges(q, 1)).toEqual([[15_973, 24_973]]);
    // Below the queue's own minimum (1000 rows for 100,000) or past MAX_TASK, the bound is the queue's.
    q.atLeast(3);
    expect(ranges(q, 1)).toEqual([[24_973, 31_226]]); // 75027 / 12 = 6252.25 → 6253 rows (the 1000-row floor is below)
    q.atLeast(1e9);
    expect(ranges(q, 1)).toEqual([[31_226, 50_000]]); // MAX_TASK 20000, cut at the end of worker 0's block
    q.atLeast(Number.NaN); // ignored: the 20000 bound stays
    expect(ranges(q, 1, [1])).toEqual([[50_000, 70_000]]);
  });

  it('upTo lifts the MAX_TASK cap for the rest of the run, never below it, worked by hand', () => {
    const q = new TaskQueue(1_000_000, 2);
    expect(ranges(q, 1)).toEqual([[0, 20_000]]); // ceil(1000000 / 12) = 83334, capped at MAX_TASK
    q.upTo(50_000.9);
    // 980000 left: ceil(980000 / 12) = 81667, capped at the new 50000.
    expect(ranges(q, 1)).toEqual([[20_000, 70_000]]);
    q.upTo(1e9);
    // 930000 left: ceil(930000 / 12) = 77500, the cut itself.
    expect(ranges(q, 1)).toEqual([[70_000, 147_500]]);
    q.upTo(5000); // below MAX_TASK: the cap is MAX_TASK again
    expect(ranges(q, 1)).toEqual([[147_500, 167_500]]);
    q.upTo(Number.NaN); // ignored
    expect(ranges(q, 1)).toEqual([[167_500, 187_500]]);
    // atLeast stays within the cap in force: 30000 wanted, 20000 allowed.
    q.atLeast(30_000);
    expect(ranges(q, 1, [1])).toEqual([[500_000, 520_000]]);
  });

  it('at a raised minimum a run has fewer tasks and still covers every row once', () => {
    const count = (min: number) => {
      const q = new TaskQueue(100_000, 2);
      q.atLeast(min);
      const got = ranges(q, Infinity, [0, 1]);
      const covered = new Uint8Array(100_000);
      for (const [a, b] of got) for (let i = a; i < b; i++) covered[i]++;
      expect(covered.every((c) => c === 1)).toBe(true);
      return got.length;
    };
    expect(count(5000)).toBeLessThan(count(1000));
  });

  it('a cap holds whatever the run asks for after it, rounded up to the alignment, and every row is still covered once', () => {
    const q = new TaskQueue(100_000, 2, 3);
    q.cap(100);
    q.upTo(1_000_000);
    q.atLeast(500);
    const got = ranges(q, Infinity, [0, 1]);
    // 100 rows rounded up to the batch of 3: 102 a task, the blocks' last tasks less.
    expect(Math.max(...got.map(([a, b]) => b - a))).toBe(102);
    expect(got.every(([a]) => a % 3 === 0)).toBe(true);
    const covered = new Uint8Array(100_000);
    for (const [a, b] of got) for (let i = a; i < b; i++) covered[i]++;
    expect(covered.every((c) => c === 1)).toBe(true);
    // Without it, the same asks give tasks of a sixth of each block.
    const free = new TaskQueue(100_000, 2, 3);
    free.upTo(1_000_000);
    free.atLeast(500);
    expect(free.take().end).toBeGreaterThan(5000);
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
