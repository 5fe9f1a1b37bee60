/**
 * Test-only Node worker (bundled by interrupt.test.ts): loads Pyodide, hands it the shared interrupt buffer, and
 * runs Python rewards with runPython, publishing the first row of each call in the shared watch slot — the way a
 * browser reward worker would. Buffer layout: Int32 0 = Pyodide's interrupt buffer, Int32 1 = row now running.
 */
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import type { Trajectory } from '../../core/trajectory';
import { runPython, type PythonRewardChoice } from '../../core/python/runPython';

export interface InterruptWorkerData {
  /** Absolute path of node_modules/pyodide/pyodide.mjs. */
  pyodideModule: string;
  buffer: SharedArrayBuffer;
}

export interface InterruptWorkerRun {
  code: string;
  choice: PythonRewardChoice;
  rows: Trajectory[];
  batchSize?: number;
  timeLimitMs: number;
}

const { pyodideModule, buffer } = workerData as InterruptWorkerData;
const interrupt = new Int32Array(buffer, 0, 1);
const watch = new Int32Array(buffer, 4, 1);
const port = parentPort!;

const t0 = performance.now();
const { loadPyodide } = (await import(pathToFileURL(pyodideModule).href)) as typeof import('pyodide');
const py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
py.setInterruptBuffer(interrupt);
port.postMessage({ kind: 'ready', loadMs: performance.now() - t0 });

port.on('message', (m: InterruptWorkerRun) => {
  const t = performance.now();
  const result = runPython(py, m.code, m.choice, (i) => m.rows[i], 0, m.rows.length, {
    batchSize: m.batchSize,
    interrupt,
    timeLimitMs: m.timeLimitMs,
    onCall: (row) => Atomics.store(watch, 0, row),
    beforeRetry: () => Atomics.store(watch, 0, -1),
  });
  Atomics.store(watch, 0, -1);
  const transfer = [result.scores.buffer, result.status.buffer] as ArrayBuffer[];
  port.postMessage({ kind: 'result', result, ms: performance.now() - t }, transfer);
});
