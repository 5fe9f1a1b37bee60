import { afterEach, describe, expect, it, vi } from 'vitest';
import { RowStatus } from '../core/reward/contract';
import { RewardEngine, type WorkerPort } from './engine';
import type { FromWorker, ToWorker } from './protocol';
import { WATCH_COMPILING, WATCH_IDLE, watchOf, type Watch } from './watch';

/**
 * A stand-in for a reward worker behind a port: it answers loads when told (`finishLoad`) and scores each task at
 * once with row + 0.5, unless the test has made a row stick (then it publishes that row and never answers).
 */
class FakeWorker implements WorkerPort {
  sent: ToWorker[] = [];
  onMessage: ((m: unknown) => void) | null = null;
  onExit: ((why: string) => void) | null = null;
  onStray: ((m: unknown) => void) | null = null;
  terminated = false;
  watch: Watch | null = null;
  /** Rows that hang: the task stops there, the row published in the watch slot. */
  stuckRows = new Set<number>();
  isStuck = (row: number) => this.stuckRows.has(row);
  autoLoad = true;
  loadDelayMs = 0;
  /** What to send instead of a result (a forged or malformed reply; null: no reply at all). */
  forge: ((m: Extract<ToWorker, { kind: 'run' }>) => unknown) | null = null;
  private pending: string | null = null;

  post(m: ToWorker): void {
    this.sent.push(m);
    if (m.kind === 'init' && m.watch) this.watch = watchOf(m.watch);
    if (m.kind === 'load') {
      this.pending = m.file.datasetId;
      const load = () => this.finishLoad(rowsOf(m.file.datasetId));
      if (this.autoLoad) void (this.loadDelayMs ? setTimeout(load, this.loadDelayMs) : queueMicrotask(load));
    }
    if (m.kind === 'check') queueMicrotask(() => this.reply({ kind: 'checked', reqId: m.reqId, result: { ok: true, candidates: [] } }));
    if (m.kind === 'run') queueMicrotask(() => this.runTask(m));
  }

  /** A real worker runs its tasks one after another: once one hangs, the ones queued behind it never start. */
  private hung = false;

  private runTask(m: Extract<ToWorker, { kind: 'run' }>): void {
    if (this.terminated || this.hung) return;
    if (this.forge) {
      const forged = this.forge(m);
      if (forged !== null) this.onMessage?.(forged);
      return;
    }
    const n = m.end - m.start;
    for (let r = m.start; r < m.end; r++) {
      if (this.isStuck(r)) {
        if (this.watch) Atomics.store(this.watch.row, 0, r);
        this.hung = true;
        return;
      }
    }
    const scores = Float64Array.from({ length: n }, (_, i) => m.start + i + 0.5);
    const status = new Uint8Array(n).fill(RowStatus.Ok);
    this.reply({ kind: 'result', taskId: m.taskId, result: { start: m.start, scores, status, errors: [], components: {}, notes: [] } });
  }

  finishLoad(rows: number): void {
    const id = this.pending;
    if (id === null) throw new Error('no load pending');
    this.pending = null;
    this.reply({ kind: 'loaded', datasetId: id, rows });
  }

  terminate(): void {
    this.terminated = true;
  }

  runs(): [number, number][] {
    return this.sent.flatMap((m) => (m.kind === 'run' ? [[m.start, m.end] as [number, number]] : []));
  }

  reply(m: FromWorker): void {
    if (!this.terminated) this.onMessage?.(m);
  }
}

/** Dataset ids name their size: "d100" has 100 rows. */
const rowsOf = (id: string) => Number(id.slice(1));
const dataset = (id: string) => ({ size: rowsOf(id), file: { datasetId: id, name: `${id}.jsonl`, blob: new Blob([]) } });

let engines: RewardEngine[] = [];
afterEach(() => {
  for (const e of engines) e.dispose();
  engines = [];
});

interface FakeOptions {
  interruptible?: boolean;
  oneCodePerWorker?: boolean;
  prepareBetweenRuns?: boolean;
  minTaskMs?: number;
  staged?: boolean;
  startWith?: number;
  compileLimitMs?: number;
  liveness?: { pingAfterMs: number; pongMs: number };
  /** Rows every worker of this engine hangs on. */
  stuck?: (row: number) => boolean;
  autoLoad?: boolean;
  loadDelayMs?: number;
  forge?: FakeWorker['forge'];
}

function engine(size: number, opts: FakeOptions = {}) {
  const workers: FakeWorker[] = [];
  const protocolErrors: string[] = [];
  const { autoLoad = true, loadDelayMs = 0, forge = null, stuck, ...rest } = opts;
  const e = new RewardEngine({
    size,
    spawn: () => {
      const w = new FakeWorker();
      w.autoLoad = autoLoad;
      w.loadDelayMs = loadDelayMs;
      w.forge = forge;
      if (stuck) w.isStuck = stuck;
      workers.push(w);
      return w;
    },
    onProtocolError: (m) => protocolErrors.push(m),
    ...rest,
  });
  engines.push(e);
  return { e, workers, protocolErrors, live: () => workers.filter((w) => !w.terminated) };
}

describe('RewardEngine on fake ports', () => {
  it('scores every row once, each worker from its own block, the same tasks on a second run', async () => {
    // Tasks cut by rows only: at the run's measured speed (the default) their sizes depend on the clock.
    const { e, workers } = engine(2, { minTaskMs: 0 });
    e.setDataset(dataset('d10000'));
    // Both workers have read the data before the first run, as before the second: their tasks go out alike.
    await e.loadInfo();
    await Promise.resolve();
    expect(e.workers.every((s) => e.isReady(s))).toBe(true);
    const first = await e.run('code').done;
    expect(first.kind).toBe('done');
    if (first.kind !== 'done') return;
    expect(Array.from(first.result.scores)).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 0.5));
    expect(workers[0].runs()[0][0]).toBe(0);
    expect(workers[1].runs()[0][0]).toBe(5000);
    // After a finished run (once its outcome is out) each worker hears it is idle, with its block and the last eighth
    // of the other's (what it takes when it is done first).
    await new Promise((r) => setTimeout(r, 0));
    expect(workers.map((w) => w.sent.filter((m) => m.kind === 'idle'))).toEqual([
      [{ kind: 'idle', block: [0, 5000], tails: [[9375, 10_000]] }],
      [{ kind: 'idle', block: [5000, 10_000], tails: [[4375, 5000]] }],
    ]);
    const firstRuns = workers.map((w) => w.runs());
    for (const w of workers) w.sent = [];
    await e.run('code').done;
    expect(workers.map((w) => w.runs())).toEqual(firstRuns);
  });

  it('a run started before the last run’s idle notice went out gets no idle notice in between', async () => {
    const { e, workers } = engine(2);
    e.setDataset(dataset('d10000'));
    await e.run('code').done;
    // The second run stays in flight: its workers never answer.
    for (const w of workers) w.forge = () => null;
    const second = e.run('code');
    await new Promise((r) => setTimeout(r, 0));
    expect(workers.flatMap((w) => w.sent.filter((m) => m.kind === 'idle'))).toEqual([]);
    second.cancel();
  });

  it('a fast reward gets fewer, larger tasks once its speed is known; every row is still scored once', async () => {
    // A clock that moves 1 ms per reading: the fake workers score 100,000 rows in a few hundred "ms", far more rows per
    // ms than 1,000-row tasks need, so the tail's tasks grow to MIN_TASK_MS of scoring at the measured speed.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => ++clock);
    try {
      const runs = async (minTaskMs?: number) => {
        const { e, workers } = engine(2, minTaskMs === undefined ? {} : { minTaskMs });
        e.setDataset(dataset('d100000'));
        const out = await e.run('code').done;
        expect(out.kind).toBe('done');
        if (out.kind !== 'done') return [];
        expect(Array.from(out.result.scores).every((v, i) => v === i + 0.5)).toBe(true);
        return workers.flatMap((w) => w.runs());
      };
      const byRows = await runs(0);
      const paced = await runs();
      expect(Math.min(...byRows.map(([a, b]) => b - a))).toBeLessThanOrEqual(1000);
      expect(paced.length).toBeLessThan(byRows.length);
    } finally {
      now.mockRestore();
    }
  });

  it('a lean dataset (rows read by each task) gets tasks of 2,048 rows at most, however fast the reward', async () => {
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => ++clock);
    try {
      const sizes = async (lean: boolean) => {
        const { e, workers } = engine(2);
        e.setDataset({ ...dataset('d100000'), file: { ...dataset('d100000').file, ...(lean ? { lean } : {}) } });
        const out = await e.run('code').done;
        expect(out.kind).toBe('done');
        if (out.kind !== 'done') return [];
        expect(Array.from(out.result.scores).every((v, i) => v === i + 0.5)).toBe(true);
        return workers.flatMap((w) => w.runs()).map(([a, b]) => b - a);
      };
      expect(Math.max(...(await sizes(true)))).toBe(2048);
      expect(Math.max(...(await sizes(false)))).toBeGreaterThan(2048);
    } finally {
      now.mockRestore();
    }
  });

  it('a row-subset run sends only those rows, by position, with their share of the model columns; results by position', async () => {
    const { e, workers } = engine(2);
    e.setDataset(dataset('d100'));
    const rows = Int32Array.from({ length: 30 }, (_, j) => 3 * j + 1);
    const col = Float64Array.from({ length: 30 }, (_, j) => j + 0.25);
    const out = await e.run('code', { rows, models: { rm: col } }).done;
    expect(out.kind).toBe('done');
    if (out.kind !== 'done') return;
    // The fake worker scores position p with p + 0.5.
    expect(Array.from(out.result.scores)).toEqual(Array.from({ length: 30 }, (_, j) => j + 0.5));
    const sent = workers.flatMap((w) => w.sent.flatMap((m) => (m.kind === 'run' ? [m] : [])));
    expect(sent.reduce((a, m) => a + m.end - m.start, 0)).toBe(30);
    for (const m of sent) {
      expect(Array.from(m.rows!)).toEqual(Array.from({ length: m.end - m.start }, (_, k) => 3 * (m.start + k) + 1));
      expect(Array.from(m.models!.rm)).toEqual(Array.from({ length: m.end - m.start }, (_, k) => m.start + k + 0.25));
    }
  });

  it.each([
    ['a row past the end', [1, 100], 'row subset: row 100 (position 1) is outside the dataset (100 rows)'],
    ['a negative row', [-1, 3], 'row subset: row -1 (position 0) is outside the dataset (100 rows)'],
    ['rows out of order', [5, 3], 'row subset: rows must be ascending and distinct (position 1)'],
    ['a row twice', [5, 5], 'row subset: rows must be ascending and distinct (position 1)'],
  ])('a row subset with %s fails the run before any task goes out', async (_, list, message) => {
    const { e, workers } = engine(1);
    e.setDataset(dataset('d100'));
    const out = await e.run('code', { rows: Int32Array.from(list) }).done;
    expect(out).toEqual({ kind: 'failed', message });
    expect(workers.flatMap((w) => w.sent.filter((m) => m.kind === 'run'))).toEqual([]);
  });

  it('a probe run sends each task its positions’ share of the model columns; a column of another length fails the run', async () => {
    const { e, workers } = engine(2);
    e.setDataset(dataset('d100'));
    const rows = Int32Array.from({ length: 10 }, (_, j) => 90 - 7 * j);
    // Position j's score is 10·j + 0.25: what the task for positions [start, end) must carry.
    const col = Float64Array.from({ length: 10 }, (_, j) => 10 * j + 0.25);
    const out = await e.run('code', { probe: { name: 'empty', rows }, models: { rm: col } }).done;
    expect(out.kind).toBe('done');
    const sent = workers.flatMap((w) => w.sent.flatMap((m) => (m.kind === 'run' ? [m] : [])));
    expect(sent.reduce((a, m) => a + m.end - m.start, 0)).toBe(10);
    for (const m of sent) expect(Array.from(m.models!.rm)).toEqual(Array.from({ length: m.end - m.start }, (_, k) => 10 * (m.start + k) + 0.25));
    const whole = await e.run('code', { probe: { name: 'empty', rows }, models: { rm: new Float64Array(100) } }).done;
    expect(whole).toMatchObject({ kind: 'failed', message: 'the scores of model rm cover 100 rollouts where the run has 10 (probed rollouts)' });
  });

  it('with load false no worker reads the dataset until a run needs it; tasks wait for the read', async () => {
    const { e, workers } = engine(2, { autoLoad: false });
    e.setDataset(dataset('d100'), false);
    expect(workers.length).toBe(0);
    const run = e.run('code');
    expect(workers.length).toBe(2);
    await Promise.resolve();
    await Promise.resolve();
    expect(workers.every((w) => w.runs().length === 0)).toBe(true);
    for (const w of workers) w.finishLoad(100);
    const out = await run.done;
    expect(out.kind).toBe('done');
  });

  it('a stuck row times out: its worker is replaced, the row marked, the rest of its task scored elsewhere', async () => {
    const { e, workers } = engine(2);
    e.setDataset(dataset('d200'));
    workers[0].stuckRows.add(7);
    const out = await e.run('code', { timeLimitMs: 40 }).done;
    expect(out.kind).toBe('done');
    if (out.kind !== 'done') return;
    expect(out.result.status[7]).toBe(RowStatus.TimedOut);
    expect(out.result.scores[7]).toBeNaN();
    expect(out.result.errors.get(7)?.message).toBe('timed out after 40 ms');
    expect(workers[0].terminated).toBe(true);
    expect(workers.length).toBe(3); // the replacement
    for (let i = 0; i < 200; i++) if (i !== 7) expect([i, out.result.status[i], out.result.scores[i]]).toEqual([i, RowStatus.Ok, i + 0.5]);
  });

  it('a Python call past its limit is interrupted first (2 in the interrupt slot) and the worker stays', async () => {
    const { e, workers } = engine(1, { interruptible: true });
    e.setDataset(dataset('d50'));
    const w = workers[0];
    w.stuckRows.add(3);
    const run = e.run('code', { timeLimitMs: 30, python: { name: 'f', kind: 'verl', batchSize: 1 } });
    await until(() => w.watch !== null && Atomics.load(w.watch.interrupt, 0) === 2);
    expect(w.terminated).toBe(false);
    run.cancel();
  });

  it('Cancel terminates the busy workers, starts fresh ones on the same dataset, and leaves unscored rows pending', async () => {
    const { e, workers, live } = engine(2);
    e.setDataset(dataset('d100'));
    workers[1].stuckRows.add(60);
    const run = e.run('code', { timeLimitMs: 60_000 });
    await until(() => workers[1].watch !== null && Atomics.load(workers[1].watch.row, 0) === 60);
    run.cancel();
    const out = await run.done;
    expect(out.kind).toBe('cancelled');
    if (out.kind !== 'cancelled') return;
    expect(workers[1].terminated).toBe(true);
    expect(live().length).toBe(2);
    expect(live().every((w) => w.sent.some((m) => m.kind === 'load' && m.file.datasetId === 'd100'))).toBe(true);
    expect(out.result.status[60]).toBe(RowStatus.Pending);
    // Every row not scored is NaN, as a row's score is until its result is in; the rows scored keep theirs.
    for (let i = 0; i < 100; i++)
      if (out.result.status[i] === RowStatus.Pending) expect(out.result.scores[i]).toBeNaN();
      else expect(out.result.scores[i]).toBe(i + 0.5);
  });

  it('a worker that dies on a row: that row fails with the reason, the run goes on in a fresh worker', async () => {
    const { e, workers } = engine(2);
    e.setDataset(dataset('d100'));
    workers[0].stuckRows.add(10);
    const run = e.run('code', { timeLimitMs: 60_000 });
    await until(() => workers[0].watch !== null && Atomics.load(workers[0].watch.row, 0) === 10);
    workers[0].onExit?.('exit code 1');
    const out = await run.done;
    expect(out.kind).toBe('done');
    if (out.kind !== 'done') return;
    expect(out.result.status[10]).toBe(RowStatus.Error);
    expect(out.result.scores[10]).toBeNaN();
    expect(out.result.errors.get(10)?.message).toBe('the reward worker died on this row (exit code 1)');
    expect(Array.from(out.result.status).filter((s) => s === RowStatus.Ok)).toHaveLength(99);
  });

  it('a worker that dies between rows: the rows of the task it held fail with the reason, the run goes on', async () => {
    const { e, workers } = engine(1);
    e.setDataset(dataset('d100'));
    workers[0].stuckRows.add(10);
    const run = e.run('code', { timeLimitMs: 60_000 });
    await until(() => workers[0].watch !== null && Atomics.load(workers[0].watch.row, 0) === 10);
    Atomics.store(workers[0].watch!.row, 0, WATCH_IDLE);
    workers[0].onExit?.('exit code 1');
    const out = await run.done;
    if (out.kind !== 'done') throw new Error(out.kind);
    const failed = [...out.result.errors.keys()];
    expect(failed[0]).toBe(0);
    expect(out.result.errors.get(0)?.message).toBe('the reward worker stopped (exit code 1)');
    for (const r of failed) expect(out.result.status[r]).toBe(RowStatus.Error);
    expect(failed.length + Array.from(out.result.status).filter((st) => st === RowStatus.Ok).length).toBe(100);
  });

  it('a worker that stops answering (it closed itself) is found by a ping; its task fails with the reason', async () => {
    const { e, workers } = engine(1, { forge: () => null, liveness: { pingAfterMs: 50, pongMs: 100 } });
    e.setDataset(dataset('d20'));
    const w = workers[0];
    // It takes the task, shows no row, and never answers anything again.
    const post = w.post.bind(w);
    w.post = (m) => (m.kind === 'ping' ? undefined : post(m));
    const out = await e.run('code', { timeLimitMs: 60_000 }).done;
    if (out.kind !== 'done') throw new Error(out.kind);
    expect(out.result.errors.get(0)?.message).toBe('the reward worker stopped (it stopped answering; did the reward call close()?)');
    expect(w.terminated).toBe(true);
  });

  it('every row timing out on every worker stops the run early with the reason', async () => {
    const { e, workers } = engine(2, { stuck: () => true });
    e.setDataset(dataset('d1000'));
    const out = await e.run('code', { timeLimitMs: 30 }).done;
    // One timeout on each of the two workers was enough.
    expect(workers.length).toBe(4);
    expect(out).toEqual({ kind: 'failed', message: 'every row so far timed out: the reward probably never returns' });
  });

  it("a message reward code posts on the worker's own channel is reported and never used", async () => {
    const { e, workers, protocolErrors } = engine(1);
    e.setDataset(dataset('d10'));
    const run = e.run('code');
    workers[0].onStray?.({ kind: 'result', taskId: 1, result: {} });
    expect((await run.done).kind).toBe('done');
    expect(protocolErrors).toEqual(['reward code posted a message of its own to the page; it was dropped']);
  });

  it('top-level code that never ends: a compile error after the compile limit, and the worker replaced', async () => {
    const { e, workers } = engine(1, { compileLimitMs: 200, forge: () => null });
    e.setDataset(dataset('d10'));
    const run = e.run('code', { timeLimitMs: 10 });
    await until(() => workers[0].runs().length > 0);
    Atomics.store(workers[0].watch!.row, 0, WATCH_COMPILING);
    const out = await run.done;
    expect(out).toEqual({ kind: 'compile-error', message: "the reward module's top-level code ran for more than 200 ms" });
    expect(workers[0].terminated).toBe(true);
  });

  it('text columns of every task land on their rows; a task that sends none leaves nulls', async () => {
    const { e, workers } = engine(2, {
      forge: (m) => {
        const n = m.end - m.start;
        // The task of row 0 names each of its rows "r<row>" in `pred`; the others send no text column.
        const strings = m.start === 0 ? { pred: Array.from({ length: n }, (_, i) => `r${m.start + i}`) } : undefined;
        const result = {
          start: m.start,
          scores: new Float64Array(n).fill(1),
          status: new Uint8Array(n).fill(1),
          errors: [],
          components: {},
          notes: [],
          strings,
        };
        return { kind: 'result', taskId: m.taskId, result };
      },
    });
    e.setDataset(dataset('d20'));
    const out = await e.run('code').done;
    if (out.kind !== 'done') throw new Error(out.kind);
    const want = new Array<string | null>(20).fill(null);
    for (const [a, b] of workers.flatMap((w) => w.runs())) if (a === 0) for (let r = a; r < b; r++) want[r] = `r${r}`;
    expect(want[0]).toBe('r0');
    expect(want[19]).toBe(null);
    expect(out.result.strings).toEqual({ pred: want });
  });

  it('a forged result (a note that is not a string) is dropped and reported; its rows fail, nothing of it is kept', async () => {
    const { e, protocolErrors } = engine(1, {
      forge: (m) => ({
        kind: 'result',
        taskId: m.taskId,
        result: {
          start: m.start,
          scores: new Float64Array(m.end - m.start).fill(1),
          status: new Uint8Array(m.end - m.start).fill(1),
          errors: [],
          components: {},
          notes: [{ row: m.start, note: { html: '<b>' } }],
        },
      }),
    });
    e.setDataset(dataset('d20'));
    const out = await e.run('code').done;
    expect(out.kind).toBe('done');
    if (out.kind !== 'done') return;
    expect(protocolErrors[0]).toMatch(/^a reward worker sent a malformed result \(result\.notes\.0\.note: expected a string\); it was dropped$/);
    expect(out.result.notes.size).toBe(0);
    expect(out.result.status.every((s) => s === RowStatus.Error)).toBe(true);
    expect(out.result.errors.get(0)?.message).toMatch(/malformed result/);
  });

  it('unknown message kinds and results with rows outside their task are refused', async () => {
    let forged = 0;
    const { e, protocolErrors } = engine(1, {
      forge: (m) =>
        forged++ === 0
          ? {
              kind: 'result',
              taskId: m.taskId,
              result: {
                start: m.start,
                scores: new Float64Array(m.end - m.start),
                status: new Uint8Array(m.end - m.start).fill(1),
                errors: [{ row: 999, message: 'x' }],
                components: {},
                notes: [],
              },
            }
          : { kind: 'surprise' },
    });
    e.setDataset(dataset('d20'));
    const out = await e.run('code').done;
    expect(out.kind).toBe('done');
    expect(protocolErrors[0]).toMatch(/result\.errors\.0\.row: expected an integer in \[0, \d+\]/);
    expect(protocolErrors[1]).toMatch(/unknown message kind "surprise"/);
  });

  it('a component named __proto__ is kept as a component', async () => {
    const { e } = engine(1, {
      forge: (m) => {
        const components = Object.create(null) as Record<string, unknown>;
        for (const k of ['__proto__', 'constructor']) Object.defineProperty(components, k, { value: Float64Array.from([1, 2, 3, 4]), enumerable: true });
        return {
          kind: 'result',
          taskId: m.taskId,
          result: { start: 0, scores: new Float64Array(4), status: new Uint8Array(4).fill(1), errors: [], components, notes: [] },
        };
      },
    });
    e.setDataset(dataset('d4'));
    const out = await e.run('code').done;
    if (out.kind !== 'done') throw new Error(out.kind);
    expect(Object.keys(out.result.components).sort()).toEqual(['__proto__', 'constructor']);
    expect(Array.from(Object.getOwnPropertyDescriptor(out.result.components, '__proto__')!.value as Float64Array)).toEqual([1, 2, 3, 4]);
  });

  it('a new run cancels the one in flight (the latest request wins)', async () => {
    const { e, workers } = engine(1);
    e.setDataset(dataset('d100'));
    workers[0].stuckRows.add(5);
    const first = e.run('a', { timeLimitMs: 60_000 });
    await until(() => workers[0].runs().length > 0);
    const second = e.run('b');
    expect((await first.done).kind).toBe('cancelled');
    expect((await second.done).kind).toBe('done');
  });

  it('Python tasks start on multiples of the batch size', async () => {
    const { e, workers } = engine(2);
    e.setDataset(dataset('d1000'));
    await e.run('code', { python: { name: 'f', kind: 'trl', batchSize: 32 } }).done;
    for (const w of workers) for (const [a] of w.runs()) expect(a % 32).toBe(0);
  });

  it('staged: one worker reads and scores; the rest start only when the scoring left outlasts a worker start', async () => {
    const quick = engine(4, { staged: true, loadDelayMs: 50 });
    quick.e.setDataset({ ...dataset('d100'), size: undefined });
    const out = await quick.e.run('code').done;
    expect(out.kind === 'done' && out.workersUsed).toBe(1);
    expect(quick.workers.length).toBe(1);
    // Tasks that take long (never answered here): the others are started.
    const slow = engine(4, { staged: true, loadDelayMs: 20, forge: () => null });
    slow.e.setDataset({ ...dataset('d100'), size: undefined });
    slow.e.run('code', { timeLimitMs: 60_000 });
    await until(() => slow.workers.length === 4, 3000);
    // The same when the first worker read the file before the run began (a small file, a fast read): it sends no
    // ready notice during the run, and the pool still grows.
    const early = engine(4, { staged: true, forge: () => null });
    early.e.setDataset({ ...dataset('d100'), size: undefined });
    await early.e.loadInfo();
    expect(early.e.isReady(early.e.workers[0])).toBe(true);
    early.e.run('code', { timeLimitMs: 60_000 });
    await until(() => early.workers.length === 4, 3000);
  });

  it('staged with startWith: that many workers start, each asked for the per-row facts, and a run has that many blocks', async () => {
    const { e, workers } = engine(4, { staged: true, interruptible: true, startWith: 2, minTaskMs: 0, loadDelayMs: 50 });
    e.setDataset({ ...dataset('d10000'), size: undefined, meta: { label: null } });
    expect(workers.length).toBe(2);
    const loads = workers.map((w) => w.sent.filter((m) => m.kind === 'load'));
    expect(loads.map((l) => l.length)).toEqual([1, 1]);
    expect(loads.every(([m]) => m.kind === 'load' && m.meta?.label === null)).toBe(true);
    await until(() => e.workers.every((s) => e.isReady(s)));
    const out = await e.run('code', { python: { name: 'f', kind: 'verl', batchSize: 1 } }).done;
    expect(out.kind === 'done' && out.result.scores.length).toBe(10_000);
    // Worker 1's block is the second half (its piece, in the CLI), not the second quarter of four.
    expect(workers[1].runs()[0][0]).toBe(5000);
    // A quick run does not grow the pool.
    expect(workers.length).toBe(2);
    // Grown (as a long run grows it), the pool's next run has a block per worker: worker 3's is the last quarter.
    e.fill(4);
    for (const s of e.workers) e.ensureData(s);
    await until(() => e.workers.every((s) => e.isReady(s)));
    await e.run('code', { python: { name: 'f', kind: 'verl', batchSize: 1 } }).done;
    expect(workers[3].runs()[0][0]).toBe(7500);
    // Without startWith a staged pool starts one worker, Python or not, asked once.
    for (const interruptible of [true, false]) {
      const one = engine(3, { staged: true, interruptible });
      one.e.setDataset({ ...dataset('d100'), size: undefined, meta: { label: null } });
      expect(one.workers.length).toBe(1);
    }
    // Tasks that take long (never answered here): a pool started with two grows to all four.
    const slow = engine(4, { staged: true, interruptible: true, startWith: 2, loadDelayMs: 20, forge: () => null });
    slow.e.setDataset({ ...dataset('d100'), size: undefined });
    slow.e.run('code', { timeLimitMs: 60_000 });
    await until(() => slow.workers.length === 4, 3000);
  });

  it('the first worker to read the dataset reports its size when the import did not (the CLI)', async () => {
    const { e } = engine(2, { staged: true });
    e.setDataset({ ...dataset('d37'), size: undefined, meta: { label: null } });
    const out = await e.run('code').done;
    if (out.kind !== 'done') throw new Error(out.kind);
    expect(out.result.scores.length).toBe(37);
    expect(await e.loadInfo()).toEqual({ ok: true, rows: 37 });
  });

  it('a task that fails outright ends the run with the reason, and its worker is replaced (it may be unfit: a changed realm)', async () => {
    const { e, workers, live } = engine(1, { forge: (m) => ({ kind: 'failed', taskId: m.taskId, message: 'reward code changed RegExp.prototype' }) });
    e.setDataset(dataset('d1'), true);
    const run = e.run('code');
    expect(await run.done).toEqual({ kind: 'failed', message: 'reward code changed RegExp.prototype' });
    expect(workers[0].terminated).toBe(true);
    expect(live()).toHaveLength(1);
  });

  it('oneCodePerWorker: a worker that ran one code is replaced before another code runs, and kept for the same code', async () => {
    const { e, workers, live } = engine(2, { oneCodePerWorker: true, minTaskMs: 0, prepareBetweenRuns: false });
    e.setDataset(dataset('d1000'));
    expect((await e.run('a').done).kind).toBe('done');
    const first = live();
    expect(first).toHaveLength(2);
    // The same code again (Run without an edit, a probe of it): the same workers.
    expect((await e.run('a').done).kind).toBe('done');
    expect(live()).toEqual(first);
    // Another code: fresh workers, and no task of it reaches the old ones.
    const out = await e.run('b').done;
    expect(out.kind).toBe('done');
    if (out.kind === 'done') expect(out.result.scores[999]).toBe(999.5);
    expect(first.every((w) => w.terminated)).toBe(true);
    for (const w of first) expect(w.sent.filter((m) => m.kind === 'run' && m.code === 'b')).toEqual([]);
    expect(live()).toHaveLength(2);
    expect(workers).toHaveLength(4);
  });

  it('oneCodePerWorker: an edit after a run starts a spare per worker, which reads that worker’s block; other code runs on the spares', async () => {
    const { e, workers, live } = engine(2, { oneCodePerWorker: true, minTaskMs: 0 });
    e.setDataset(dataset('d1000'));
    // Before any code has run there is nothing to replace: no spare.
    e.prepareEdit();
    await e.run('a').done;
    const first = [...e.workers];
    // A run alone starts no spare (the same code again, or another dataset, would never use it).
    await new Promise((r) => setTimeout(r, 30));
    expect(workers).toHaveLength(2);
    e.prepareEdit();
    e.prepareEdit(); // once per worker, however often the code changes
    await until(() => workers.length === 4 && workers.slice(2).every((w) => w.sent.some((m) => m.kind === 'idle')));
    const spares = workers.slice(2);
    // Each spare reads the block its worker scored, and runs nothing.
    expect(spares.map((w) => w.sent.find((m) => m.kind === 'idle'))).toEqual([
      { kind: 'idle', block: [0, 500], tails: [] },
      { kind: 'idle', block: [500, 1000], tails: [] },
    ]);
    expect(spares.every((w) => !w.sent.some((m) => m.kind === 'run'))).toBe(true);
    // The same code: the workers stay, the spares wait.
    await e.run('a').done;
    expect(e.workers).toEqual(first);
    expect(spares.every((w) => !w.terminated)).toBe(true);
    // Other code: the spares take over, no worker is started for it, and none after it.
    const out = await e.run('b').done;
    expect(out.kind).toBe('done');
    expect(workers.slice(0, 2).every((w) => w.terminated)).toBe(true);
    expect(spares.every((w) => w.sent.some((m) => m.kind === 'run' && m.code === 'b'))).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(workers).toHaveLength(4);
    // A new dataset: spares of the old one are dropped.
    e.prepareEdit();
    await until(() => workers.length === 6);
    e.setDataset(dataset('d10'));
    expect(live()).toHaveLength(2);
    // An edit on a dataset no code has run on yet: the spares start and read it, but hold no rows of the last one.
    e.prepareEdit();
    await until(() => workers.length === 8 && workers.slice(6).every((w) => w.sent.some((m) => m.kind === 'load')));
    await new Promise((r) => setTimeout(r, 30));
    expect(workers.slice(6).some((w) => w.sent.some((m) => m.kind === 'idle'))).toBe(false);
  });

  it('oneCodePerWorker: an edit during a run starts the spares once it has ended, and TypeScript pools start none', async () => {
    const { e, workers } = engine(1, { oneCodePerWorker: true, minTaskMs: 0 });
    e.setDataset(dataset('d100'));
    await e.run('a').done;
    const run = e.run('a');
    e.prepareEdit();
    expect(workers).toHaveLength(1);
    await run.done;
    await until(() => workers.length === 2 && workers[1].sent.some((m) => m.kind === 'idle'));
    const ts = engine(1, { minTaskMs: 0 });
    ts.e.setDataset(dataset('d100'));
    await ts.e.run('a').done;
    ts.e.prepareEdit();
    await new Promise((r) => setTimeout(r, 30));
    expect(ts.workers).toHaveLength(1);
  });

  it('oneCodePerWorker: a check in flight on a worker replaced for other code is asked of its fresh worker', async () => {
    const { e, workers } = engine(1, { oneCodePerWorker: true, prepareBetweenRuns: false });
    e.setDataset(dataset('d10'));
    await e.run('a').done;
    // The studio checks the edited code while the user types; Run comes before the answer.
    const checked = e.check('b');
    const run = e.run('b');
    expect(await checked).toEqual({ ok: true, candidates: [] });
    expect(workers[0].terminated).toBe(true);
    expect(workers[1].sent.some((m) => m.kind === 'check' && m.code === 'b')).toBe(true);
    expect((await run.done).kind).toBe('done');
  });

  it('without oneCodePerWorker (TypeScript: its realm is frozen), workers run one code after another', async () => {
    const { e, live } = engine(2, { minTaskMs: 0 });
    e.setDataset(dataset('d1000'));
    await e.run('a').done;
    const first = live();
    await e.run('b').done;
    expect(live()).toEqual(first);
  });

  it('a load that fails ends the run with the reason', async () => {
    const { e, workers } = engine(1, { autoLoad: false });
    e.setDataset(dataset('d10'), false);
    const run = e.run('code');
    const w = workers[0];
    w.reply({ kind: 'load-failed', datasetId: 'd10', message: 'd10.jsonl could not be read' });
    expect(await run.done).toEqual({ kind: 'load-failed', message: 'd10.jsonl could not be read' });
  });
});

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('RewardEngine: a file read in pieces (the CLI)', () => {
  const meta = (rows: number) => ({
    rows,
    issues: [],
    detection: { container: 'jsonl' as const, format: 'trl-standard' as const, detected: 'trl-standard' as const, reason: '', columns: [], gzip: false },
    groupOf: new Int32Array(rows),
    groupKeys: ['g'],
    lengths: new Float64Array(rows),
    steps: new Float64Array(rows).fill(Number.NaN),
    truncated: new Float64Array(rows).fill(Number.NaN),
    labels: null,
    labelPresent: 0,
    groupBy: null,
  });
  const request = (start: number, end: number) => ({
    datasetId: 'd4',
    path: '/d.jsonl',
    name: 'd.jsonl',
    start,
    end,
    lineOffset: start,
    format: 'trl-standard' as const,
    mapping: null,
    meta: { label: null, groupBy: null },
  });
  const pieceRead = (rows: number, line: number) => ({
    kind: 'piece-read' as const,
    datasetId: 'd4',
    meta: meta(rows),
    index: { spans: Float64Array.from({ length: 2 * rows }, (_, i) => line + i), lines: Int32Array.from({ length: rows }, (_, i) => line + i + 1) },
  });

  it('worker k is asked piece k; the answers come back in piece order, whatever order they arrive in', async () => {
    const { e, workers } = engine(2, { staged: true });
    const got = e.readPieces([request(0, 10), request(10, 20)]);
    expect(workers).toHaveLength(2);
    expect(workers.map((w) => w.sent.find((m) => m.kind === 'piece'))).toMatchObject([
      { start: 0, end: 10 },
      { start: 10, end: 20 },
    ]);
    workers[1].reply(pieceRead(3, 10));
    workers[0].reply(pieceRead(1, 0));
    const reads = await got;
    expect(reads.map((r) => r.meta.rows)).toEqual([1, 3]);
    expect(Array.from(reads[1].index.lines)).toEqual([11, 12, 13]);
  });

  it('rejects when a piece fails, or its worker stops; after dispose it starts no worker', async () => {
    const failing = engine(2);
    const a = failing.e.readPieces([request(0, 10), request(10, 20)]);
    failing.workers[0].reply({ kind: 'piece-failed', datasetId: 'd4', message: 'EACCES' });
    await expect(a).rejects.toThrow('EACCES');

    const dying = engine(2);
    const b = dying.e.readPieces([request(0, 10), request(10, 20)]);
    dying.workers[1].onExit?.('exit code 1');
    await expect(b).rejects.toThrow(/stopped/);

    const disposed = engine(2);
    disposed.e.dispose();
    await expect(disposed.e.readPieces([request(0, 10)])).rejects.toThrow(/disposed/);
    expect(disposed.workers).toHaveLength(0);
  });

  it('the first read info waits for the worker asked for the facts, even when another worker answers first', async () => {
    const { e, workers } = engine(2, { autoLoad: false });
    e.setDataset({ ...dataset('d4'), meta: { label: null } });
    const asked = workers.filter((w) => w.sent.some((m) => m.kind === 'load' && m.meta !== undefined));
    expect(asked).toEqual([workers[0]]);
    let info: unknown = null;
    void e.loadInfo().then((i) => (info = i));
    workers[1].finishLoad(4);
    await new Promise((r) => setTimeout(r, 0));
    expect(info).toBeNull();
    workers[0].reply({ kind: 'loaded', datasetId: 'd4', rows: 4, meta: meta(4) });
    await new Promise((r) => setTimeout(r, 0));
    expect(info).toMatchObject({ ok: true, rows: 4, meta: { rows: 4 } });
  });
});
