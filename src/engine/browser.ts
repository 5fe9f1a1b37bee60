/**
 * The engine on browser Workers. Engine and worker talk on a private MessageChannel handed over before any reward
 * code runs: what reward code posts on the worker's own channel never reaches the engine as a reply.
 */
import type { WorkerPort } from './engine';
import type { ServeChannel } from './serve';

/** One worker per core, at least 2; `?workers=N` in the page address sets it (1–32), e.g. for a benchmark. */
export function defaultPoolSize(): number {
  const asked = typeof location !== 'undefined' ? Number(new URLSearchParams(location.search).get('workers')) : NaN;
  if (Number.isInteger(asked) && asked >= 1 && asked <= 32) return asked;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(2, cores);
}

/** A worker's engine side; `start`: what the worker needs before it starts (a Python worker: its Pyodide snapshot). */
export function browserWorkerPort(worker: Worker, start: WorkerStart = {}): WorkerPort {
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ kind: 'connect', start }, [port2]);
  const port: WorkerPort = {
    post: (m, transfer = []) => port1.postMessage(m, transfer),
    onMessage: null,
    onExit: null,
    onStray: null,
    terminate: () => {
      worker.terminate();
      port1.close();
    },
  };
  port1.onmessage = (ev) => port.onMessage?.(ev.data);
  port1.onmessageerror = () => port.onMessage?.({ kind: 'unreadable' });
  worker.onmessage = (ev) => port.onStray?.(ev.data);
  // The serve loop catches what reward code throws: an error event means the worker itself failed.
  worker.onerror = (ev) => {
    ev.preventDefault();
    port.onExit?.(ev.message || 'the worker failed');
  };
  return port;
}

/** Sent with the port. Python: start from `pyodideSnapshot`, or take one (`makeSnapshot`) and post it first. */
export interface WorkerStart {
  pyodideSnapshot?: Uint8Array;
  makeSnapshot?: boolean;
}

// Taken when the worker starts, before reward code could replace them.
const portPost = MessagePort.prototype.postMessage;
const portListen = EventTarget.prototype.addEventListener;
const portStart = MessagePort.prototype.start;

/**
 * The worker's end: it waits for the engine's port (the first message) and then talks only on it. Call it before
 * anything runs user code.
 */
export function browserChannel(scope: DedicatedWorkerGlobalScope): ServeChannel & { started: Promise<WorkerStart> } {
  let port: MessagePort | null = null;
  let listener: ((m: unknown) => void) | null = null;
  let started!: (s: WorkerStart) => void;
  const connect = (ev: MessageEvent) => {
    if (port || !ev.ports[0]) return;
    port = ev.ports[0];
    portListen.call(port, 'message', (e: Event) => listener?.((e as MessageEvent).data));
    portStart.call(port);
    const s = (ev.data as { start?: WorkerStart } | null)?.start;
    started({
      ...(s?.pyodideSnapshot instanceof Uint8Array ? { pyodideSnapshot: s.pyodideSnapshot } : {}),
      ...(s?.makeSnapshot === true ? { makeSnapshot: true } : {}),
    });
  };
  portListen.call(scope, 'message', connect as EventListener);
  return {
    post: (m, transfer = []) => {
      if (port) portPost.call(port, m, { transfer });
    },
    listen: (on) => void (listener = on),
    started: new Promise<WorkerStart>((r) => (started = r)),
  };
}

/** Reward code may not stop its own worker: `close()` throws instead (the engine also notices a worker gone quiet). */
export function forbidClose(scope: DedicatedWorkerGlobalScope): void {
  const refuse = () => {
    throw new Error('close() is not available in reward code');
  };
  for (let o: object | null = scope; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    if (Object.hasOwn(o, 'close')) Object.defineProperty(o, 'close', { value: refuse, writable: false, configurable: false });
  }
}
