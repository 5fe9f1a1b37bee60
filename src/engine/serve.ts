/**
 * The worker side of the engine, for both languages and both platforms: reads the dataset, runs tasks one after
 * another in the order they came (the engine matches replies to tasks in that order), and answers checks.
 */
import { datasetMeta, type DatasetMeta } from '../core/dataset/meta';
import type { RangeResult } from '../core/reward/runRows';
import type { RewardCandidate } from '../core/python/signatures';
import { checkToWorker, type CheckResult, type FromWorker, type PythonCall, type RunTask } from './protocol';
import { WATCH_IDLE, watchOf, type Watch } from './watch';
import { probeRows, subsetRows, type RowSource } from './probeRows';
import { WorkerRows } from './workerRows';
import { REALM_CHANGED } from './harden';

/** What a language runtime answers for one task. */
export type TaskOutcome =
  | { kind: 'result'; result: RangeResult; stdout?: string; moduleStdout?: string; found?: RewardCandidate[] }
  | { kind: 'compile-error'; message: string; line?: number; stdout?: string }
  | { kind: 'failed'; message: string };

/** A reward language inside a worker: TypeScript (runtimes/js.ts) or Python (runtimes/python.ts). */
export interface Runtime {
  /** Start-up work a load waits for (Python: the interpreter). */
  ready: Promise<unknown>;
  check(code: string, watch: Watch | null): Promise<CheckResult> | CheckResult;
  run(task: RunTask, rows: RowSource, watch: Watch | null): Promise<TaskOutcome> | TaskOutcome;
  /** Between runs: get the next run's inputs ready. */
  idle?(): void;
  /**
   * A spare's idle work (engine.ts `oneCodePerWorker`): convert rows [start, end), read, for `python` as the last run
   * called it, and keep them for the next run (Python).
   */
  hold?(rows: RowSource, start: number, end: number, python: PythonCall): Promise<void>;
  /** What to say when `ready` failed. */
  notReady?(e: unknown): string;
  /** False once reward code changed what the worker's realm left unfrozen (harden.ts): the task fails, and so the run. */
  intact?(): boolean;
}

/** The worker's end of its channel to the engine. */
export interface ServeChannel {
  post(m: FromWorker, transfer?: Transferable[]): void;
  listen(on: (m: unknown) => void): void;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Rows the idle work after a run reads before it looks whether a run has come (and then gives way to it). */
const IDLE_STEP_ROWS = 8192;

/** `sizes`: smaller reads and idle steps, for tests. */
export function serve(
  ch: ServeChannel,
  runtime: Runtime,
  openPath?: (path: string) => Promise<Blob>,
  sizes?: { readBytes: number; idleStepRows: number },
): void {
  let watch: Watch | null = null;
  const rows = new WorkerRows(sizes?.readBytes);
  const idleStep = sizes?.idleStepRows ?? IDLE_STEP_ROWS;
  // Tasks and the idle work after a run, one after another.
  let tasks: Promise<void> = Promise.resolve();
  const queue = (f: () => Promise<void> | void) => (tasks = tasks.then(f).catch(() => undefined));
  /** Runs received and not started: the idle work gives way to them. */
  let runsWaiting = 0;

  const run = async (m: RunTask) => {
    let out: TaskOutcome;
    try {
      // The task's rows, read from the file the first time a task needs them (a probe task: its rows, probed).
      let source: RowSource = rows;
      if (m.probe) source = await probeRows(rows, m.datasetId, m.start, m.probe);
      else if (m.rows) source = await subsetRows(rows, m.datasetId, m.start, m.rows);
      else await rows.ensureFor(m.datasetId, m.start, m.end);
      // Before (a timer left by an earlier run) and after (this task's own code): a task that met a changed realm fails.
      out = runtime.intact?.() === false ? { kind: 'failed', message: REALM_CHANGED } : await runtime.run(m, source, watch);
      if (runtime.intact?.() === false) out = { kind: 'failed', message: REALM_CHANGED };
    } catch (e) {
      out = { kind: 'failed', message: messageOf(e) };
    }
    if (watch) Atomics.store(watch.row, 0, WATCH_IDLE);
    // A lean dataset (the CLI's one run over a large file) keeps no rows between tasks.
    rows.letGo();
    if (out.kind !== 'result') return ch.post({ taskId: m.taskId, ...out });
    const r = out.result;
    const transfer = [
      r.scores.buffer,
      r.status.buffer,
      ...Object.values(r.components).map((a) => a.buffer),
      ...(r.steps ? [r.steps.offsets.buffer, r.steps.values.buffer] : []),
    ] as ArrayBuffer[];
    ch.post(
      {
        kind: 'result',
        taskId: m.taskId,
        result: r,
        stdout: out.stdout || undefined,
        moduleStdout: out.moduleStdout || undefined,
        found: out.found?.length ? out.found : undefined,
      },
      transfer,
    );
  };

  ch.listen(async (raw) => {
    const c = checkToWorker(raw);
    if (!c.ok) return console.warn(`reward worker: dropped a malformed message (${c.error})`);
    const m = c.value;
    switch (m.kind) {
      case 'init':
        watch = m.watch ? watchOf(m.watch) : null;
        return;
      case 'ping':
        return ch.post({ kind: 'pong', id: m.id });
      case 'piece': {
        // Read at once by every worker, each its own piece; answered with the piece's facts and line index.
        if (!openPath) return ch.post({ kind: 'piece-failed', datasetId: m.datasetId, message: 'no way to read a file by path in this worker' });
        let read: Awaited<ReturnType<WorkerRows['readPiece']>>;
        try {
          read = await rows.readPiece(m, openPath);
        } catch (e) {
          return ch.post({ kind: 'piece-failed', datasetId: m.datasetId, message: messageOf(e) });
        }
        const { meta, index } = read;
        return ch.post({ kind: 'piece-read', datasetId: m.datasetId, meta, index }, [...metaBuffers(meta), index.spans.buffer, index.lines.buffer]);
      }
      case 'load': {
        // The file is read while the runtime starts (Pyodide takes seconds).
        const reading = rows.load(m.file, openPath).then(
          () => null,
          (e: unknown) => messageOf(e),
        );
        let failure: string | null;
        try {
          await runtime.ready;
          failure = await reading;
        } catch (e) {
          await reading;
          failure = runtime.notReady?.(e) ?? messageOf(e);
        }
        if (failure !== null) return ch.post({ kind: 'load-failed', datasetId: m.file.datasetId, message: failure });
        if (m.meta && rows.found) {
          const meta = datasetMeta(rows.rows, rows.found.issues, rows.found.detection, m.meta.label, m.meta.groupBy ?? null);
          return ch.post({ kind: 'loaded', datasetId: rows.datasetId, rows: rows.size, meta }, metaBuffers(meta));
        }
        return ch.post({ kind: 'loaded', datasetId: rows.datasetId, rows: rows.size });
      }
      case 'check': {
        let result: CheckResult;
        try {
          await runtime.ready;
          result = await runtime.check(m.code, watch);
        } catch (e) {
          result = { ok: false, message: runtime.notReady?.(e) ?? messageOf(e) };
        }
        if (watch) Atomics.store(watch.row, 0, WATCH_IDLE);
        return ch.post({ kind: 'checked', reqId: m.reqId, result });
      }
      case 'idle':
        // Only an optimisation: a failure leaves the next run to read its rows and make its copies itself.
        return void queue(async () => {
          try {
            runtime.idle?.();
          } catch {
            /* see above */
          }
          // In steps, stopping for a run that came meanwhile: its tasks read the rows they need, and an edit soon after
          // a run does not wait for all the tails (at a million chat rows, its first edit run took 1.3–2.2 s).
          const inSteps = async ([a, b]: [number, number], step: (i: number, j: number) => Promise<unknown>) => {
            for (let i = a; i < b && runsWaiting === 0; i += idleStep) await step(i, Math.min(b, i + idleStep));
          };
          for (const range of [m.block, ...(m.tails ?? [])]) await inSteps(range, (i, j) => rows.ensure(i, j));
          const { python } = m;
          if (python && runtime.hold) await inSteps(m.block, async (i, j) => runtime.hold?.(rows, i, j, python));
        });
      case 'run':
        runsWaiting++;
        return void queue(() => {
          runsWaiting--;
          return run(m);
        });
    }
  });
}

/** The typed arrays of a dataset's facts, moved (not copied) to the engine. */
function metaBuffers(meta: DatasetMeta): ArrayBuffer[] {
  const arrays = [meta.groupOf, meta.lengths, meta.steps, meta.truncated, meta.labels, meta.groupBy?.codes];
  return arrays.filter((a) => a !== null && a !== undefined).map((a) => a.buffer as ArrayBuffer);
}
