/**
 * The one reward-run engine, for the browser and the CLI alike: a pool of reward workers behind ports, the task
 * queue, time limits (terminate, or interrupt a Python call first), cancellation, and the checks on every reply.
 * Scheduling and time limits are explained in docs/engine.md.
 */
import { COMPONENT_LIMIT, RowStatus, setOwn, STRING_COLUMN_LIMIT } from '../core/reward/contract';
import type { StepColumn } from '../core/shaping/shape';
import { assembleSteps, type StepPiece } from '../core/shaping/stepColumn';
import type { RowError } from '../core/reward/runRows';
import { isPerRow, type RewardCandidate } from '../core/python/signatures';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { interruptOverrun, type InterruptState } from './interrupt';
import {
  checkFromWorker,
  checkRangeResult,
  type CheckResult,
  type DatasetFile,
  type DatasetMeta,
  type FromWorker,
  type PieceRequest,
  type PythonCall,
  type ToWorker,
} from './protocol';
import type { LineIndex } from '../core/dataset/lineRows';
import { counter, DEPTH, MAX_TASK_MS, MIN_TASK_MS, TaskQueue, type Task } from './taskQueue';
import { newWatch, WATCH_COMPILING, WATCH_IDLE, type Watch } from './watch';

/** One worker as the engine sees it; the browser and Node adapters make these. */
export interface WorkerPort {
  post(m: ToWorker, transfer?: Transferable[]): void;
  /** Every message the worker sends, unchecked (the engine checks it). */
  onMessage: ((m: unknown) => void) | null;
  /** The worker stopped on its own (crashed, ran out of memory, closed itself). */
  onExit: ((why: string) => void) | null;
  /** A message outside the private channel (reward code posting on the worker's own): never used. */
  onStray?: ((m: unknown) => void) | null;
  terminate(): void;
}

export interface EngineOptions {
  size: number;
  spawn: () => WorkerPort;
  /** Python workers: a call past its limit is interrupted (KeyboardInterrupt) before its worker is replaced. */
  interruptible?: boolean;
  /**
   * A worker that ran one code is replaced before it runs another (Python: an interpreter keeps whatever a reward
   * changed in it, and nothing in Python can be frozen; docs/engine.md, "One reward cannot change the next"). With
   * `prepareBetweenRuns`, a spare for each worker starts once the code is being edited (`prepareEdit`) and reads that
   * worker's rows, so that the run of the edited code does not wait for an interpreter to start.
   */
  oneCodePerWorker?: boolean;
  /**
   * Start `startWith` workers (default one), and the rest only when they can still help: the CLI (each reads the whole
   * file, or the rows of its tasks when the file was read in pieces), and a tab's Python pool on many cores.
   */
  staged?: boolean;
  /**
   * Staged: the workers started with a dataset (the CLI: one per piece of the file). A run is then cut into one block
   * per worker the pool has, so that worker k's block is about the rows of its piece; workers added during a run take
   * from the others' blocks, and have blocks of their own from the next run on.
   */
  startWith?: number;
  /** After a finished run, workers read the rest of their block and make the next run's copies (default true). */
  prepareBetweenRuns?: boolean;
  /** A worker sent something that is not in the protocol: it was dropped (and its task failed). */
  onProtocolError?: (message: string) => void;
  /** Python output kept per run, in characters (default 200,000). */
  outputLimit?: number;
  /** How long compiling and the module's top-level code may take (default 10 s, or the row limit if longer). */
  compileLimitMs?: number;
  /** The shortest task, in ms of a worker's scoring at the run's measured speed (default MIN_TASK_MS; 0: rows only). */
  minTaskMs?: number;
  /** A worker that holds tasks but runs no row is pinged after `pingAfterMs`, and dead without a pong in `pongMs`. */
  liveness?: { pingAfterMs: number; pongMs: number };
}

export interface EngineDataset {
  file: DatasetFile;
  /** Rows, when the import counted them; else the first worker's read says. */
  size?: number;
  /** Ask the first worker for the per-row facts of its read (the CLI, which has no import). */
  meta?: { label: string | null; groupBy?: string | null };
}

export interface RunResult {
  scores: Float64Array;
  status: Uint8Array;
  errors: Map<number, RowError>;
  components: Record<string, Float64Array>;
  notes: Map<number, string>;
  /** Text values by name (a dict result's strings, e.g. verl's `pred`), one per row, null where none; absent when none. */
  strings?: Record<string, (string | null)[]>;
  /** Step rewards (RewardResult.steps), ragged over the rows; absent when no row returned any. */
  steps?: StepColumn;
  /** Python `print()` output: the module's top level, then the calls in row order. */
  stdout: string;
  /** Python: reward objects found when the module ran (built by imported code), which the parse could not see. */
  found?: RewardCandidate[];
}

export type RunOutcome =
  | { kind: 'done' | 'cancelled'; result: RunResult; elapsedMs: number; workersUsed: number }
  | { kind: 'compile-error'; message: string; line?: number; stdout?: string }
  | { kind: 'load-failed'; message: string }
  | { kind: 'failed'; message: string };

export interface RunProgress {
  done: number;
  total: number;
  rowsPerSecond: number;
}

export interface RunOptions {
  /** Per-row time limit in ms (default 1000). */
  timeLimitMs?: number;
  tokenizer?: TokenizerId;
  python?: PythonCall;
  /**
   * Reward-model score columns by model name, for `ctx.models`: one score per dataset row, or for a probe run one per
   * position (the model's score of the probed text: the real texts' scores would not be the probe's).
   */
  models?: Record<string, Float64Array>;
  /**
   * A stress test: score probe `name` applied to dataset rows `rows` (results by position in `rows`); `donors[j]` is
   * the row whose completion `cross` gives position j.
   */
  probe?: { name: string; rows: Int32Array; donors?: Int32Array };
  /**
   * Score only these dataset rows (ascending, each once; `--shard`): results, errors and model columns by position in
   * `rows`. Rows outside it never reach the reward.
   */
  rows?: Int32Array;
  onProgress?: (p: RunProgress) => void;
}

export interface RunHandle {
  done: Promise<RunOutcome>;
  cancel(): void;
}

/** One piece of a file as its worker read it: its rows' facts and line index. */
export interface PieceRead {
  meta: DatasetMeta;
  index: LineIndex;
}

/** What the first worker to read the dataset found. */
export type LoadInfo = { ok: true; rows: number; meta?: DatasetMeta } | { ok: false; message: string };

interface Slot {
  port: WorkerPort;
  watch: Watch | null;
  /** The watch value last read and when it was first seen (a value seen twice is the same call still running). */
  seen: { value: number; at: number };
  interrupt: InterruptState | null;
  /** The dataset this worker was asked to read, and whether it has. */
  datasetId: string | null;
  loaded: boolean;
  /** Tasks given to this worker, oldest first; the first `sent` of them have been posted (the rest wait for its read). */
  tasks: Task[];
  sent: number;
  /** The code of the last task posted to it (`oneCodePerWorker`), null before any. */
  code: string | null;
  /** The engine terminated it: anything it still says is ignored. */
  retired: boolean;
  spawnedAt: number;
  /** When it last sent anything, and the ping it has not answered yet. */
  heardAt: number;
  ping: { id: number; at: number } | null;
}

const COMPILE_LIMIT_MS = 10_000;
/** A run's speed is taken as known this long after its first task went out (see Run.pace). */
const PACE_AFTER_MS = 5;
// Generous: a worker may be busy for seconds without a row (building a tokenizer, converting a task's rows for Python).
const LIVENESS = { pingAfterMs: 5000, pongMs: 15_000 };
/**
 * Rows of a task at most on a lean dataset (the CLI's file too large to keep), whose tasks read their rows: they live
 * while the task runs, and this few die in V8's young generation instead of being copied out of it (tasks of up to
 * 20,000 rows: a million rows in 9.4 s on 2 cores; of 2,048: 6.0 s).
 */
const LEAN_TASK_ROWS = 2048;

export class RewardEngine {
  private slots: Slot[] = [];
  /**
   * `oneCodePerWorker`: a fresh worker ready to take slot k's place when other code comes (see `swapIn`), reading the
   * current dataset: all are dropped with the dataset, and each is let go when it dies or takes its place.
   */
  private spares: (Slot | null)[] = [];
  /** The last finished run's dataset, rows and alignment: a spare reads the block its worker would get. */
  private lastBlocks: { datasetId: string; rows: number; align: number; python?: PythonCall } | null = null;
  /** `prepareEdit` came while a run was in flight: the spares start when it has finished. */
  private sparesWanted = false;
  private dataset: { ds: EngineDataset; info: Promise<LoadInfo>; settle: (i: LoadInfo) => void; metaFrom: Slot | null } | null = null;
  private current: Run | null = null;
  private checks = new Map<number, { slot: Slot; code: string; resolve: (r: CheckResult) => void }>();
  /** `dispose` was called: `readPieces` starts no worker. */
  private disposed = false;
  /** Pieces being read (`readPieces`), by the worker reading each. */
  private pieces = new Map<Slot, { resolve: (r: PieceRead) => void; reject: (e: Error) => void }>();
  private nextCheck = 1;
  readonly nextTaskId = counter();
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private watchEvery = 100;
  /** How long the first worker took from its start to having read the file (staged growth). */
  firstLoadMs: number | null = null;

  constructor(readonly opts: EngineOptions) {}

  get size(): number {
    return this.opts.size;
  }

  /** Use this dataset from now on; with `load`, the workers start reading it at once. */
  setDataset(ds: EngineDataset, load = true): void {
    let settle!: (i: LoadInfo) => void;
    const info = new Promise<LoadInfo>((r) => (settle = r));
    this.dataset = { ds, info, settle, metaFrom: null };
    this.dropSpares();
    if (!load) return;
    this.fill(this.firstWorkers());
    for (const s of this.slots) this.ensureData(s);
  }

  /** The first read of the current dataset by any worker (rows, and the facts asked for with `meta`). */
  loadInfo(): Promise<LoadInfo> {
    if (!this.dataset) return Promise.resolve({ ok: false, message: 'no dataset' });
    if (this.slots.length === 0) this.fill(1);
    for (const s of this.slots) this.ensureData(s);
    return this.dataset.info;
  }

  /**
   * The CLI: worker k reads piece k of a plain JSONL file (the workers started as needed, all reading at once) and
   * keeps its rows for the dataset set next with the whole file's index. Rejects when a piece cannot be read or its
   * worker stops meanwhile.
   */
  readPieces(requests: readonly Omit<PieceRequest, 'kind'>[]): Promise<PieceRead[]> {
    // Asked after dispose (the CLI plans the pieces while the code is checked; a failed check disposes the engine):
    // no worker may start then, or it would keep the process alive.
    if (this.disposed) return Promise.reject(new Error('the engine was disposed'));
    if (requests.length > this.size) return Promise.reject(new Error(`${requests.length} pieces for ${this.size} workers`));
    this.fill(requests.length);
    return Promise.all(
      requests.map(
        (r, k) =>
          new Promise<PieceRead>((resolve, reject) => {
            const slot = this.slots[k];
            this.pieces.set(slot, { resolve, reject });
            slot.port.post({ kind: 'piece', ...r });
          }),
      ),
    );
  }

  /** Compile (TypeScript) or parse (Python: list its reward functions) `code` in a worker, running no row. */
  check(code: string): Promise<CheckResult> {
    this.fill(1);
    const slot = this.slots[0];
    const reqId = this.nextCheck++;
    return new Promise((resolve) => {
      this.checks.set(reqId, { slot, code, resolve });
      this.watch();
      slot.port.post({ kind: 'check', reqId, code });
    });
  }

  /**
   * The user is changing the code, so the next run is likely of other code. `oneCodePerWorker`: each worker that ran
   * code gets a spare now (or when the run in flight has finished), instead of after every run: spares cost a
   * worker's start and a second copy of its rows, which a run of the same code, or of another dataset, never uses.
   */
  prepareEdit(): void {
    if (!this.opts.oneCodePerWorker || this.opts.prepareBetweenRuns === false || this.disposed) return;
    if (this.current) this.sparesWanted = true;
    else this.makeSpares();
  }

  /** Run `code` on every row. A new run cancels the one in flight (the latest request wins). */
  run(code: string, opts: RunOptions = {}): RunHandle {
    this.current?.cancel();
    if (!this.dataset) throw new Error('no dataset loaded');
    const run = new Run(this, this.dataset.ds, this.dataset.info, code, opts);
    this.current = run;
    void run.start();
    return { done: run.done, cancel: () => run.cancel() };
  }

  /** Stop every worker (the CLI, once it has its results). */
  dispose(): void {
    this.disposed = true;
    this.dropSpares();
    for (const s of this.slots) this.retire(s);
    this.slots = [];
    this.current?.cancel();
    this.stopWatch();
  }

  // ---- workers -------------------------------------------------------------------------------------------

  /** @internal Workers started with a dataset: all, or staged `startWith` (default one). */
  firstWorkers(): number {
    return this.opts.staged ? Math.max(1, Math.min(this.size, this.opts.startWith ?? 1)) : this.size;
  }

  /**
   * @internal The blocks a run's rows are cut into: with `startWith`, one per worker the pool has, at least that many
   * (the CLI's pieces; a tab's Python pool once grown); otherwise one per worker the pool may have.
   */
  blocks(): number {
    return this.opts.startWith === undefined ? this.size : Math.min(this.size, Math.max(this.firstWorkers(), this.slots.length));
  }

  /** @internal */
  get workers(): readonly Slot[] {
    return this.slots;
  }

  /** @internal Start workers until there are `n`. */
  fill(n: number): void {
    while (this.slots.length < Math.min(n, this.size)) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const port = this.opts.spawn();
    const watch = newWatch();
    const slot: Slot = {
      port,
      watch,
      seen: { value: WATCH_IDLE, at: 0 },
      interrupt: null,
      datasetId: null,
      loaded: false,
      tasks: [],
      sent: 0,
      code: null,
      retired: false,
      spawnedAt: performance.now(),
      heardAt: Date.now(),
      ping: null,
    };
    port.onMessage = (m) => this.receive(slot, m);
    port.onExit = (why) => this.died(slot, why);
    port.onStray = () => this.opts.onProtocolError?.('reward code posted a message of its own to the page; it was dropped');
    port.post({ kind: 'init', watch: watch?.buffer ?? null });
    return slot;
  }

  /** @internal Terminate a worker; what it still sends is ignored. */
  retire(slot: Slot): void {
    slot.retired = true;
    this.pieces.get(slot)?.reject(new Error('the worker reading a piece of the file stopped'));
    this.pieces.delete(slot);
    slot.port.onMessage = null;
    slot.port.onExit = null;
    slot.port.onStray = null;
    slot.port.terminate();
  }

  /**
   * @internal Put a fresh worker (`spare`, else a new one) in `slot`'s place (reading the current dataset); returns
   * it. `checksMove`: the checks it had are asked of the fresh one (it was sound, only used by other code), else they
   * fail.
   */
  replace(slot: Slot, checksMove = false, spare?: Slot): Slot {
    this.retire(slot);
    const fresh = spare ?? this.spawn();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = fresh;
    if (checksMove) this.moveChecks(slot, fresh);
    for (const [id, c] of this.checks) {
      if (c.slot !== slot) continue;
      this.checks.delete(id);
      c.resolve({ ok: false, message: 'the worker checking the code was stopped' });
    }
    this.ensureData(fresh);
    return fresh;
  }

  /**
   * @internal Slot `slot` has run other code: its spare takes its place when it reads the current dataset, else a
   * fresh worker does. Its checks (sound, only made by other code) are asked of the new one.
   */
  swapIn(slot: Slot): void {
    const k = this.slots.indexOf(slot);
    const spare = this.spares[k] ?? undefined;
    if (spare) this.spares[k] = null;
    this.replace(slot, true, spare);
  }

  /** Spares of another dataset are of no use (and at dispose, none is). */
  private dropSpares(): void {
    for (const s of this.spares) if (s) this.retire(s);
    this.spares = [];
  }

  /** A spare for each worker that has run code and has none, reading the current dataset. */
  private makeSpares(): void {
    this.sparesWanted = false;
    if (!this.dataset) return;
    this.slots.forEach((s, k) => {
      if (this.spares[k] || s.code === null) return;
      const spare = this.spawn();
      this.spares[k] = spare;
      this.ensureData(spare);
    });
  }

  /** A spare has read the dataset: it reads the rows of the block its worker had in the last run. */
  private spareLoaded(spare: Slot): void {
    const k = this.spares.indexOf(spare);
    const last = this.lastBlocks;
    // No run of this dataset yet: the spare has started and read it, which is most of what it saves.
    if (k < 0 || !last || last.datasetId !== this.dataset?.ds.file.datasetId) return;
    const block = TaskQueue.blockOf(k, last.rows, this.blocks(), last.align);
    spare.port.post({ kind: 'idle', block, tails: [], ...(last.python ? { python: last.python } : {}) });
  }

  private moveChecks(from: Slot, to: Slot): void {
    for (const [id, c] of this.checks) {
      if (c.slot !== from) continue;
      c.slot = to;
      to.port.post({ kind: 'check', reqId: id, code: c.code });
    }
  }

  /** @internal Have the worker read the current dataset (once). */
  ensureData(slot: Slot): void {
    const d = this.dataset;
    if (!d || slot.retired || slot.datasetId === d.ds.file.datasetId) return;
    slot.datasetId = d.ds.file.datasetId;
    slot.loaded = false;
    // One worker is asked for the facts (another, if that one was replaced before it answered); of workers started
    // together (a staged pool that starts several, each reading the whole file), each is, and the first to answer wins.
    const askAll = this.opts.staged === true && this.firstWorkers() > 1;
    const noneAsked = !d.metaFrom || d.metaFrom.retired;
    const meta = d.ds.meta && (askAll || noneAsked) ? d.ds.meta : undefined;
    if (meta && noneAsked) d.metaFrom = slot;
    slot.port.post(meta ? { kind: 'load', file: d.ds.file, meta } : { kind: 'load', file: d.ds.file });
  }

  /** @internal */
  isReady(slot: Slot): boolean {
    return !slot.retired && slot.loaded && slot.datasetId === this.dataset?.ds.file.datasetId;
  }

  /**
   * @internal A worker may be given tasks once it reads the dataset; in staged mode only once it has read it (a
   * worker that reads the whole file would hold tasks for seconds).
   */
  canTake(slot: Slot): boolean {
    return this.opts.staged ? this.isReady(slot) : !slot.retired && slot.datasetId === this.dataset?.ds.file.datasetId;
  }

  private receive(slot: Slot, raw: unknown): void {
    if (slot.retired) return;
    slot.heardAt = Date.now();
    const c = checkFromWorker(raw);
    if (!c.ok) {
      this.opts.onProtocolError?.(`a reward worker sent a malformed message (${c.error}); it was dropped`);
      // Its tasks cannot be trusted to be answered: the worker is replaced and its first task's rows fail.
      if (this.current && slot.tasks.length > 0) this.current.lost(slot, `the reward worker sent a malformed reply (${c.error})`);
      return;
    }
    const m = c.value;
    switch (m.kind) {
      case 'loaded':
      case 'load-failed':
        return this.loaded(slot, m);
      case 'pong':
        if (slot.ping?.id === m.id) slot.ping = null;
        return;
      case 'piece-read':
      case 'piece-failed': {
        const waiting = this.pieces.get(slot);
        if (!waiting) return;
        this.pieces.delete(slot);
        if (m.kind === 'piece-failed') return waiting.reject(new Error(m.message));
        return waiting.resolve({ meta: m.meta, index: m.index });
      }
      case 'checked': {
        const waiting = this.checks.get(m.reqId);
        if (!waiting || waiting.slot !== slot) return;
        this.checks.delete(m.reqId);
        waiting.resolve(m.result);
        return this.watchIfNeeded();
      }
      default:
        this.current?.reply(slot, m);
    }
  }

  private loaded(slot: Slot, m: Extract<FromWorker, { kind: 'loaded' | 'load-failed' }>): void {
    const d = this.dataset;
    if (!d || m.datasetId !== slot.datasetId || m.datasetId !== d.ds.file.datasetId) return;
    const spare = this.spares.indexOf(slot);
    if (spare >= 0) {
      if (m.kind === 'loaded') {
        slot.loaded = true;
        this.spareLoaded(slot);
      } else this.spares[spare] = null;
      return;
    }
    if (m.kind === 'load-failed') {
      slot.datasetId = null;
      d.settle({ ok: false, message: m.message });
      this.current?.loadFailed(m.message);
      return;
    }
    slot.loaded = true;
    this.firstLoadMs ??= performance.now() - slot.spawnedAt;
    // Facts were asked of another worker, still reading: the first read's info is that one's.
    const waitForFacts = d.ds.meta && !m.meta && d.metaFrom !== null && d.metaFrom !== slot && !d.metaFrom.retired;
    if (!waitForFacts) d.settle(m.meta ? { ok: true, rows: m.rows, meta: m.meta } : { ok: true, rows: m.rows });
    this.current?.slotReady(m.rows);
  }

  private died(slot: Slot, why: string): void {
    if (slot.retired) return;
    const spare = this.spares.indexOf(slot);
    if (spare >= 0) {
      this.retire(slot);
      this.spares[spare] = null;
      return;
    }
    if (this.current?.died(slot, why)) return;
    // Idle: a fresh worker takes its place.
    this.replace(slot);
  }

  // ---- the watchdog --------------------------------------------------------------------------------------

  /** @internal Run the watchdog (every `every` ms) while a run or a check is in flight. */
  watch(every = this.watchEvery): void {
    if (this.watchdog && every === this.watchEvery) return;
    this.stopWatch();
    this.watchEvery = every;
    this.watchdog = setInterval(() => this.tick(), every);
  }

  private stopWatch(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** @internal */
  watchIfNeeded(): void {
    if (!this.current && this.checks.size === 0) this.stopWatch();
  }

  private tick(): void {
    const now = Date.now();
    this.current?.grow();
    for (const slot of [...this.slots]) {
      if (slot.retired || !slot.watch) continue;
      const value = Atomics.load(slot.watch.row, 0);
      // Row indexes are unique within a run: the same value on two reads is the same call, still running.
      if (value !== slot.seen.value) {
        slot.seen = { value, at: now };
        slot.interrupt = null;
        continue;
      }
      if (value === WATCH_COMPILING) {
        const limit = Math.max(this.opts.compileLimitMs ?? COMPILE_LIMIT_MS, this.current?.limit ?? 0);
        if (now - slot.seen.at > limit) this.compileOverrun(slot, limit);
        continue;
      }
      if (value === WATCH_IDLE && slot.sent > 0) this.checkAlive(slot, now);
      else this.current?.overrun(slot, value, now);
    }
  }

  /** A worker that holds tasks but runs no row may be reading; one that does not answer a ping has stopped. */
  private checkAlive(slot: Slot, now: number): void {
    const { pingAfterMs, pongMs } = this.opts.liveness ?? LIVENESS;
    if (slot.ping) {
      if (now - slot.ping.at > pongMs) this.died(slot, 'it stopped answering; did the reward call close()?');
      return;
    }
    if (now - Math.max(slot.seen.at, slot.heardAt) < pingAfterMs) return;
    slot.ping = { id: this.nextCheck++, at: now };
    slot.port.post({ kind: 'ping', id: slot.ping.id });
  }

  private compileOverrun(slot: Slot, limit: number): void {
    const message = `the reward module's top-level code ran for more than ${limit} ms`;
    for (const [id, c] of this.checks) {
      if (c.slot !== slot) continue;
      this.checks.delete(id);
      c.resolve({ ok: false, message });
    }
    const run = this.current;
    this.replace(slot);
    run?.finish({ kind: 'compile-error', message });
    this.watchIfNeeded();
  }

  /** @internal A run has ended. */
  ended(run: Run, outcome: RunOutcome): void {
    if (this.current === run) this.current = null;
    this.watchIfNeeded();
    for (const s of this.slots) {
      s.tasks = [];
      s.sent = 0;
    }
    const datasetId = this.dataset?.ds.file.datasetId;
    const prepare = outcome.kind === 'done' && this.opts.prepareBetweenRuns !== false;
    if (!prepare && !this.sparesWanted) return;
    if (prepare && datasetId !== undefined) this.lastBlocks = { datasetId, rows: run.rows, align: run.align, python: run.python };
    // Told once the outcome has gone out (it goes when `done` settles): each post wakes a worker, which would take a
    // core from the reply. Not when a new run has started meanwhile: its tasks read what they need.
    setTimeout(() => {
      if (this.current || this.dataset?.ds.file.datasetId !== datasetId) return;
      if (this.sparesWanted) this.makeSpares();
      if (!prepare) return;
      this.slots.forEach((s, k) => {
        if (!this.isReady(s)) return;
        const block = TaskQueue.blockOf(k, run.rows, this.blocks(), run.align);
        s.port.post({ kind: 'idle', block, tails: TaskQueue.tailsOf(k, run.rows, this.blocks(), run.align) });
      });
    }, 0);
  }
}

/** Why a row subset cannot be run on a dataset of `size` rows, or null. */
export function subsetProblem(rows: Int32Array, size: number, probe: boolean): string | null {
  if (probe) return 'a run takes a probe or a row subset, not both';
  for (let j = 0; j < rows.length; j++) {
    if (!(rows[j] >= 0 && rows[j] < size)) return `row subset: row ${rows[j]} (position ${j}) is outside the dataset (${size} rows)`;
    if (j > 0 && rows[j] <= rows[j - 1]) return `row subset: rows must be ascending and distinct (position ${j})`;
  }
  return null;
}

/** One run over the dataset: its queue, its results, and what it does about each reply. */
class Run {
  readonly done: Promise<RunOutcome>;
  private resolve!: (o: RunOutcome) => void;
  readonly limit: number;
  readonly align: number;
  /** The Python function the run calls (a spare converts its rows for it). */
  get python(): PythonCall | undefined {
    return this.opts.python;
  }
  /** Positions the run scores: the dataset's rows, or a probe's. */
  rows = 0;
  private datasetRows = 0;
  private queue: TaskQueue | null = null;
  private result: RunResult | null = null;
  private outputs: { start: number; text: string }[] = [];
  /** Step rewards of the ranges merged so far (assembled into the result when the run ends). */
  private stepPieces: StepPiece[] = [];
  private moduleOutput = '';
  private doneRows = 0;
  private finished = false;
  private t0 = performance.now();
  /** When the first task went out (the run's speed, and staged growth's clock, are measured from there). */
  private sendingSince = 0;
  private grown = false;
  private deaths = 0;
  /** The workers (by index) that had a row time out, and whether any row has run to its end. */
  private timedOutOn = new Set<number>();
  private sawProgress = false;

  constructor(
    private readonly engine: RewardEngine,
    private readonly ds: EngineDataset,
    private readonly info: Promise<LoadInfo>,
    private readonly code: string,
    private readonly opts: RunOptions,
  ) {
    this.done = new Promise((r) => (this.resolve = r));
    this.limit = opts.timeLimitMs ?? 1000;
    this.align = opts.python && !isPerRow(opts.python.kind) ? Math.max(1, opts.python.batchSize) : 1;
  }

  async start(): Promise<void> {
    const e = this.engine;
    // Before any task goes out: a worker that ran other code gives way to a fresh one.
    if (e.opts.oneCodePerWorker) for (const s of [...e.workers]) if (s.code !== null && s.code !== this.code) e.swapIn(s);
    e.fill(e.firstWorkers());
    for (const s of e.workers) e.ensureData(s);
    e.watch(Math.max(10, Math.min(100, this.limit / 4)));
    let n = this.ds.size;
    if (n === undefined) {
      const info = await this.info;
      if (this.finished) return;
      if (!info.ok) return this.loadFailed(info.message);
      n = info.rows;
    }
    this.datasetRows = n;
    if (this.opts.probe) n = this.opts.probe.rows.length;
    if (this.opts.rows) {
      const bad = subsetProblem(this.opts.rows, n, this.opts.probe !== undefined);
      if (bad) return this.finish({ kind: 'failed', message: bad });
      n = this.opts.rows.length;
    }
    this.rows = n;
    // Columns are sliced by position: one of another length would give rows other rollouts' scores.
    for (const [name, col] of Object.entries(this.opts.models ?? {}))
      if (col.length !== n)
        return this.finish({
          kind: 'failed',
          message: `the scores of model ${name} cover ${col.length} rollouts where the run has ${n}${this.opts.probe ? ' (probed rollouts)' : ''}`,
        });
    this.queue = new TaskQueue(n, e.blocks(), this.align, e.nextTaskId);
    if (this.ds.file.lean) this.queue.cap(LEAN_TASK_ROWS);
    for (const s of e.workers) s.seen = { value: WATCH_IDLE, at: 0 };
    // Not filled with NaN: at a million rows that took 3 ms of this thread before the first task went out. A score
    // stays 0 until merged; a failed row is set to NaN (fail), and a cancelled run's pending rows (cancel).
    this.result = { scores: new Float64Array(n), status: new Uint8Array(n), errors: new Map(), components: {}, notes: new Map(), stdout: '' };
    // Tasks go out before the first progress report (which re-renders the page).
    this.dispatch();
    this.progress();
  }

  finish(o: RunOutcome): void {
    if (this.finished) return;
    this.finished = true;
    // A failed run may leave workers in endless rows: they are replaced (compile errors end at once everywhere).
    if (o.kind === 'failed' || o.kind === 'load-failed') for (const s of [...this.engine.workers]) if (s.sent > 0) this.engine.replace(s);
    if (this.result && this.stepPieces.length) this.result.steps = assembleSteps(this.stepPieces, this.rows);
    if (this.result) {
      const out =
        this.moduleOutput +
        this.outputs
          .sort((a, b) => a.start - b.start)
          .map((x) => x.text)
          .join('');
      const max = this.engine.opts.outputLimit ?? 200_000;
      this.result.stdout = out.length > max ? `${out.slice(0, max)}\n… (output cut at ${max.toLocaleString('en-US')} characters)` : out;
    }
    this.engine.ended(this, o);
    this.resolve(o);
  }

  cancel(): void {
    if (this.finished) return;
    // Busy workers are terminated (their rows stay Pending) and fresh ones read the same dataset.
    for (const s of [...this.engine.workers]) if (s.sent > 0) this.engine.replace(s);
    const res = this.result;
    if (res) for (let i = 0; i < res.status.length; i++) if (res.status[i] === RowStatus.Pending) res.scores[i] = Number.NaN;
    this.finish(this.outcome('cancelled'));
  }

  private outcome(kind: 'done' | 'cancelled'): RunOutcome {
    const result = this.result ?? { scores: new Float64Array(0), status: new Uint8Array(0), errors: new Map(), components: {}, notes: new Map(), stdout: '' };
    return { kind, result, elapsedMs: performance.now() - this.t0, workersUsed: this.engine.workers.length };
  }

  loadFailed(message: string): void {
    this.finish({ kind: 'load-failed', message });
  }

  slotReady(rows: number): void {
    if (this.finished) return;
    if (this.queue && rows !== this.datasetRows)
      return this.finish({ kind: 'failed', message: `a reward worker read ${rows} rows where the dataset has ${this.datasetRows}` });
    this.dispatch();
  }

  private progress(): void {
    const secs = (performance.now() - this.t0) / 1000;
    this.opts.onProgress?.({ done: this.doneRows, total: this.rows, rowsPerSecond: secs > 0 ? this.doneRows / secs : 0 });
  }

  private dispatch(): void {
    const q = this.queue;
    if (this.finished || !q) return;
    const e = this.engine;
    const slots = e.workers;
    // One task per worker per pass, so the first (largest) tasks go to every worker alike.
    for (let pass = 0; pass < DEPTH && !q.empty; pass++) {
      for (let k = 0; k < slots.length && !q.empty; k++) {
        const slot = slots[k];
        if (!e.canTake(slot) || slot.tasks.length >= DEPTH) continue;
        slot.tasks.push(q.take(k));
      }
    }
    // Posted round the workers (each one's first task before anyone's second): a post costs the sandbox's thread a
    // wake-up of the worker, and the last worker would otherwise wait for every other's whole queue to be posted.
    for (let more = true; more;) {
      more = false;
      for (const slot of slots) {
        if (!e.isReady(slot) || slot.sent >= slot.tasks.length) continue;
        this.send(slot, slot.tasks[slot.sent++]);
        more = true;
      }
    }
    if (!this.sendingSince && slots.some((s) => s.sent > 0)) this.sendingSince = performance.now();
    if (q.empty && slots.every((s) => s.tasks.length === 0)) this.finish(this.outcome('done'));
  }

  private send(slot: Slot, task: Task): void {
    const { tokenizer, python, probe: p, models: m } = this.opts;
    const models = m && Object.keys(m).length ? Object.fromEntries(Object.entries(m).map(([k, col]) => [k, col.slice(task.start, task.end)])) : undefined;
    const probe = p && { name: p.name, rows: p.rows.slice(task.start, task.end), ...(p.donors ? { donors: p.donors.slice(task.start, task.end) } : {}) };
    const rows = this.opts.rows?.slice(task.start, task.end);
    const run = {
      kind: 'run',
      taskId: task.id,
      datasetId: this.ds.file.datasetId,
      code: this.code,
      start: task.start,
      end: task.end,
      timeLimitMs: this.limit,
    } as const;
    slot.code = this.code;
    slot.port.post({ ...run, tokenizer, python, models, ...(probe ? { probe } : {}), ...(rows ? { rows } : {}) });
  }

  reply(slot: Slot, m: Extract<FromWorker, { kind: 'result' | 'compile-error' | 'failed' }>): void {
    const task = slot.tasks[0];
    if (this.finished || !task || task.id !== m.taskId || slot.sent === 0) return;
    slot.tasks.shift();
    slot.sent--;
    if (m.kind === 'compile-error') return this.finish({ kind: 'compile-error', message: m.message, line: m.line, stdout: m.stdout });
    if (m.kind === 'failed') {
      // Its worker goes too: a task that fails outright may leave the worker unfit (a changed realm: harden.ts).
      this.engine.replace(slot);
      return this.finish({ kind: 'failed', message: m.message });
    }
    let range;
    try {
      range = checkRangeResult(m.result, task.start, task.end);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.engine.opts.onProtocolError?.(`a reward worker sent a malformed result (${why}); it was dropped`);
      this.fail(task.start, task.end, RowStatus.Error, `the reward worker sent a malformed result (${why})`);
      this.engine.replace(slot);
      this.requeue(slot.tasks);
      return this.next();
    }
    this.merge(range);
    this.pace();
    if (range.status.some((st) => st !== RowStatus.TimedOut)) this.sawProgress = true;
    else this.noteTimeout(slot);
    if (m.stdout) this.outputs.push({ start: range.start, text: m.stdout });
    if (m.moduleStdout && !this.moduleOutput) this.moduleOutput = m.moduleStdout;
    if (m.found && this.result && !this.result.found) this.result.found = m.found;
    this.next();
  }

  /**
   * Tasks cut from now on take at least MIN_TASK_MS and at most MAX_TASK_MS at the speed measured so far (rows done per
   * worker per ms); not before PACE_AFTER_MS, when the first replies say more about the start-up than about the reward.
   */
  private pace(): void {
    const ms = this.sendingSince ? performance.now() - this.sendingSince : 0;
    const workers = this.engine.workers.length;
    const target = this.engine.opts.minTaskMs ?? MIN_TASK_MS;
    if (!(target > 0 && ms >= PACE_AFTER_MS && workers > 0 && this.queue)) return;
    const perMs = this.doneRows / ms / workers;
    this.queue.upTo(perMs * MAX_TASK_MS);
    this.queue.atLeast(perMs * target);
  }

  private next(): void {
    this.progress();
    // Every worker's first rows timed out and nothing else finished: the reward most likely never returns.
    const workers = this.engine.workers.length;
    if (!this.sawProgress && this.timedOutOn.size >= workers && workers > 0) {
      return this.finish({ kind: 'failed', message: 'every row so far timed out: the reward probably never returns' });
    }
    this.grow();
    this.dispatch();
  }

  private noteTimeout(slot: Slot): void {
    const k = this.engine.workers.indexOf(slot);
    if (k >= 0) this.timedOutOn.add(k);
  }

  private merge(r: ReturnType<typeof checkRangeResult>): void {
    const res = this.result!;
    res.scores.set(r.scores, r.start);
    res.status.set(r.status, r.start);
    for (const e of r.errors) res.errors.set(e.row, e);
    for (const note of r.notes) res.notes.set(note.row, note.note);
    for (const [k, arr] of Object.entries(r.strings ?? {})) {
      const strings = (res.strings ??= {});
      let col = Object.hasOwn(strings, k) ? strings[k] : undefined;
      if (!col) {
        // As components: the run keeps the first STRING_COLUMN_LIMIT names its tasks sent.
        if (Object.keys(strings).length >= STRING_COLUMN_LIMIT) continue;
        setOwn(strings, k, (col = new Array<string | null>(this.rows).fill(null)));
      }
      for (let i = 0; i < arr.length; i++) col[r.start + i] = arr[i];
    }
    for (const [k, arr] of Object.entries(r.components)) {
      let col = Object.hasOwn(res.components, k) ? res.components[k] : undefined;
      if (!col) {
        // Tasks may name different components: the run keeps the first COMPONENT_LIMIT names.
        if (Object.keys(res.components).length >= COMPONENT_LIMIT) continue;
        setOwn(res.components, k, (col = new Float64Array(this.rows).fill(Number.NaN)));
      }
      col.set(arr, r.start);
    }
    if (r.steps) this.stepPieces.push({ start: r.start, ...r.steps });
    this.doneRows += r.scores.length;
  }

  /** Rows [a, b) end with this status and message. */
  private fail(a: number, b: number, status: number, message: string): void {
    const res = this.result!;
    for (let r = a; r < b; r++) {
      res.status[r] = status;
      res.scores[r] = Number.NaN;
      res.errors.set(r, { row: r, message });
    }
    this.doneRows += b - a;
  }

  /** Hand these tasks' rows out again, ahead of the rest, in their order. */
  private requeue(tasks: Task[]): void {
    for (let i = tasks.length - 1; i >= 0; i--) this.queue!.giveBack(tasks[i].start, tasks[i].end);
  }

  /**
   * The worker's call on rows [row, row + count) will not end (or killed its worker): those rows fail, the worker is
   * replaced, and the rest of its tasks go back to the queue.
   */
  private stuck(slot: Slot, row: number, count: number, status: number, message: string): void {
    const [task, ...waiting] = slot.tasks;
    const fresh = this.engine.replace(slot);
    const after = Math.min(task.end, row + Math.max(1, count));
    this.fail(row, after, status, message);
    // Rows of the task before the stuck one did run (their results were lost with the worker).
    if (row > task.start || status !== RowStatus.TimedOut) this.sawProgress = true;
    else this.noteTimeout(fresh);
    // Rows of the task before the stuck one were lost with the worker.
    this.requeue(waiting);
    this.queue!.giveBack(after, task.end);
    this.queue!.giveBack(task.start, row);
    this.next();
  }

  /** A malformed reply: the worker's first task fails, the rest go back to the queue. */
  lost(slot: Slot, message: string): void {
    if (this.finished || !this.result) return;
    const [task, ...waiting] = slot.tasks;
    if (!task) return void this.engine.replace(slot);
    this.engine.replace(slot);
    this.fail(task.start, task.end, RowStatus.Error, message);
    this.requeue(waiting);
    this.next();
  }

  /** A worker died on its own; true when this run dealt with it. */
  died(slot: Slot, why: string): boolean {
    if (this.finished || slot.tasks.length === 0 || !this.result) return false;
    if (slot.sent === 0 && this.deaths++ < 2 * this.engine.size) {
      // It died reading the data: its tasks go to the others and a fresh worker reads again.
      this.engine.replace(slot);
      this.requeue(slot.tasks);
      this.next();
      return true;
    }
    const task = slot.tasks[0];
    const row = slot.watch ? Atomics.load(slot.watch.row, 0) : WATCH_IDLE;
    if (row >= task.start && row < task.end) {
      const count = this.engine.opts.interruptible && slot.watch ? Math.max(1, Atomics.load(slot.watch.count, 0)) : 1;
      this.stuck(slot, row, count, RowStatus.Error, `the reward worker died on this row (${why})`);
    } else {
      // Between rows: the task it was on is lost with it.
      this.lost(slot, `the reward worker stopped (${why})`);
    }
    return true;
  }

  /** The watchdog saw `value` running in this worker since `slot.seen.at`. */
  overrun(slot: Slot, value: number, now: number): void {
    const task = slot.tasks[0];
    if (this.finished || !task || value < task.start || value >= task.end || !slot.watch) return;
    const interruptible = this.engine.opts.interruptible;
    const count = interruptible ? Math.max(1, Atomics.load(slot.watch.count, 0)) : 1;
    if (now - slot.seen.at <= this.limit * count) return;
    const message = `timed out after ${this.limit} ms`;
    if (!interruptible) return this.stuck(slot, value, 1, RowStatus.TimedOut, message);
    // KeyboardInterrupt at Python's next check: the call's rows come back timed out and the worker stays.
    const w = slot.watch;
    const r = interruptOverrun(slot.interrupt, w.interrupt, now, Math.max(1000, this.limit), () => Atomics.load(w.row, 0) === value);
    slot.interrupt = r.state;
    if (r.terminate) this.stuck(slot, value, count, RowStatus.TimedOut, message);
  }

  /**
   * Staged start: add the other workers once the scoring left (rows in flight read from the watch slots) would take
   * longer than a worker takes to start and read the file.
   */
  grow(): void {
    const e = this.engine;
    if (!e.opts.staged || this.grown || this.finished || !this.queue || !this.sendingSince || e.workers.length >= e.size) return;
    const startupMs = e.firstLoadMs ?? 0;
    // The scoring began with the first task: until the pool grows, its one worker's, sent once it had read the file.
    const elapsed = performance.now() - this.sendingSince;
    // Too early to tell (the first rows also pay for compiling the reward's hot paths).
    if (elapsed < Math.min(250, startupMs / 2)) return;
    let done = this.doneRows;
    for (const s of e.workers) {
      const task = s.tasks[0];
      const row = s.watch ? Atomics.load(s.watch.row, 0) : WATCH_IDLE;
      if (task && row >= task.start && row < task.end) done += row - task.start;
    }
    const leftMs = done > 0 ? (elapsed * (this.rows - done)) / done : Infinity;
    if (leftMs <= startupMs) return;
    this.grown = true;
    e.fill(e.size);
    for (const s of e.workers) e.ensureData(s);
  }
}

export type { Run };
