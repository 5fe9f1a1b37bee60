/** The engine on Node worker_threads (the CLI): the engine side. The worker side is nodeWorker.ts. */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { WorkerPort } from './engine';
import type { PyodideSnapshotRef } from './pyodideSnapshot';

/** `workerData` of a reward worker thread: the CLI's one bundle is both the command and the worker. */
export interface NodeWorkerData {
  role: typeof NODE_WORKER_ROLE;
  language: 'ts' | 'py';
  /** Python: a Pyodide snapshot to start from, checked by the worker before use (pyodideSnapshot.ts). */
  pyodideSnapshot?: PyodideSnapshotRef;
}
export const NODE_WORKER_ROLE = 'reward-studio-engine-worker';

export function defaultPoolSize(): number {
  return Math.max(2, availableParallelism());
}

/** A worker thread running `url` (which serves when it sees NODE_WORKER_ROLE); its console goes to `log`. */
export function nodeWorkerPort(
  url: URL,
  language: 'ts' | 'py',
  heapMb: number,
  log: NodeJS.WritableStream = process.stderr,
  pyodideSnapshot?: PyodideSnapshotRef | null,
): WorkerPort {
  const data: NodeWorkerData = { role: NODE_WORKER_ROLE, language, ...(pyodideSnapshot ? { pyodideSnapshot } : {}) };
  // The reward's console.log goes to stderr: stdout carries only the report. A heap limit of its own makes a worker
  // that runs out of memory stop alone (without one, V8 ends the whole process).
  const worker = new Worker(url, { workerData: data, stdout: true, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  worker.stdout.pipe(log, { end: false });
  // A private channel, as in the browser: reward code cannot post replies of its own.
  const { port1, port2 } = new MessageChannel();
  worker.postMessage({ kind: 'connect', port: port2 }, [port2]);
  const port: WorkerPort = {
    post: (m, transfer = []) => port1.postMessage(m, transfer as never),
    onMessage: null,
    onExit: null,
    onStray: null,
    terminate: () => {
      port1.close();
      void worker.terminate();
    },
  };
  port1.on('message', (m: unknown) => port.onMessage?.(m));
  port1.on('messageerror', () => port.onMessage?.({ kind: 'unreadable' }));
  worker.on('message', (m: unknown) => port.onStray?.(m));
  worker.on('error', (e) => {
    const code = (e as { code?: string }).code;
    port.onExit?.(
      code === 'ERR_WORKER_OUT_OF_MEMORY' ? `out of memory: past its ${heapMb} MB heap` : e instanceof Error ? `${e.name}: ${e.message}` : String(e),
    );
  });
  worker.on('exit', (code) => port.onExit?.(`exit code ${code}`));
  return port;
}

/** Reward workers started before their engine exists: taken one by one by the engine's `spawn`, the rest terminated by `release`. */
export interface EarlyWorker {
  /** The language the workers were started for: an engine of the other language takes none. */
  language: 'ts' | 'py';
  /** A worker's port, each once (null when none is left, or the next one has already stopped). */
  take(): WorkerPort | null;
  /** Terminate the workers nobody took. */
  release(): void;
}

/**
 * Start `count` reward workers now (the CLI: while the scoring code loads, the workers load their own, and Python's
 * start Pyodide from `snapshot`); the engine takes them as its first workers. A worker that stops before it is taken
 * is not handed out.
 */
export function earlyWorker(url: URL, heapMb: number, language: 'ts' | 'py' = 'ts', count = 1, snapshot?: PyodideSnapshotRef | null): EarlyWorker {
  const waiting = Array.from({ length: count }, () => {
    const w = { port: nodeWorkerPort(url, language, heapMb, undefined, snapshot), stopped: false };
    w.port.onExit = () => void (w.stopped = true);
    return w;
  });
  return {
    language,
    take() {
      const w = waiting.shift();
      if (!w || w.stopped) {
        w?.port.terminate();
        return null;
      }
      w.port.onExit = null;
      return w.port;
    },
    release() {
      for (const w of waiting.splice(0)) w.port.terminate();
    },
  };
}
