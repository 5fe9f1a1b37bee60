/** A reward worker thread of the CLI: the same serve loop as the browser's workers, reading the file by path. */
import { constants as fsConstants, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { hardenAfter, hardenNodeRealm } from './harden';
import { lockDownNetwork } from './lockDown';
import { openFile } from './nodeFile';
import { nodeGunzip } from './nodeGunzip';
import { useGunzip } from '../core/formats/container';
import { startPyodide } from './pyodideSnapshot';
import type { NodeWorkerData } from './node';
import { jsRuntime } from './runtimes/js';
import { pythonRuntime } from './runtimes/python';
import { serve, type ServeChannel } from './serve';

export function serveNodeWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('serveNodeWorker: not in a worker thread');
  const { language } = workerData as NodeWorkerData;
  const open = openFile;
  useGunzip(nodeGunzip);
  // The engine's port arrives first; from then on the worker talks only on it.
  const portPost = MessagePort.prototype.postMessage;
  let engine: MessagePort | null = null;
  let listener: ((m: unknown) => void) | null = null;
  port.once('message', (m: { kind?: string; port?: MessagePort }) => {
    if (m?.kind !== 'connect' || !(m.port instanceof MessagePort)) return;
    engine = m.port;
    engine.on('message', (x: unknown) => listener?.(x));
  });
  const channel: ServeChannel = {
    post: (m, transfer = []) => {
      if (engine) portPost.call(engine, m, transfer as never);
    },
    listen: (on) => void (listener = on),
  };
  if (language === 'py') {
    allowFsConstants();
    // From the Pyodide snapshot the unsandboxed process made, when there is a valid one (pyodideSnapshot.ts).
    const pyodide = startPyodide((workerData as NodeWorkerData).pyodideSnapshot);
    // As in the browser: reward code gets no network APIs, so it behaves the same in both (parity, not a sandbox).
    // Its realm too, once Pyodide is loaded: Python reaches it through a JsProxy's constructor chain (harden.ts).
    const intact = hardenAfter(pyodide, () => {
      lockDownNetwork(globalThis);
      return hardenNodeRealm();
    });
    const rewrite = (m: string) =>
      m
        .replace('Python runs offline in the browser with Pyodide', 'Python runs offline in Pyodide')
        .replace('(Python runs in the browser with Pyodide, ', '(Python runs in Pyodide, ');
    // TRL's completion_ids: imported only for a function that reads them.
    const tokenIds = async (id: TokenizerId) => (await import('./nodeTokenizer')).loadTokenEncoderNode(id);
    const wheel = async (file: string) => new Uint8Array(await readFile(new URL(file, vendorPython())));
    const runtime = pythonRuntime({ pyodide, rewrite, keepRows: false, tokenIds, wheel });
    serve(channel, { ...runtime, intact }, (p) => open(p));
    return;
  }
  lockDownNetwork(globalThis);
  // As in the browser (harden.ts).
  const realm = hardenNodeRealm();
  // Imported only when asked for: the tokenizer library and its 2–11 MB of JSON.
  const runtime = jsRuntime(async (id) => (await import('./nodeTokenizer')).loadTokenCounterNode(id));
  serve(channel, { ...runtime, intact: realm.intact }, (p) => open(p));
}

/** The shipped wheels' folder: beside dist-cli/ in the built CLI (the package ships it), ../../ from src/engine. */
function vendorPython(): URL {
  const near = new URL('../vendor/python/', import.meta.url);
  const far = new URL('../../vendor/python/', import.meta.url);
  return existsSync(new URL('manifest.json', near)) ? near : far;
}

/**
 * Under Node's permission model (the CLI's default) `process.binding` throws, and Pyodide's file system reads its
 * `constants` (O_APPEND …) through it when it starts: those, and only those, are answered.
 */
function allowFsConstants(): void {
  const p = process as unknown as { binding(name: string): unknown; permission?: unknown };
  if (p.permission === undefined) return;
  const binding = p.binding.bind(process);
  p.binding = (name: string) => (name === 'constants' ? { fs: fsConstants } : binding(name));
}
