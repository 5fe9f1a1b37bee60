import { describe, expect, it } from 'vitest';
import type { Dataset } from '../core/dataset/dataset';
import { RewardPool } from './rewardPool';
import type { RewardReply, RewardRequest } from './rewardProtocol';

/**
 * A stand-in for a reward worker: it records what the pool sends and answers like the real one (a load is answered
 * once `finishLoad` is called; a task at once, every row scored with its own index + 0.5).
 */
class FakeWorker {
  sent: RewardRequest[] = [];
  onmessage: ((ev: MessageEvent<RewardReply>) => void) | null = null;
  private pendingLoad: string | null = null;

  postMessage(m: RewardRequest): void {
    this.sent.push(m);
    if (m.kind === 'load') this.pendingLoad = m.datasetId;
    if (m.kind === 'run') {
      const n = m.end - m.start;
      const scores = Float64Array.from({ length: n }, (_, i) => m.start + i + 0.5);
      const status = new Uint8Array(n).fill(1);
      queueMicrotask(() => this.reply({ kind: 'result', taskId: m.taskId, result: { start: m.start, scores, status, errors: [], components: {}, notes: [] } }));
    }
  }

  finishLoad(rows: number): void {
    const id = this.pendingLoad;
    if (id === null) throw new Error('no load pending');
    this.pendingLoad = null;
    this.reply({ kind: 'loaded', datasetId: id, rows });
  }

  terminate(): void {}

  /** The row ranges of the tasks sent, in order. */
  ranges(): [number, number][] {
    return this.sent.flatMap((m) => (m.kind === 'run' ? [[m.start, m.end] as [number, number]] : []));
  }

  private reply(m: RewardReply): void {
    this.onmessage?.({ data: m } as MessageEvent<RewardReply>);
  }
}

const dataset = (id: string, size: number) => ({ id, size, name: `${id}.jsonl`, blob: new Blob([]), detection: { format: 'trl-standard' } }) as unknown as Dataset;

function pool(size: number) {
  const workers: FakeWorker[] = [];
  const p = new RewardPool(size, () => {
    const w = new FakeWorker();
    workers.push(w);
    return w as unknown as Worker;
  });
  return { p, workers };
}

const loads = (w: FakeWorker) => w.sent.filter((m) => m.kind === 'load').map((m) => (m as { datasetId: string }).datasetId);

describe('RewardPool', () => {
  it('setDataset has every worker read the data at once; with load false, none until a run needs it', async () => {
    const { p, workers } = pool(2);
    p.setDataset(dataset('a', 100));
    expect(workers.map(loads)).toEqual([['a'], ['a']]);

    // The pool of the language not in use: no worker reads the next dataset before a run.
    p.setDataset(dataset('b', 100), false);
    expect(workers.map(loads)).toEqual([['a'], ['a']]);
    const run = p.run('code');
    await Promise.resolve();
    expect(workers.map(loads)).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(workers.every((w) => w.ranges().length === 0)).toBe(true); // tasks wait for the data
    for (const w of workers) w.finishLoad(100);
    const out = await run.done;
    expect(out.kind).toBe('done');
    if (out.kind !== 'done') return;
    expect(Array.from(out.result.scores)).toEqual(Array.from({ length: 100 }, (_, i) => i + 0.5));
  });

  it('a pool made without a dataset and given one with load false starts no worker', () => {
    const { p, workers } = pool(2);
    p.setDataset(dataset('a', 100), false);
    expect(workers.length).toBe(0);
  });

  it('each worker gets the rows of its own block, the same on a second run', async () => {
    const { p, workers } = pool(2);
    p.setDataset(dataset('a', 10_000));
    for (const w of workers) w.finishLoad(10_000);
    const first = await p.run('code').done;
    expect(first.kind).toBe('done');
    const firstRuns = workers.map((w) => w.ranges());
    // Blocks [0, 5000) and [5000, 10000): each worker starts at the front of its own.
    expect(firstRuns[0][0][0]).toBe(0);
    expect(firstRuns[1][0][0]).toBe(5000);
    // After the run each worker hears it is idle, with its block: it reads the rows of it it does not hold yet.
    expect(workers.map((w) => w.sent.filter((m) => m.kind === 'idle'))).toEqual([[{ kind: 'idle', block: [0, 5000] }], [{ kind: 'idle', block: [5000, 10_000] }]]);
    for (const w of workers) w.sent = [];
    const second = await p.run('code').done;
    expect(second.kind).toBe('done');
    const rowsOf = (rs: [number, number][]) => rs.reduce((n, [a, b]) => n + b - a, 0);
    // The workers answer at once and in the same order on both runs: the very same tasks.
    expect(workers.map((w) => w.ranges())).toEqual(firstRuns);
    expect(rowsOf(firstRuns[0]) + rowsOf(firstRuns[1])).toBe(10_000);
  });
});
