/**
 * The CLI's reward pool: `src/runtime/rewardPool.ts` on `node:worker_threads`. Up to one worker per core (at least
 * 2), each reading the data file itself; rows are split into tasks (about 8 per worker, queued ahead so a worker
 * never waits for the main thread). A watchdog reads each worker's shared watch slot and, when one row has run past
 * the time limit, terminates that worker, marks the row timed out, starts a replacement and re-queues the rest of
 * the task. A worker that dies on its own (the reward exhausted memory, called process.exit …) is handled the same
 * way, with the row it was on marked as an error.
 *
 * Staged start (unlike the browser, where the workers are started once and kept): the first worker reads the file
 * and starts scoring; the others are started only when the scoring left is estimated to take longer than the first
 * worker took to start and read the file, i.e. when they can still help. Every worker parses the whole file, and on
 * a small machine N parses at once are much slower than one (2 cores: ~2.6–3.5 s against ~1.5–2 s for 100,000
 * rollouts), while a cheap reward scores them all in ~100 ms; a slow reward still gets every core.
 *
 * Python rewards (Pyodide, see worker.ts): the watch slot holds the first row of the call now running and a second
 * slot its row count; a call gets the limit × its rows. Past that, the watchdog stores 2 in the worker's interrupt
 * slot (Pyodide raises KeyboardInterrupt in the reward, runPython reports the call's rows TimedOut and the worker goes
 * on, no reload); only when the call is still running max(1000 ms, limit) later (C code that does not check for
 * signals, a bare `except:` that swallows the interrupt) is the worker terminated and replaced, as for JavaScript,
 * with every row of the call timed out. Tasks are whole multiples of the batch size, so the batches a function sees
 * do not depend on how the rows were split among workers.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { interruptOverrun, type InterruptState } from '../core/python/interruptCall';
import { RowStatus } from '../core/reward/contract';
import type { RangeResult, RowError } from '../core/reward/runRows';
import {
  WATCH_COMPILING,
  WATCH_COUNT,
  WATCH_IDLE,
  WATCH_INTERRUPT,
  WATCH_ROW,
  WATCH_SLOTS,
  type DatasetMeta,
  type FromWorker,
  type PythonFunctionInfo,
  type WorkerSetup,
} from './protocol';

export interface PoolResult {
  scores: Float64Array;
  status: Uint8Array;
  errors: Map<number, RowError>;
  meta: DatasetMeta;
  elapsedMs: number;
  /** Worker threads that took part (the pool grows only when more can help; see above). */
  workersUsed: number;
}

export type PoolOutcome =
  | { kind: 'done'; result: PoolResult }
  | { kind: 'compile-error'; message: string; line?: number }
  | { kind: 'load-failed'; message: string }
  | { kind: 'failed'; message: string };

export interface PoolOptions {
  /** The built CLI bundle, which is also the worker's entry (it checks `workerData.role`). */
  workerUrl: URL;
  setup: Omit<WorkerSetup, 'watch' | 'sendMeta'>;
  size?: number;
  timeLimitMs: number;
  /** Python print() output of the reward (default: process.stderr). */
  onOutput?: (text: string) => void;
  /** Python: the function the first worker chose, the other candidates, and the module's top-level output. */
  onPythonReward?: (m: { chosen: PythonFunctionInfo; others: PythonFunctionInfo[]; stdout: string }) => void;
}

interface Task {
  id: number;
  start: number;
  end: number;
}

interface Slot {
  worker: Worker;
  watch: Int32Array;
  /** The watch's interrupt slot, as the worker hands it to Pyodide's setInterruptBuffer. */
  interruptFlag: Int32Array;
  seen: { value: number; at: number };
  /** Python: the KeyboardInterrupt the watchdog sent the call now running (the one seen in `seen`), else null. */
  interrupt: InterruptState | null;
  tasks: Task[];
  /** Set when the pool itself terminates the worker (its exit is then expected). */
  retired: boolean;
  /** The worker has read the file: tasks are sent only then, so none wait in a worker that is still loading. */
  ready: boolean;
}

const DEPTH = 8;

export function defaultPoolSize(): number {
  return Math.max(2, availableParallelism());
}

/** Score every row of the file; resolves once, after every worker has been told to stop. */
export function runPool(opts: PoolOptions): Promise<PoolOutcome> {
  const size = opts.size ?? defaultPoolSize();
  const limit = opts.timeLimitMs;
  // Compiling (sucrase in a cold thread) and the module's top-level code get at least 10 s, whatever the row limit.
  const compileLimit = Math.max(limit, 10_000);
  const python = opts.setup.python;
  // How long an interrupted Python call may take to end before its worker is terminated.
  const interruptGrace = Math.max(1000, limit);
  const output = opts.onOutput ?? ((text: string) => void process.stderr.write(text));
  const t0 = performance.now();
  let nextTask = 1;
  let finished = false;
  let meta: DatasetMeta | null = null;
  let scores: Float64Array | null = null;
  let status: Uint8Array | null = null;
  const errors = new Map<number, RowError>();
  const queue: Task[] = [];
  let remaining = 0;
  let resolve!: (o: PoolOutcome) => void;
  const done = new Promise<PoolOutcome>((r) => (resolve = r));
  const slots: Slot[] = [];
  /** When the first worker's meta arrived (its scoring started), and how long starting it and reading the file took. */
  let scoringSince = 0;
  let startupMs = 0;
  let grown = false;

  const finish = (o: PoolOutcome) => {
    if (finished) return;
    finished = true;
    clearInterval(watchdog);
    for (const s of slots) {
      s.retired = true;
      void s.worker.terminate();
    }
    resolve(o);
  };

  const spawn = (sendMeta: boolean): Slot => {
    const buf = new SharedArrayBuffer(4 * WATCH_SLOTS);
    const watch = new Int32Array(buf);
    Atomics.store(watch, WATCH_ROW, WATCH_IDLE);
    Atomics.store(watch, WATCH_COUNT, 1);
    const setup: WorkerSetup = { ...opts.setup, watch: buf, sendMeta };
    // The reward's console.log goes to stderr: stdout carries only the report (exactly one JSON object with --json).
    const worker = new Worker(opts.workerUrl, { workerData: setup, stdout: true });
    worker.stdout.pipe(process.stderr, { end: false });
    const slot: Slot = { worker, watch, interruptFlag: new Int32Array(buf, WATCH_INTERRUPT * 4, 1), seen: { value: WATCH_IDLE, at: 0 }, interrupt: null, tasks: [], retired: false, ready: false };
    worker.on('message', (m: FromWorker) => onMessage(slot, m));
    worker.on('error', (e) => onDeath(slot, e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
    worker.on('exit', (code) => onDeath(slot, `exit code ${code}`));
    return slot;
  };

  const onMessage = (slot: Slot, m: FromWorker) => {
    if (finished || slot.retired) return;
    switch (m.kind) {
      case 'compile-error':
        return finish({ kind: 'compile-error', message: m.message, line: m.line });
      case 'load-failed':
        return finish({ kind: 'load-failed', message: m.message });
      case 'setup-failed':
        return finish({ kind: 'failed', message: m.message });
      case 'python-reward':
        return opts.onPythonReward?.(m);
      case 'meta':
        scoringSince = performance.now();
        startupMs = scoringSince - t0;
        meta = m.meta;
        scores = new Float64Array(meta.rows).fill(Number.NaN);
        status = new Uint8Array(meta.rows);
        remaining = meta.rows;
        planTasks(meta.rows);
        dispatch();
        return;
      case 'ready':
        if (meta && m.rows !== meta.rows) return finish({ kind: 'failed', message: `a reward worker read ${m.rows} rows where another read ${meta.rows}` });
        slot.ready = true;
        return dispatch();
      case 'result': {
        if (slot.tasks[0]?.id !== m.taskId) return;
        slot.tasks.shift();
        if (m.stdout) output(m.stdout);
        merge(m.result);
        grow();
        return dispatch();
      }
      case 'failed':
        return finish({ kind: 'failed', message: m.message });
    }
  };

  const merge = (r: RangeResult) => {
    scores!.set(r.scores, r.start);
    status!.set(r.status, r.start);
    for (const e of r.errors) errors.set(e.row, e);
    remaining -= r.scores.length;
  };

  const planTasks = (n: number) => {
    let taskSize = Math.max(16, Math.min(20_000, Math.ceil(n / (size * DEPTH))));
    if (python) taskSize = Math.ceil(taskSize / python.batchSize) * python.batchSize;
    for (let s = 0; s < n; s += taskSize) queue.push({ id: nextTask++, start: s, end: Math.min(n, s + taskSize) });
  };

  const dispatch = () => {
    if (finished) return;
    for (const slot of slots) {
      while (slot.ready && slot.tasks.length < DEPTH && queue.length > 0) {
        const task = queue.shift()!;
        slot.tasks.push(task);
        slot.worker.postMessage({ kind: 'run', taskId: task.id, start: task.start, end: task.end });
      }
    }
    if (meta && remaining === 0 && queue.length === 0 && slots.every((s) => s.tasks.length === 0)) {
      finish({ kind: 'done', result: { scores: scores!, status: status!, errors, meta, elapsedMs: performance.now() - t0, workersUsed: slots.length } });
    }
  };

  /**
   * Start the rest of the pool once the scoring left (estimated from the rows done so far, the rows in progress
   * read from the watch slots) would take longer than a new worker needs to start and read the file.
   */
  const grow = () => {
    if (grown || finished || !meta || slots.length >= size) return;
    const elapsed = performance.now() - scoringSince;
    // Too early to tell (the first rows also pay for compiling the reward's hot paths).
    if (elapsed < Math.min(250, startupMs / 2)) return;
    let doneRows = meta.rows - remaining;
    for (const s of slots) {
      const task = s.tasks[0];
      const row = Atomics.load(s.watch, WATCH_ROW);
      if (task && row >= task.start && row < task.end) doneRows += row - task.start;
    }
    const leftMs = doneRows > 0 ? (elapsed * (meta.rows - doneRows)) / doneRows : Infinity;
    if (leftMs <= startupMs) return;
    grown = true;
    while (slots.length < size) slots.push(spawn(false));
  };

  /**
   * Retire a worker whose call on rows [row, row + count) will not finish (count is 1 but for a batched Python
   * call); mark those rows and re-queue the rest of its tasks.
   */
  const replace = (slot: Slot, row: number, count: number, rowStatus: number, message: string) => {
    if (finished) return;
    const [task, ...waiting] = slot.tasks;
    slot.retired = true;
    void slot.worker.terminate();
    const fresh = spawn(false);
    slots[slots.indexOf(slot)] = fresh;
    const after = Math.min(task.end, row + Math.max(1, count));
    for (let r = row; r < after; r++) {
      status![r] = rowStatus;
      errors.set(r, { row: r, message });
    }
    remaining -= after - row;
    // Rows of the task before the stuck one were lost with the worker: queue them again, the rest of the task,
    // and the tasks that were waiting behind it.
    for (const w of waiting.reverse()) queue.unshift({ id: nextTask++, start: w.start, end: w.end });
    if (after < task.end) queue.unshift({ id: nextTask++, start: after, end: task.end });
    if (row > task.start) queue.unshift({ id: nextTask++, start: task.start, end: row });
    dispatch();
  };

  /** Rows of the call now running in this slot (1 for JavaScript). */
  const callRows = (slot: Slot) => (python ? Math.max(1, Atomics.load(slot.watch, WATCH_COUNT)) : 1);

  const onDeath = (slot: Slot, why: string) => {
    if (finished || slot.retired) return;
    const task = slot.tasks[0];
    const row = Atomics.load(slot.watch, WATCH_ROW);
    if (meta && task && row >= task.start && row < task.end) {
      // The reward killed its thread on this row: an error for the row, the rest goes on in a fresh worker.
      replace(slot, row, callRows(slot), RowStatus.Error, `the reward worker died on this row (${why})`);
    } else {
      slot.retired = true;
      finish({ kind: 'failed', message: `a reward worker stopped unexpectedly (${why})` });
    }
  };

  const watchdog = setInterval(
    () => {
      const now = Date.now();
      grow();
      for (const slot of slots) {
        if (finished) return;
        const value = Atomics.load(slot.watch, WATCH_ROW);
        // Row indexes are unique within a run, so the same index on two reads means the same row is still running.
        if (value !== slot.seen.value) {
          slot.seen = { value, at: now };
          slot.interrupt = null;
          continue;
        }
        if (value === WATCH_COMPILING) {
          if (now - slot.seen.at > compileLimit) finish({ kind: 'compile-error', message: `the reward module's top-level code ran for more than ${compileLimit} ms` });
          continue;
        }
        const task = slot.tasks[0];
        if (!task || value < task.start || value >= task.end) continue;
        const count = callRows(slot);
        if (now - slot.seen.at <= limit * count) continue;
        if (!python) {
          replace(slot, value, 1, RowStatus.TimedOut, `timed out after ${limit} ms`);
        } else {
          // KeyboardInterrupt at Python's next check; runPython reports the call's rows TimedOut.
          const r = interruptOverrun(slot.interrupt, slot.interruptFlag, now, interruptGrace, () => Atomics.load(slot.watch, WATCH_ROW) === value);
          slot.interrupt = r.state;
          if (r.terminate) replace(slot, value, count, RowStatus.TimedOut, `timed out after ${limit} ms`);
        }
      }
    },
    Math.max(10, Math.min(100, limit / 4)),
  );

  // The first worker also reports the per-row facts (groups, lengths, labels); tasks are planned when they arrive.
  slots.push(spawn(true));
  return done;
}
