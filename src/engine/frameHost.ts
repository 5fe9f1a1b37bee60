/**
 * The sandbox's side: inside an iframe of opaque origin it holds one engine per language and their workers, so reward
 * code never runs where the studio's storage exists. It answers the page on a port received once, from its parent.
 */
import { browserWorkerPort } from './browser';
import { RewardEngine, type EngineDataset, type RunHandle, type RunProgress } from './engine';
import { PyodideShare } from './pyodideShare';
import { throttleProgress } from './progressThrottle';
import { checkToFrame, type FromFrame, type PoolId } from './frameProtocol';

export interface FrameHostOptions {
  /** Reward workers per language. */
  size: number;
  /** The workers' script URLs (absolute: the sandbox's own origin is opaque). */
  scripts: Record<PoolId, string>;
}

/**
 * A worker of the sandbox's opaque origin. The app's script URL is cross-origin here, and Chromium refuses a module
 * worker from a blob: URL of an opaque origin; so a classic worker starts from a blob that imports the module (the app
 * serves its files to the sandbox with CORS), holding the messages that arrive before the module listens.
 */
const BOOT = `const held = [];
const hold = (e) => held.push(e);
self.addEventListener('message', hold);
import(SCRIPT).then(() => {
  self.removeEventListener('message', hold);
  for (const e of held) self.dispatchEvent(new MessageEvent('message', { data: e.data, ports: [...e.ports] }));
}, (e) => setTimeout(() => { throw new Error('the reward worker could not start: ' + (e && e.message)); }));
`;

function sandboxWorker(script: string, name: string): Worker {
  const url = URL.createObjectURL(new Blob([BOOT.replace('SCRIPT', JSON.stringify(script))], { type: 'text/javascript' }));
  const w = new Worker(url, { name });
  // Fetched when the worker starts; a worker that fails to start is reported by its error event either way.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return w;
}

/**
 * A tab's Python pool starts at most this many interpreters, and the rest of the pool (one per core) once a run shows
 * it is long: each interpreter holds ~85 MB in Chromium, and as many spares start for an edit, so one per core would
 * hold ~1.3 GB on 16 cores for the 800 demo rows, twice that during an edit (bench/README.md, session 30).
 */
const PY_FIRST_WORKERS = 4;

export function hostEngines(port: MessagePort, opts: FrameHostOptions): void {
  const post = (m: FromFrame, transfer: Transferable[] = []) => port.postMessage(m, transfer);
  const protocolError = (message: string) => post({ kind: 'protocol-error', message });
  const engines: Partial<Record<PoolId, RewardEngine>> = {};
  const sizes: Partial<Record<PoolId, number>> = {};
  /** Each pool's last dataset, for a later `load` of it. */
  const datasets: Partial<Record<PoolId, EngineDataset>> = {};
  const runs = new Map<number, RunHandle>();
  const pyodide = new PyodideShare((start) => browserWorkerPort(sandboxWorker(opts.scripts.py, 'reward-py'), start));
  const engine = (pool: PoolId): RewardEngine =>
    (engines[pool] ??= new RewardEngine({
      size: opts.size,
      spawn: () => (pool === 'py' ? pyodide.spawn() : browserWorkerPort(sandboxWorker(opts.scripts.ts, 'reward-js'))),
      interruptible: pool === 'py',
      oneCodePerWorker: pool === 'py',
      ...(pool === 'py' && opts.size > PY_FIRST_WORKERS ? { staged: true, startWith: PY_FIRST_WORKERS } : {}),
      onProtocolError: protocolError,
    }));

  port.onmessage = (ev) => {
    const c = checkToFrame(ev.data, (pool) => sizes[pool]);
    if (!c.ok) return protocolError(`the page sent the reward sandbox a malformed request (${c.error}); it was dropped`);
    const m = c.value;
    switch (m.kind) {
      case 'ping':
        return post({ kind: 'pong', id: m.id });
      case 'dataset':
        sizes[m.pool] = m.ds.size;
        datasets[m.pool] = m.ds;
        return engine(m.pool).setDataset(m.ds, m.load);
      case 'load': {
        const ds = datasets[m.pool];
        if (ds?.file.datasetId !== m.datasetId)
          return protocolError(`the page asked the reward sandbox to read dataset ${m.datasetId}, which it was not sent; dropped`);
        return engine(m.pool).setDataset(ds, true);
      }
      case 'check':
        return void engine(m.pool)
          .check(m.code)
          .then((result) => post({ kind: 'checked', reqId: m.reqId, result }));
      case 'edit':
        // A hint: an engine that does not exist yet has nothing to prepare.
        return engines[m.pool]?.prepareEdit();
      case 'cancel':
        return runs.get(m.runId)?.cancel();
      case 'run': {
        const { runId } = m;
        const progress = throttleProgress((p: RunProgress) => post({ kind: 'progress', runId, progress: p }));
        const handle = engine(m.pool).run(m.code, { ...m.opts, onProgress: progress.report });
        runs.set(runId, handle);
        void handle.done.then((outcome) => {
          progress.stop();
          runs.delete(runId);
          const transfer =
            outcome.kind === 'done' || outcome.kind === 'cancelled'
              ? [outcome.result.scores.buffer, outcome.result.status.buffer, ...Object.values(outcome.result.components).map((a) => a.buffer)]
              : [];
          post({ kind: 'outcome', runId, outcome }, transfer as ArrayBuffer[]);
        });
        return;
      }
    }
  };
  post({ kind: 'ready' });
}
