/** A reward worker thread of the CLI: the same serve loop as the browser's workers, reading the file by path. */
import { openAsBlob } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { lockDownNetwork } from './lockDown';
import type { NodeWorkerData } from './node';
import { jsRuntime } from './runtimes/js';
import { pythonRuntime } from './runtimes/python';
import { serve, type ServeChannel } from './serve';

export function serveNodeWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('serveNodeWorker: not in a worker thread');
  const { language } = workerData as NodeWorkerData;
  const open = openAsBlob;
  const channel: ServeChannel = {
    post: (m, transfer = []) => port.postMessage(m, transfer as never),
    listen: (on) => port.on('message', on),
  };
  if (language === 'py') {
    // Not bundled (bin/build-cli.mjs): Pyodide finds its wasm and standard library beside its own module.
    const pyodide = import('pyodide').then(({ loadPyodide }) => loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} }));
    // As in the browser: reward code gets no network APIs, so it behaves the same in both (parity, not a sandbox).
    const lock = () => lockDownNetwork(globalThis);
    void pyodide.then(lock, lock);
    const rewrite = (m: string) => m.replace('(Python runs in the browser with Pyodide, ', '(Python runs in Pyodide, ');
    serve(channel, pythonRuntime({ pyodide, rewrite }), (p) => open(p));
    return;
  }
  lockDownNetwork(globalThis);
  // Imported only when asked for: the tokenizer library and its 2–11 MB of JSON.
  serve(channel, jsRuntime(async (id) => (await import('./nodeTokenizer')).loadTokenCounterNode(id)), (p) => open(p));
}
