/** The engine on browser Workers: the engine side (a WorkerPort per Worker) and the worker side (a ServeChannel). */
import type { WorkerPort } from './engine';
import type { ServeChannel } from './serve';

/** One worker per core, at least 2; `?workers=N` in the page address sets it (1–32), e.g. for a benchmark. */
export function defaultPoolSize(): number {
  const asked = typeof location !== 'undefined' ? Number(new URLSearchParams(location.search).get('workers')) : NaN;
  if (Number.isInteger(asked) && asked >= 1 && asked <= 32) return asked;
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(2, cores);
}

export function browserWorkerPort(worker: Worker): WorkerPort {
  const port: WorkerPort = {
    post: (m, transfer = []) => worker.postMessage(m, transfer),
    onMessage: null,
    onExit: null,
    terminate: () => worker.terminate(),
  };
  worker.onmessage = (ev) => port.onMessage?.(ev.data);
  // The serve loop catches what reward code throws: an error event means the worker itself failed.
  worker.onerror = (ev) => {
    ev.preventDefault();
    port.onExit?.(ev.message || 'the worker failed');
  };
  worker.onmessageerror = () => port.onMessage?.({ kind: 'unreadable' });
  return port;
}

export function browserChannel(scope: DedicatedWorkerGlobalScope): ServeChannel {
  const post = scope.postMessage.bind(scope);
  return {
    post: (m, transfer = []) => post(m, transfer),
    listen: (on) => scope.addEventListener('message', (ev) => on(ev.data)),
  };
}
