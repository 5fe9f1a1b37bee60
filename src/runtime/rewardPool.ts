import type { Dataset } from '../core/dataset/dataset';
import { interruptOverrun, type InterruptState } from '../core/python/interruptCall';
import { RowStatus } from '../core/reward/contract';
import type { RangeResult, RowError } from '../core/reward/runRows';
import type { SignatureScan } from '../core/python/signatures';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { DEPTH, TaskQueue, type Task } from './taskQueue';
import { WATCH_BYTES, watchViews, type PythonCall, type RewardReply, type RewardRequest } from './rewardProtocol';

/** The typed-array results of one run over a dataset. */
export interface RunResult {
  scores: Float64Array;
  status: Uint8Array;
  errors: Map<number, RowError>;
  components: Record<string, Float64Array>;
  notes: Map<number, string>;
  /** Python `print()` output of the run, in row order (empty for TypeScript). */
  stdout: string;
}

export type RunOutcome =
  | { kind: 'done'; result: RunResult; elapsedMs: number }
  | { kind: 'cancelled'; result: RunResult; elapsedMs: number }
  | { kind: 'compile-error'; message: string; line?: number }
  | { kind: 'failed'; message: string };

export interface RunProgress {
  done: number;
  total: number;
  rowsPerSecond: number;
}

export interface RunOptions {
  /** Per-row time limit in ms (default 1000). */
  timeLimitMs?: number;
  /** Load this tokenizer in the workers before running (the code calls `ctx.tokenCount`). */
  tokenizer?: TokenizerId;
  /** Python pools: the function to call and how. */
  python?: PythonCall;
  /** Reward-model score columns (whole dataset) by model name: each task gets its rows' slice, for `ctx.models`. */
  models?: Record<string, Float64Array>;
  onProgress?: (p: RunProgress) => void;
}

export interface RunHandle {
  done: Promise<RunOutcome>;
  cancel(): void;
}

interface Slot {
  worker: Worker;
  watch: ReturnType<typeof watchViews> | null;
  /** The row index the watchdog last read from `watch`, and when it first read it (Date.now). */
  seen: { row: number; at: number };
  /** The KeyboardInterrupt the watchdog sent this worker's Python call on the row in `seen` (null: none yet). */
  interrupt: InterruptState | null;
  /** The dataset this worker has read (or is reading), and when it is ready. */
  datasetId: string | null;
  ready: Promise<string | null>;
  onLoaded: ((m: RewardReply) => void) | null;
  /**
   * Tasks sent to this worker, oldest first: the one running and up to DEPTH - 1 more, already queued in the worker
   * so it never waits for the main thread between tasks.
   */
  tasks: Task[];
  onReply: ((m: RewardReply) => void) | null;
}

/** One worker per core, at least 2; `?workers=N` in the page address sets it (1–32), e.g. to compare in a benchmark. */
export function defaultPoolSize(): number {
  const asked = typeof location !== 'undefined' ? Number(new URLSearchParams(location.search).get('workers')) : NaN;
  if (Number.isInteger(asked) && asked >= 1 && asked <= 32) return asked;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(2, cores);
}

/**
 * One reward worker per core. Each worker reads the dataset's file itself (no rows pass through the main thread);
 * rows are split into tasks handed to idle workers. A watchdog reads each worker's shared watch slot and, when a
 * row runs past the time limit, terminates that worker, marks the row timed out, starts a replacement and
 * re-queues the rest of the task. Reward code never runs on the main thread.
 */
export class RewardPool {
  private slots: Slot[] = [];
  private dataset: Dataset | null = null;
  private current: { cancel(): void } | null = null;

  private scans = new Map<number, (s: SignatureScan) => void>();
  private nextScan = 1;

  constructor(
    readonly size: number = defaultPoolSize(),
    private readonly makeWorker: () => Worker = () => new Worker(new URL('../../workers/reward-js.worker.ts', import.meta.url), { type: 'module', name: 'reward-js' }),
    /** Python workers: a stuck call is first interrupted (KeyboardInterrupt), the worker replaced only if that fails. */
    readonly interruptible = false,
  ) {}

  /** Python pools: the reward functions `code` defines (parsed by the first worker, not run). */
  scan(code: string): Promise<SignatureScan> {
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    const reqId = this.nextScan++;
    return new Promise((resolve) => {
      this.scans.set(reqId, (r) => {
        this.scans.delete(reqId);
        resolve(r);
      });
      this.send(this.slots[0], { kind: 'scan', reqId, code });
    });
  }

  /**
   * Use this dataset from now on. With `load` (the default) the workers start reading it at once, before the first
   * run; without, each reads it when a run first needs it.
   */
  setDataset(ds: Dataset, load = true): void {
    this.dataset = ds;
    if (!load) return;
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    for (const s of this.slots) void this.ensureData(s, ds);
  }

  private spawn(): Slot {
    const worker = this.makeWorker();
    const buf = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated ? new SharedArrayBuffer(WATCH_BYTES) : null;
    const slot: Slot = { worker, watch: buf ? watchViews(buf) : null, datasetId: null, ready: Promise.resolve(null), onLoaded: null, tasks: [], onReply: null, seen: { row: -1, at: 0 }, interrupt: null };
    if (slot.watch) Atomics.store(slot.watch.row, 0, -1);
    worker.onmessage = (ev: MessageEvent<RewardReply>) => {
      const m = ev.data;
      if (m.kind === 'scanned') this.scans.get(m.reqId)?.(m.scan);
      else if (m.kind === 'loaded' || m.kind === 'load-failed') slot.onLoaded?.(m);
      else slot.onReply?.(m);
    };
    this.send(slot, { kind: 'init', watch: buf });
    return slot;
  }

  private send(slot: Slot, m: RewardRequest): void {
    slot.worker.postMessage(m);
  }

  /** Have the worker read the dataset once; resolves to null when ready, else the reason it failed. */
  private ensureData(slot: Slot, ds: Dataset): Promise<string | null> {
    if (slot.datasetId === ds.id) return slot.ready;
    slot.datasetId = ds.id;
    slot.ready = new Promise((resolve) => {
      slot.onLoaded = (m) => {
        if (m.kind === 'loaded' && m.datasetId === ds.id) resolve(null);
        else if (m.kind === 'load-failed' && m.datasetId === ds.id) resolve(m.message);
      };
    });
    // A plain JSONL file goes with where each row's line is: a worker then reads only the rows its tasks need.
    const index = ds.spans ? { spans: ds.spans, lines: ds.lines } : undefined;
    this.send(slot, { kind: 'load', datasetId: ds.id, blob: ds.blob, name: ds.name, format: ds.detection.format, mapping: ds.mapping, index });
    return slot.ready;
  }

  /** Run `code` on every row. A new run cancels the one in flight (the latest request wins). */
  run(code: string, opts: RunOptions = {}): RunHandle {
    this.current?.cancel();
    const ds = this.dataset;
    if (!ds) throw new Error('no dataset loaded');
    const limit = opts.timeLimitMs ?? 1000;
    const n = ds.size;
    const result: RunResult = {
      scores: new Float64Array(n).fill(Number.NaN),
      status: new Uint8Array(n),
      errors: new Map(),
      components: {},
      notes: new Map(),
      stdout: '',
    };
    const outputs: { start: number; text: string }[] = [];
    while (this.slots.length < this.size) this.slots.push(this.spawn());
    const queue = new TaskQueue(n, this.size);
    const t0 = performance.now();
    let doneRows = 0;
    let finished = false;
    let resolve!: (o: RunOutcome) => void;
    const done = new Promise<RunOutcome>((r) => (resolve = r));

    const finish = (o: RunOutcome) => {
      if (finished) return;
      finished = true;
      // Python output in row order, at most 200,000 characters.
      const out = outputs.sort((a, b) => a.start - b.start).map((x) => x.text).join('');
      result.stdout = out.length > 200_000 ? `${out.slice(0, 200_000)}\n… (output cut at 200,000 characters)` : out;
      clearInterval(watchdog);
      // After a compile error or a failed load the other workers answer at once and their replies are ignored:
      // they are free for the next run. (Cancel terminates busy workers before it gets here.)
      this.slots.forEach((s, k) => {
        s.onReply = null;
        s.tasks = [];
        if (o.kind === 'done') this.send(s, { kind: 'idle', block: TaskQueue.blockOf(k, n, this.size) });
      });
      if (this.current === handle) this.current = null;
      resolve(o);
    };
    const progress = () => {
      const secs = (performance.now() - t0) / 1000;
      opts.onProgress?.({ done: doneRows, total: n, rowsPerSecond: secs > 0 ? doneRows / secs : 0 });
    };
    const merge = (r: RangeResult & { stdout?: string }) => {
      result.scores.set(r.scores, r.start);
      result.status.set(r.status, r.start);
      for (const e of r.errors) result.errors.set(e.row, e);
      for (const note of r.notes) result.notes.set(note.row, note.note);
      if ('stdout' in r && typeof r.stdout === 'string' && r.stdout) outputs.push({ start: r.start, text: r.stdout });
      for (const [k, arr] of Object.entries(r.components)) {
        (result.components[k] ??= new Float64Array(n).fill(Number.NaN)).set(arr, r.start);
      }
      doneRows += r.scores.length;
    };
    const listen = (slot: Slot) => {
      slot.onReply = (m) => {
        if (finished || !('taskId' in m) || slot.tasks[0]?.id !== m.taskId) return;
        slot.tasks.shift();
        if (m.kind === 'compile-error') return finish({ kind: 'compile-error', message: m.message, line: m.line });
        if (m.kind === 'failed') return finish({ kind: 'failed', message: m.message });
        if (m.kind === 'result') merge(m.result);
        progress();
        dispatch();
      };
    };
    const dispatch = () => {
      // One task per worker per pass, so the first (largest) tasks go to every worker alike.
      for (let pass = 0; pass < DEPTH && !queue.empty; pass++) {
        for (let k = 0; k < this.slots.length; k++) {
          const slot = this.slots[k];
          if (slot.tasks.length >= DEPTH || queue.empty) continue;
          // By slot index: a replaced worker's successor takes over its block.
          const task = queue.take(k);
          slot.tasks.push(task);
          void this.ensureData(slot, ds).then((failure) => {
            if (finished || !slot.tasks.includes(task)) return;
            if (failure) return finish({ kind: 'failed', message: `a reward worker could not read ${ds.name}: ${failure}` });
            const models = opts.models && Object.keys(opts.models).length ? Object.fromEntries(Object.entries(opts.models).map(([k, col]) => [k, col.slice(task.start, task.end)])) : undefined;
            this.send(slot, { kind: 'run', taskId: task.id, datasetId: ds.id, code, start: task.start, end: task.end, tokenizer: opts.tokenizer, python: opts.python, models });
          });
        }
      }
      if (queue.empty && this.slots.every((s) => s.tasks.length === 0)) finish({ kind: 'done', result, elapsedMs: performance.now() - t0 });
    };
    const replace = (slot: Slot, stuckRow: number) => {
      const [task, ...waiting] = slot.tasks;
      slot.worker.terminate();
      const fresh = this.spawn();
      this.slots[this.slots.indexOf(slot)] = fresh;
      listen(fresh);
      result.status[stuckRow] = RowStatus.TimedOut;
      result.errors.set(stuckRow, { row: stuckRow, message: `timed out after ${limit} ms` });
      doneRows += 1;
      // Rows of the task before the stuck one were lost with the worker: queue them again, the rest of the task,
      // and the tasks that were waiting behind it, ahead of the rows not handed out yet.
      for (const w of waiting.reverse()) queue.giveBack(w.start, w.end);
      queue.giveBack(stuckRow + 1, task.end);
      queue.giveBack(task.start, stuckRow);
      progress();
      dispatch();
    };
    const watchdog = setInterval(
      () => {
        const now = Date.now();
        for (const slot of this.slots) {
          const task = slot.tasks[0];
          if (!task || !slot.watch) continue;
          const row = Atomics.load(slot.watch.row, 0);
          // Row indexes are unique within a run, so the same index on two reads means the same row is still running.
          if (row !== slot.seen.row) {
            slot.seen = { row, at: now };
            slot.interrupt = null;
            continue;
          }
          if (row < task.start || row >= task.end) continue;
          // A batched Python call covers several rows: it gets the limit once per row.
          const callLimit = this.interruptible ? limit * Math.max(1, Atomics.load(slot.watch.rows, 0)) : limit;
          if (now - slot.seen.at <= callLimit) continue;
          if (!this.interruptible) {
            replace(slot, row);
            continue;
          }
          // KeyboardInterrupt at Python's next check: the call's rows come back timed out, the worker stays.
          const watch = slot.watch;
          const r = interruptOverrun(slot.interrupt, watch.interrupt, now, Math.max(1000, limit), () => Atomics.load(watch.row, 0) === row);
          slot.interrupt = r.state;
          if (r.terminate) replace(slot, row);
        }
      },
      Math.max(10, Math.min(100, limit / 4)),
    );

    const handle = {
      cancel: () => {
        if (finished) return;
        // Terminate busy workers (their rows stay Pending) and start fresh ones on the same dataset.
        for (let i = 0; i < this.slots.length; i++) {
          if (this.slots[i].tasks.length > 0) {
            this.slots[i].worker.terminate();
            this.slots[i] = this.spawn();
            void this.ensureData(this.slots[i], ds);
          }
        }
        finish({ kind: 'cancelled', result, elapsedMs: performance.now() - t0 });
      },
    };
    this.current = handle;
    for (const s of this.slots) {
      s.seen = { row: -1, at: 0 };
      listen(s);
    }
    // Hand the workers their tasks before anything else (the first progress report re-renders the page).
    dispatch();
    progress();
    return { done, cancel: handle.cancel };
  }
}
