/// <reference lib="webworker" />
import type { PyodideAPI } from 'pyodide';
import { preparePython, PythonLoadError, runPython } from '../src/core/python/runPython';
import { findRewardFunctions } from '../src/core/python/signatures';
import { lockDownNetwork } from '../src/runtime/lockDown';
import { watchViews, type RewardReply, type RewardRequest } from '../src/runtime/rewardProtocol';
import { WorkerRows } from '../src/runtime/workerRows';

/**
 * A Python reward worker: one Pyodide interpreter, loaded from the app's own /pyodide/ folder (no CDN) when the
 * worker starts, i.e. the first time Python runs. Same protocol as the TypeScript worker, plus `scan`.
 */
declare const self: DedicatedWorkerGlobalScope;

const base = new URL(`${import.meta.env.BASE_URL}pyodide/`, self.location.href).href;
// Pyodide fetches its wasm, standard library and lock file with the global fetch: load it before the lock-down.
const pyodide: Promise<PyodideAPI> = (async () => {
  const { loadPyodide } = (await import(/* @vite-ignore */ `${base}pyodide.mjs`)) as typeof import('pyodide');
  return loadPyodide({ indexURL: base, jsglobals: {}, stdout: () => {}, stderr: () => {} });
})();
let ready = false;
void pyodide.then(
  () => {
    ready = true;
    lockDownNetwork(self);
  },
  () => lockDownNetwork(self),
);

let watch: ReturnType<typeof watchViews> | null = null;
const data = new WorkerRows();
const post = (m: RewardReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);
const rowAt = (i: number) => data.rows[i];

async function interpreter(): Promise<PyodideAPI> {
  const py = await pyodide;
  if (watch) py.setInterruptBuffer(watch.interrupt);
  return py;
}

/**
 * Tasks, and the idle work after a run, one after another in the order they came (the pool matches replies to its
 * tasks in that order).
 */
let tasks: Promise<void> = Promise.resolve();
const fail = (taskId: number, e: unknown) => post({ kind: 'failed', taskId, message: e instanceof Error ? e.message : String(e) });

self.onmessage = async (ev: MessageEvent<RewardRequest>) => {
  const m = ev.data;
  if (m.kind === 'init') {
    watch = m.watch ? watchViews(m.watch) : null;
  } else if (m.kind === 'load') {
    try {
      await Promise.all([data.load(m), interpreter()]);
      post({ kind: 'loaded', datasetId: data.datasetId, rows: data.size });
    } catch (e) {
      post({ kind: 'load-failed', datasetId: m.datasetId, message: ready ? (e instanceof Error ? e.message : String(e)) : `Python could not start: ${e instanceof Error ? e.message : String(e)}` });
    }
  } else if (m.kind === 'scan') {
    try {
      post({ kind: 'scanned', reqId: m.reqId, scan: findRewardFunctions(await interpreter(), m.code) });
    } catch (e) {
      post({ kind: 'scanned', reqId: m.reqId, scan: { ok: false, message: e instanceof Error ? e.message : String(e) } });
    }
  } else if (m.kind === 'idle') {
    // Only an optimisation: a failure here leaves the next run to read its rows and make its copies itself.
    tasks = tasks.then(async () => {
      if (ready) {
        try {
          preparePython(await pyodide);
        } catch {
          /* see above */
        }
      }
      // The rows of its block it does not hold yet.
      await data.ensure(...m.block).catch(() => undefined);
    });
  } else if (m.kind === 'run') {
    tasks = tasks.then(() => run(m)).catch((e: unknown) => fail(m.taskId, e));
  }
};

async function run(m: Extract<RewardRequest, { kind: 'run' }>): Promise<void> {
  if (!m.python) return post({ kind: 'failed', taskId: m.taskId, message: 'no Python function chosen' });
  const py = await interpreter();
  try {
    // The task's rows, read from the file the first time a task needs them (the last wait before the run).
    await data.ensureFor(m.datasetId, m.start, m.end);
  } catch (e) {
    return fail(m.taskId, e);
  }
  const w = watch;
  try {
    const result = runPython(py, m.code, m.python, rowAt, m.start, m.end, {
      batchSize: m.python.batchSize,
      interrupt: w?.interrupt,
      // A new array on each load: the interpreter keeps the converted rows for the next runs on this dataset.
      datasetKey: data.rows,
      models: m.models ? { columns: m.models, offset: m.start } : undefined,
      onCall: w
        ? (row, count) => {
            w.rows[0] = count;
            w.row[0] = row;
          }
        : undefined,
      beforeRetry: w ? () => Atomics.store(w.row, 0, -1) : undefined,
    });
    if (w) Atomics.store(w.row, 0, -1);
    const transfer: Transferable[] = [result.scores.buffer, result.status.buffer, ...Object.values(result.components).map((a) => a.buffer)];
    post({ kind: 'result', taskId: m.taskId, result: { start: result.start, scores: result.scores, status: result.status, errors: result.errors, components: result.components, notes: result.notes, stdout: result.stdout } }, transfer);
  } catch (e) {
    if (w) Atomics.store(w.row, 0, -1);
    if (e instanceof PythonLoadError) post({ kind: 'compile-error', taskId: m.taskId, message: e.message, line: e.line, stdout: e.stdout });
    else fail(m.taskId, e);
  }
}
