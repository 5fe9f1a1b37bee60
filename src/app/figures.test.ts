import { describe, expect, it } from 'vitest';
import { figuresOf, type FigureJob } from '../core/stats/figures';
import { figureCache } from './figures';

const f64 = (xs: number[]) => new Float64Array(xs);

/** A fake worker: each job waits until `flush()`, then is computed as the worker would. */
function fakeWorker() {
  const queue: { job: FigureJob; resolve(v: unknown): void; reject(e: Error): void }[] = [];
  let fail: string | null = null;
  return {
    jobs: () => queue.length,
    failNext: (m: string) => (fail = m),
    compute: (job: FigureJob) => new Promise<unknown>((resolve, reject) => queue.push({ job, resolve, reject })),
    flush: async () => {
      for (const q of queue.splice(0)) {
        if (fail) {
          q.reject(new Error(fail));
          fail = null;
        } else q.resolve(figuresOf(q.job));
      }
      await Promise.resolve();
    },
  };
}

describe('figures kept per inputs, computed in the worker from a size up', () => {
  it('small jobs are computed on the page at once, and kept', () => {
    const w = fakeWorker();
    const figure = figureCache(w.compute, 10);
    const values = f64([1, 2, 2, NaN]);
    const f = figure({ kind: 'histogram', values, maxBins: 40 });
    expect(f.value?.bins.map((b) => b.count)).toEqual([1, 2]);
    expect(figure({ kind: 'histogram', values, maxBins: 40 })).toBe(f);
    expect(w.jobs()).toBe(0);
  });

  it('large jobs go to the worker once; the figure has no value until it lands', async () => {
    const w = fakeWorker();
    const figure = figureCache(w.compute, 3);
    const values = f64([1, 0, 1, 1]);
    const f = figure({ kind: 'histogram', values, maxBins: 40 });
    expect(f.value).toBeUndefined();
    expect(figure({ kind: 'histogram', values, maxBins: 40 })).toBe(f);
    expect(w.jobs()).toBe(1);
    await w.flush();
    await f.done;
    // Values 0 (once) and 1 (three times).
    expect(f.value?.bins.map((b) => [b.value, b.count])).toEqual([
      [0, 1],
      [1, 3],
    ]);
  });

  it('another array, another scalar or another list of runs is another figure; equal contents are not the same run', async () => {
    const w = fakeWorker();
    const figure = figureCache(w.compute, 0);
    const a = f64([1, 0]);
    const b = f64([0, 0]);
    const f = figure({ kind: 'distribution', values: a, others: [b] });
    expect(figure({ kind: 'distribution', values: a, others: [b] })).toBe(f);
    expect(figure({ kind: 'distribution', values: a, others: [] })).not.toBe(f);
    expect(figure({ kind: 'distribution', values: a, others: [f64([0, 0])] })).not.toBe(f);
    expect(figure({ kind: 'distribution', values: b, others: [a] })).not.toBe(f);
    const h = figure({ kind: 'histogram', values: a, maxBins: 40 });
    expect(figure({ kind: 'histogram', values: a, maxBins: 20 })).not.toBe(h);
    expect(w.jobs()).toBe(6);
    await w.flush();
    await f.done;
    expect(f.value?.overlay.counts).toEqual([
      [1, 1],
      [2, 0],
    ]);
  });

  it('a failed job says why, and is kept failed (a tab drawn again does not ask again in a loop)', async () => {
    const w = fakeWorker();
    const figure = figureCache(w.compute, 0);
    const values = f64([1]);
    w.failNext('the statistics worker stopped');
    const f = figure({ kind: 'histogram', values, maxBins: 40 });
    await w.flush();
    await f.done;
    expect(f.value).toBeUndefined();
    expect(f.error).toBe('the statistics worker stopped');
    expect(figure({ kind: 'histogram', values, maxBins: 40 })).toBe(f);
    expect(w.jobs()).toBe(0);
    // Other inputs (the next run) are asked for as usual.
    const next = figure({ kind: 'histogram', values: f64([2]), maxBins: 40 });
    await w.flush();
    await next.done;
    expect(next.value?.n).toBe(1);
  });

  it('a job that throws on the page gives its error, not an exception', () => {
    const figure = figureCache(fakeWorker().compute, 100);
    // Columns of different lengths: compareRuns refuses them.
    const f = figure({ kind: 'compare', a: f64([1, 2]), b: f64([1]) });
    expect(f.value).toBeUndefined();
    expect(f.error).toMatch(/length/);
  });
});
