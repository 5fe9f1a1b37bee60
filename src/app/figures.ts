/**
 * The diagnostics tabs' figures (core/stats/figures), computed off the page's thread once the data is large: at a
 * million rows one tab's statistics take 100–400 ms, which would block clicks and typing. Each result is kept per
 * inputs (a WeakMap chain on the job's arrays, then its scalars), so a tab drawn again does not ask again; a run's
 * and a dataset's arrays never change once made, so identity is enough.
 */
import { figuresOf, jobRows, type FigureJob, type FigureKind, type FigureOf } from '../core/stats/figures';
import { sharedColumns } from '../runtime/sharedColumns';
import type { StatsReply, StatsRequest } from '../worker/statsWorker';

/** Below this many rows a job runs on the page: ~20 ms for the heaviest tab, less than a round trip to the worker. */
export const PAGE_ROWS = 50_000;

/** One job's figures: `value` (or `error`) once known; `done` settles then. */
export interface Figure<R> {
  value?: R;
  error?: string;
  done: Promise<void>;
}

/** Sends a job to the worker and resolves with its figures. */
export type Compute = (job: FigureJob) => Promise<unknown>;

/** The job's typed arrays, in a fixed order (its cache key), and its scalars as one string. */
function keyOf(job: FigureJob): { arrays: object[]; scalars: string } {
  const arrays: object[] = [];
  const scalars: unknown[] = [];
  for (const k of Object.keys(job).sort()) {
    const v = (job as unknown as Record<string, unknown>)[k];
    if (Array.isArray(v)) {
      scalars.push(k, v.length);
      arrays.push(...(v as object[]));
    } else if (v !== null && typeof v === 'object') arrays.push(v);
    else scalars.push(k, v === null ? 'null' : v);
  }
  return { arrays, scalars: JSON.stringify(scalars) };
}

interface Node {
  next: WeakMap<object, Node>;
  leaves: Map<string, Figure<unknown>>;
}
const node = (): Node => ({ next: new WeakMap(), leaves: new Map() });

/**
 * A figure cache over `compute` (the stats worker's client). Jobs under `pageRows` rows are computed at once on the
 * page: their figures are there on the first render, as they were before the worker.
 */
export function figureCache(compute: Compute, pageRows = PAGE_ROWS) {
  const root = node();
  return function figure<K extends FigureKind>(job: FigureJob & { kind: K }): Figure<FigureOf[K]> {
    const { arrays, scalars } = keyOf(job);
    let at = root;
    for (const a of arrays) {
      let n = at.next.get(a);
      if (!n) at.next.set(a, (n = node()));
      at = n;
    }
    const kept = at.leaves.get(scalars);
    if (kept) return kept as Figure<FigureOf[K]>;
    const f: Figure<FigureOf[K]> = { done: Promise.resolve() };
    if (jobRows(job) < pageRows) {
      try {
        f.value = figuresOf(job as FigureJob) as FigureOf[K];
      } catch (e) {
        f.error = e instanceof Error ? e.message : String(e);
      }
    } else {
      f.done = compute(job).then(
        (v) => void (f.value = v as FigureOf[K]),
        // Kept failed: asking again at the next render would loop on a job that always fails.
        (e: unknown) => void (f.error = e instanceof Error ? e.message : String(e)),
      );
    }
    at.leaves.set(scalars, f);
    return f;
  };
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

/** The stats worker, started on the first large job; a crashed one fails its jobs and is started again next time. */
function statsWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('../../workers/stats.worker.ts', import.meta.url), { type: 'module', name: 'stats' });
  w.onmessage = (ev: MessageEvent<StatsReply>) => {
    const m = ev.data;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if ('error' in m) p.reject(new Error(m.error));
    else p.resolve(m.figures);
  };
  w.onerror = (ev) => {
    ev.preventDefault();
    w.terminate();
    if (worker === w) worker = null;
    for (const p of pending.values()) p.reject(new Error(`the statistics worker stopped: ${ev.message || 'unknown error'}`));
    pending.clear();
  };
  return (worker = w);
}

/**
 * A job for the stats worker: its arrays go as shared copies made once (runtime/sharedColumns; the run and the dataset
 * keep theirs), the figures come back transferred.
 */
function inWorker(job: FigureJob): Promise<unknown> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    statsWorker().postMessage({ id, job: sharedColumns(job) } satisfies StatsRequest);
  });
}

/** The tabs' figures: kept per inputs, computed in the stats worker from PAGE_ROWS rows up. */
export const figure = figureCache(inWorker);
