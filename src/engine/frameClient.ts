/**
 * The page's side of the reward sandbox (docs/engine.md, "The sandbox"): it starts the sandbox iframe, hands it a
 * private port, and gives the studio one engine-like object per language. Every reply is checked against the request
 * it answers; a sandbox that stops answering (a reward that exhausted its memory takes the sandbox's process down) fails
 * what was in flight with the reason, and the next request starts a fresh sandbox.
 */
import type { EngineDataset, RunHandle, RunOptions, RunOutcome } from './engine';
import { checkFromFrame, type PoolId, type ToFrame } from './frameProtocol';
import type { CheckResult } from './protocol';

/** The engine calls the studio makes, for one language. */
export interface SandboxPool {
  setDataset(ds: EngineDataset, load?: boolean): void;
  check(code: string): Promise<CheckResult>;
  /** The user is editing the code (a hint: a sandbox not started is not started for it). */
  prepareEdit(): void;
  run(code: string, opts?: RunOptions): RunHandle;
}

export interface SandboxOptions {
  /** The sandbox page's URL (the app's own `sandbox.html`). */
  src: string;
  /** Reward workers per language. */
  size: number;
  onProtocolError: (message: string) => void;
  /** How often the page asks a busy sandbox whether it is there, and how long it waits for the answer. */
  liveness?: { pingEveryMs: number; deadAfterMs: number };
}

const LIVENESS = { pingEveryMs: 2000, deadAfterMs: 10_000 };
const DEAD = 'the reward sandbox stopped: a reward that exhausts its memory (or crashes its worker) takes the sandbox down with it';

interface PendingRun {
  rows: number;
  onProgress?: RunOptions['onProgress'];
  resolve: (o: RunOutcome) => void;
}

/** The sandbox frame and its port, while it lives. */
interface Frame {
  element: HTMLIFrameElement;
  port: MessagePort;
  heardAt: number;
}

export class RewardSandbox {
  private frame: Frame | null = null;
  private datasets: Partial<Record<PoolId, EngineDataset>> = {};
  /** The dataset the frame last got for each pool (a `load` names it instead of sending it again). */
  private sent: Partial<Record<PoolId, EngineDataset>> = {};
  private checks = new Map<number, (r: CheckResult) => void>();
  private runs = new Map<number, PendingRun>();
  private nextId = 1;
  /** Pools whose dataset is set but not yet sent to the frame (see setDataset). */
  private unsent = new Set<PoolId>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly opts: SandboxOptions) {}

  /** The engine of one language, through the sandbox. */
  pool(id: PoolId): SandboxPool {
    return {
      setDataset: (ds, load = true) => {
        this.datasets[id] = ds;
        if (load) {
          // Already sent (or waiting to go) without load: only asked to read it, not sent again with its line spans
          // (~40 ms of the page's thread at a million rows).
          const sent = this.sent[id]?.file.datasetId === ds.file.datasetId;
          if (sent && this.frame && !this.unsent.has(id)) return this.send({ kind: 'load', pool: id, datasetId: ds.file.datasetId });
          this.unsent.delete(id);
          this.send({ kind: 'dataset', pool: id, ds, load });
          return;
        }
        // Not to be read yet: sent in a task of its own (its message copies the rows' line spans, ~30 ms at a million
        // rows, which would lengthen the import's last task) or before the pool's next message, whichever comes first.
        this.unsent.add(id);
        this.flushTimer ??= setTimeout(() => {
          this.flushTimer = null;
          for (const pool of [...this.unsent]) this.flush(pool);
        }, 0);
      },
      check: (code) =>
        new Promise((resolve) => {
          const reqId = this.nextId++;
          this.checks.set(reqId, resolve);
          this.send({ kind: 'check', pool: id, reqId, code });
        }),
      prepareEdit: () => {
        if (this.frame) this.send({ kind: 'edit', pool: id });
      },
      run: (code, { onProgress, ...opts } = {}) => {
        const runId = this.nextId++;
        const ds = this.datasets[id];
        const done = new Promise<RunOutcome>((resolve) => {
          if (ds?.size === undefined) return resolve({ kind: 'failed', message: 'no dataset loaded' });
          this.runs.set(runId, { rows: opts.probe ? opts.probe.rows.length : opts.rows ? opts.rows.length : ds.size, onProgress, resolve });
          this.send({ kind: 'run', pool: id, runId, code, opts });
        });
        return { done, cancel: () => this.runs.has(runId) && this.send({ kind: 'cancel', runId }) };
      },
    };
  }

  /** Remove the sandbox (tests; a page that is going away). What was in flight fails. */
  dispose(): void {
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.unsent.clear();
    this.lost('the reward sandbox was closed');
  }

  /** Send `pool`'s dataset if it is still waiting to go (setDataset without load). */
  private flush(pool: PoolId): void {
    const ds = this.datasets[pool];
    if (this.unsent.delete(pool) && ds) this.send({ kind: 'dataset', pool, ds, load: false });
  }

  private send(m: ToFrame): void {
    // A pool's dataset goes before anything else for that pool: the frame runs and checks on the dataset it was sent.
    if (m.kind !== 'dataset' && m.kind !== 'cancel' && m.kind !== 'ping') this.flush(m.pool);
    if (!this.frame) {
      this.frame = this.start();
      // A fresh sandbox (the first, or one after a crash) learns the datasets it will be asked to run on.
      for (const [pool, ds] of Object.entries(this.datasets) as [PoolId, EngineDataset][])
        if (!(m.kind === 'dataset' && m.pool === pool)) {
          this.frame.port.postMessage({ kind: 'dataset', pool, ds, load: false } satisfies ToFrame);
          this.sent[pool] = ds;
        }
      this.unsent.clear();
    }
    this.frame.port.postMessage(m);
    if (m.kind === 'dataset') this.sent[m.pool] = m.ds;
    this.watch();
  }

  private start(): Frame {
    const element = document.createElement('iframe');
    // No allow-same-origin: the sandbox's origin is opaque, so the studio's IndexedDB, caches and storage do not exist
    // there. cross-origin-isolated keeps SharedArrayBuffer (time limits, Python interrupts) working inside it.
    element.setAttribute('sandbox', 'allow-scripts');
    element.setAttribute('allow', 'cross-origin-isolated');
    element.title = 'Reward sandbox (runs reward code, shows nothing)';
    element.setAttribute('aria-hidden', 'true');
    element.tabIndex = -1;
    // Rendered (1 px, transparent, inert), not `hidden`: Chromium lowers the priority (nice 5 on Linux) of a renderer
    // process that shows nothing, and this process's main thread hands the workers their tasks and takes their results.
    element.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;border:0;opacity:0;pointer-events:none';
    const { port1, port2 } = new MessageChannel();
    const frame: Frame = { element, port: port1, heardAt: Date.now() };
    // Messages sent before the sandbox has started wait in the port.
    element.addEventListener('load', () => element.contentWindow?.postMessage({ kind: 'connect', size: this.opts.size }, '*', [port2]), { once: true });
    port1.onmessage = (ev) => this.receive(frame, ev.data);
    port1.onmessageerror = () => this.receive(frame, { kind: 'unreadable' });
    element.src = this.opts.src;
    document.body.append(element);
    return frame;
  }

  private receive(frame: Frame, raw: unknown): void {
    if (frame !== this.frame) return;
    frame.heardAt = Date.now();
    const c = checkFromFrame(raw, (runId) => this.runs.get(runId)?.rows);
    if (!c.ok) return this.opts.onProtocolError(`the reward sandbox sent a malformed message (${c.error}); it was dropped`);
    const m = c.value;
    switch (m.kind) {
      case 'checked': {
        const resolve = this.checks.get(m.reqId);
        this.checks.delete(m.reqId);
        resolve?.(m.result);
        break;
      }
      case 'progress':
        this.runs.get(m.runId)?.onProgress?.(m.progress);
        break;
      case 'outcome': {
        const run = this.runs.get(m.runId);
        this.runs.delete(m.runId);
        run?.resolve(m.outcome);
        break;
      }
      case 'protocol-error':
        this.opts.onProtocolError(m.message);
        break;
    }
    this.watch();
  }

  /** While something is in flight, the sandbox is asked whether it is there; one that stays quiet is gone. */
  private watch(): void {
    const busy = this.checks.size > 0 || this.runs.size > 0;
    if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    if (!busy || this.timer) return;
    const { pingEveryMs, deadAfterMs } = this.opts.liveness ?? LIVENESS;
    if (this.frame) this.frame.heardAt = Date.now();
    this.timer = setInterval(() => {
      const f = this.frame;
      if (!f) return;
      if (Date.now() - f.heardAt > deadAfterMs) return this.lost(DEAD);
      f.port.postMessage({ kind: 'ping', id: this.nextId++ } satisfies ToFrame);
    }, pingEveryMs);
  }

  /** The sandbox is gone: what was in flight fails with `why`, and the next request starts a fresh one. */
  private lost(why: string): void {
    const f = this.frame;
    this.frame = null;
    if (f) {
      f.port.close();
      f.element.remove();
    }
    const checks = [...this.checks.values()];
    const runs = [...this.runs.values()];
    this.checks.clear();
    this.runs.clear();
    this.watch();
    for (const resolve of checks) resolve({ ok: false, message: why });
    for (const r of runs) r.resolve({ kind: 'failed', message: why });
  }
}
