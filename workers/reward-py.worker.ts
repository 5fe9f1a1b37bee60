/// <reference lib="webworker" />
// A Python reward worker: the engine's serve loop with one Pyodide, loaded from the app's own /pyodide/ (no CDN).
import type { PyodideAPI } from 'pyodide';
import { browserChannel, forbidClose } from '../src/engine/browser';
import { hardenAfter, hardenRealm } from '../src/engine/harden';
import { lockDownNetwork } from '../src/engine/lockDown';
import { startFrom, takeSnapshot } from '../src/engine/pyodideRecipe';
import type { SnapshotMessage } from '../src/engine/pyodideShare';
import { pythonRuntime } from '../src/engine/runtimes/python';
import { serve } from '../src/engine/serve';
import { loadTokenEncoder } from '../src/worker/tokenizerLoader';

declare const self: DedicatedWorkerGlobalScope;
// Kept before the lock-down, out of reward code's reach: it fetches only the app's own tokenizer files and wheels.
const ownFetch = self.fetch.bind(self);
// The module's own URL: the worker's location is a blob: URL of the sandbox's opaque origin.
const base = new URL(`${import.meta.env.BASE_URL}pyodide/`, import.meta.url).href;
const channel = browserChannel(self);
// Pyodide fetches its wasm, standard library and lock file with the global fetch: the lock-down comes after. It
// starts from the sandbox's snapshot when given one (pyodideShare.ts); the worker asked to take it posts it before
// its Python serves anything, so no reward's code or rows can be in it.
const pyodide: Promise<PyodideAPI> = (async () => {
  const start = await channel.started;
  const { loadPyodide } = (await import(/* @vite-ignore */ `${base}pyodide.mjs`)) as typeof import('pyodide');
  const quiet = { indexURL: base, jsglobals: {}, stdout: () => {}, stderr: () => {} };
  if (!start.makeSnapshot) return startFrom(loadPyodide, quiet, start.pyodideSnapshot);
  // Not a message of the engine's protocol: the sandbox takes it before the engine sees anything.
  const post = channel.post as unknown as (m: SnapshotMessage, transfer?: Transferable[]) => void;
  let py: PyodideAPI;
  try {
    py = await loadPyodide({ ...quiet, _makeSnapshot: true });
  } catch (e) {
    post({ kind: 'pyodide-snapshot', bytes: null });
    throw e;
  }
  let bytes: Uint8Array | null = null;
  try {
    bytes = takeSnapshot(py);
  } catch {
    // Serves without one: later workers start the usual way.
  }
  post({ kind: 'pyodide-snapshot', bytes }, bytes ? [bytes.buffer] : []);
  return py;
})();
// The shipped wheels (sympy, mpmath) are fetched when a reward first imports them, after the lock-down: this one
// fetch, kept here out of Python's reach, can only read the app's own /pyodide/packages/ files by name.
const wheel = async (file: string) => {
  const r = await ownFetch(new URL(`packages/${encodeURIComponent(file)}`, base));
  if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
  return new Uint8Array(await r.arrayBuffer());
};
forbidClose(self);
// Once Pyodide is loaded, its worker's realm is frozen as a TypeScript worker's is (harden.ts): Python reaches it
// through a JsProxy's constructor chain.
const intact = hardenAfter(pyodide, () => {
  lockDownNetwork(self);
  return hardenRealm(self);
});
const runtime = pythonRuntime({ pyodide, wheel, tokenIds: (id) => loadTokenEncoder(id, ownFetch) });
serve(channel, { ...runtime, intact });
