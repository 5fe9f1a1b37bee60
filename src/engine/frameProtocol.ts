/**
 * The messages between the studio page and the reward sandbox: an iframe of opaque origin that holds the engines and
 * their workers (docs/engine.md, "The sandbox"). Each side checks what arrives; the page checks results against the
 * run it asked for, so nothing the sandbox says is rendered unchecked.
 */
import { NOTE_LIMIT, RowStatus, setOwn } from '../core/reward/contract';
import { PROBE_NAMES } from '../core/probe/probes';
import type { RowError } from '../core/reward/runRows';
import { TOKENIZERS, type TokenizerId } from '../core/tokenize/tokenizers';
import { bad, checked, f64, int, optional, record, str, text, type Check } from './checks';
import type { EngineDataset, RunOptions, RunOutcome, RunProgress, RunResult } from './engine';
import type { CheckResult } from './protocol';
import { checkCandidates, checkCheckResult, checkComponents, checkParts, checkPythonCall, checkRowPlaces, checkSteps, checkStrings } from './protocol';

export type PoolId = 'ts' | 'py';
export type FrameRunOptions = Omit<RunOptions, 'onProgress'>;

/** Page → sandbox. The first message, on the window, carries the port every later message uses. */
export type ToFrame =
  | { kind: 'dataset'; pool: PoolId; ds: EngineDataset; load: boolean }
  /** Read now the dataset last sent to `pool` without load (its id): not sent again, with its line spans. */
  | { kind: 'load'; pool: PoolId; datasetId: string }
  | { kind: 'check'; pool: PoolId; reqId: number; code: string }
  /** The user is editing `pool`'s code: the engine may start fresh workers for it (RewardEngine.prepareEdit). */
  | { kind: 'edit'; pool: PoolId }
  | { kind: 'run'; pool: PoolId; runId: number; code: string; opts: FrameRunOptions }
  | { kind: 'cancel'; runId: number }
  | { kind: 'ping'; id: number };

/** Sandbox → page. */
export type FromFrame =
  | { kind: 'ready' }
  | { kind: 'checked'; reqId: number; result: CheckResult }
  | { kind: 'progress'; runId: number; progress: RunProgress }
  | { kind: 'outcome'; runId: number; outcome: RunOutcome }
  | { kind: 'protocol-error'; message: string }
  | { kind: 'pong'; id: number };

/** Python output kept per run is capped by the engine (200,000 characters); a little room for its notice. */
const STDOUT_LIMIT = 201_000;

const pool = (v: unknown): PoolId => (v === 'ts' || v === 'py' ? v : bad('pool', '"ts" or "py"'));

function checkRunOptions(v: unknown, rows: number | undefined): FrameRunOptions {
  const o = record(v, 'opts');
  const out: FrameRunOptions = {};
  if (o.timeLimitMs !== undefined) out.timeLimitMs = int(o.timeLimitMs, 'opts.timeLimitMs', 1);
  if (o.tokenizer !== undefined)
    out.tokenizer = Object.hasOwn(TOKENIZERS, str(o.tokenizer, 'opts.tokenizer')) ? (o.tokenizer as TokenizerId) : bad('opts.tokenizer', 'a tokenizer id');
  if (o.python !== undefined) out.python = checkPythonCall(o.python, 'opts.python');
  if (o.probe !== undefined) out.probe = checkProbeRun(o.probe, rows);
  if (o.rows !== undefined) out.rows = checkSubsetRun(o.rows, rows, out.probe !== undefined);
  if (o.models !== undefined) {
    // A probe or subset run's columns are one per position; otherwise one per dataset row.
    const n = out.probe ? out.probe.rows.length : out.rows ? out.rows.length : rows;
    const models: Record<string, Float64Array> = {};
    for (const [k, col] of Object.entries(record(o.models, 'opts.models')))
      setOwn(
        models,
        k,
        col instanceof Float64Array && (n === undefined || col.length === n)
          ? col
          : bad(`opts.models.${k}`, `a score column${n === undefined ? '' : ` of ${n}`}`),
      );
    out.models = models;
  }
  return out;
}

/** A stress-test run: a known probe, dataset rows (each below the dataset's size, when known) and as many donors. */
function checkProbeRun(v: unknown, rows: number | undefined): NonNullable<FrameRunOptions['probe']> {
  const p = record(v, 'opts.probe');
  const name = PROBE_NAMES.includes(p.name as string) ? (p.name as string) : bad('opts.probe.name', 'a known probe');
  const list = (x: unknown, where: string, n?: number) => {
    if (!(x instanceof Int32Array) || (n !== undefined && x.length !== n)) return bad(where, n === undefined ? 'an Int32Array' : `an Int32Array of ${n}`);
    for (const r of x) if (r < 0 || (rows !== undefined && r >= rows)) bad(where, `rows of the dataset (0 to ${rows === undefined ? 'its size' : rows - 1})`);
    return x;
  };
  const picked = list(p.rows, 'opts.probe.rows');
  return p.donors === undefined ? { name, rows: picked } : { name, rows: picked, donors: list(p.donors, 'opts.probe.donors', picked.length) };
}

/** A row-subset run: ascending dataset rows (each below the dataset's size, when known); never with a probe. */
function checkSubsetRun(v: unknown, size: number | undefined, probe: boolean): Int32Array {
  if (probe) bad('opts.rows', 'absent in a probe run');
  if (!(v instanceof Int32Array)) return bad('opts.rows', 'an Int32Array');
  for (let j = 0; j < v.length; j++)
    if (v[j] < 0 || (size !== undefined && v[j] >= size) || (j > 0 && v[j] <= v[j - 1]))
      bad(`opts.rows.${j}`, `ascending rows of the dataset (0 to ${size === undefined ? 'its size' : size - 1})`);
  return v;
}

function checkDataset(v: unknown): EngineDataset {
  const d = record(v, 'ds');
  const f = record(d.file, 'ds.file');
  str(f.datasetId, 'ds.file.datasetId');
  str(f.name, 'ds.file.name');
  if (f.parts !== undefined) checkParts(f.parts, 'ds.file.parts', false);
  else if (!(f.blob instanceof Blob)) bad('ds.file.blob', 'a Blob');
  checkRowPlaces(f, 'ds.file');
  if (d.size !== undefined) int(d.size, 'ds.size', 0);
  return d as unknown as EngineDataset;
}

/** A request from the page, checked in the sandbox; `rows` is the size of the pool's dataset, when known. */
export function checkToFrame(v: unknown, rows: (pool: PoolId) => number | undefined): Check<ToFrame> {
  return checked((): ToFrame => {
    const m = record(v, 'message');
    switch (m.kind) {
      case 'dataset':
        return { kind: 'dataset', pool: pool(m.pool), ds: checkDataset(m.ds), load: m.load === true };
      case 'load':
        return { kind: 'load', pool: pool(m.pool), datasetId: str(m.datasetId, 'datasetId') };
      case 'check':
        return { kind: 'check', pool: pool(m.pool), reqId: int(m.reqId, 'reqId', 0), code: str(m.code, 'code') };
      case 'edit':
        return { kind: 'edit', pool: pool(m.pool) };
      case 'run': {
        const p = pool(m.pool);
        return { kind: 'run', pool: p, runId: int(m.runId, 'runId', 0), code: str(m.code, 'code'), opts: checkRunOptions(m.opts, rows(p)) };
      }
      case 'cancel':
        return { kind: 'cancel', runId: int(m.runId, 'runId', 0) };
      case 'ping':
        return { kind: 'ping', id: int(m.id, 'id', 0) };
      default:
        return bad('message.kind', 'a request kind');
    }
  });
}

/** A run's results as the page keeps them: every array the dataset's size, rows inside it, statuses known codes. */
export function checkRunResult(v: unknown, n: number): RunResult {
  const r = record(v, 'result');
  const scores = f64(r.scores, n, 'result.scores');
  const status = r.status instanceof Uint8Array && r.status.length === n ? r.status : bad('result.status', `a Uint8Array of ${n}`);
  for (let i = 0; i < n; i++) if (status[i] > RowStatus.TimedOut) bad(`result.status.${i}`, 'a row status 0–4');
  const rowKey = (k: unknown, where: string) => int(k, where, 0, n - 1);
  if (!(r.errors instanceof Map)) bad('result.errors', 'a Map');
  const errors = new Map<number, RowError>();
  for (const [k, e] of r.errors as Map<unknown, unknown>) {
    const row = rowKey(k, 'result.errors key');
    const o = record(e, `result.errors.${row}`);
    const err: RowError = { row, message: text(o.message, `result.errors.${row}.message`) };
    const line = optional(o.line, (x) => int(x, `result.errors.${row}.line`, 1));
    if (line !== undefined) err.line = line;
    errors.set(row, err);
  }
  const components = checkComponents(r.components, n, 'result.components');
  if (!(r.notes instanceof Map)) bad('result.notes', 'a Map');
  const notes = new Map<number, string>();
  for (const [k, note] of r.notes as Map<unknown, unknown>) {
    const row = rowKey(k, 'result.notes key');
    notes.set(row, text(note, `result.notes.${row}`, NOTE_LIMIT + 100));
  }
  const strings = checkStrings(r.strings, n, 'result.strings');
  // Step rewards cross too (the Shaping tab's step transforms read them): they were dropped here before.
  const steps = checkSteps(r.steps, n, 'result.steps');
  const out: RunResult = {
    scores,
    status,
    errors,
    components,
    notes,
    ...(strings ? { strings } : {}),
    ...(steps ? { steps } : {}),
    stdout: text(r.stdout, 'result.stdout', STDOUT_LIMIT),
  };
  if (r.found !== undefined) out.found = checkCandidates(r.found);
  return out;
}

function checkOutcome(v: unknown, rows: number): RunOutcome {
  const o = record(v, 'outcome');
  switch (o.kind) {
    case 'done':
    case 'cancelled':
      return {
        kind: o.kind,
        result: checkRunResult(o.result, rows),
        elapsedMs: typeof o.elapsedMs === 'number' && o.elapsedMs >= 0 ? o.elapsedMs : bad('outcome.elapsedMs', 'a duration'),
        workersUsed: int(o.workersUsed, 'outcome.workersUsed', 0),
      };
    case 'compile-error':
      return {
        kind: 'compile-error',
        message: text(o.message, 'outcome.message'),
        line: optional(o.line, (x) => int(x, 'outcome.line', 1)),
        stdout: optional(o.stdout, (x) => text(x, 'outcome.stdout', STDOUT_LIMIT)),
      };
    case 'load-failed':
    case 'failed':
      return { kind: o.kind, message: text(o.message, 'outcome.message') };
    default:
      return bad('outcome.kind', 'an outcome kind');
  }
}

/** A reply from the sandbox, checked on the page; `rowsOf` gives the row count of a run the page started. */
export function checkFromFrame(v: unknown, rowsOf: (runId: number) => number | undefined): Check<FromFrame> {
  return checked((): FromFrame => {
    const m = record(v, 'message');
    switch (m.kind) {
      case 'ready':
        return { kind: 'ready' };
      case 'checked':
        return { kind: 'checked', reqId: int(m.reqId, 'reqId', 0), result: checkCheckResult(m.result) };
      case 'progress': {
        const runId = int(m.runId, 'runId', 0);
        const p = record(m.progress, 'progress');
        const total = int(p.total, 'progress.total', 0);
        const rate = typeof p.rowsPerSecond === 'number' && p.rowsPerSecond >= 0 ? p.rowsPerSecond : bad('progress.rowsPerSecond', 'a rate');
        return { kind: 'progress', runId, progress: { done: int(p.done, 'progress.done', 0, total), total, rowsPerSecond: rate } };
      }
      case 'outcome': {
        const runId = int(m.runId, 'runId', 0);
        const rows = rowsOf(runId);
        if (rows === undefined) return bad('runId', 'a run in flight');
        return { kind: 'outcome', runId, outcome: checkOutcome(m.outcome, rows) };
      }
      case 'protocol-error':
        return { kind: 'protocol-error', message: text(m.message, 'message', 2000) };
      case 'pong':
        return { kind: 'pong', id: int(m.id, 'id', 0) };
      default:
        return bad('message.kind', 'a reply kind');
    }
  });
}
