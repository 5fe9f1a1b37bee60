/**
 * The messages between the engine and its reward workers, the same in the browser and in Node. Each side checks
 * what arrives (`checkToWorker`, `checkFromWorker`): a malformed message is reported and dropped, never used.
 */
import type { DatasetMeta } from '../core/dataset/meta';
import { CATEGORY_TEXT_LIMIT, type Categories } from '../core/dataset/categories';
import type { ColumnMapping, Detection, FormatId } from '../core/formats/types';
import type { LineIndex } from '../core/dataset/lineRows';
import { REWARD_KINDS, type RewardCandidate, type RewardKind } from '../core/python/signatures';
import { COMPONENT_LIMIT, COMPONENT_NAME_LIMIT, NOTE_LIMIT, RowStatus, setOwn } from '../core/reward/contract';
import type { RangeResult, RowError } from '../core/reward/runRows';
import type { WeightedFunction } from '../core/reward/weighted';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { bad, Bad, checked, f64, int, optional, record, str, text, type Check } from './checks';
import { WATCH_SLOTS } from './watch';

export type { DatasetMeta };

/** A dataset's file and how it was imported: every worker reads it itself and gets the same trajectories. */
export interface DatasetFile {
  datasetId: string;
  /** The file (browser), or its path (Node: a file-backed Blob cannot be posted to a worker thread). */
  blob?: Blob;
  path?: string;
  name: string;
  /** null: detect the format as the import does. */
  format?: FormatId | null;
  mapping?: ColumnMapping | null;
  /** A plain JSONL file's row spans: the worker then reads only the rows its tasks need. */
  index?: LineIndex;
}

/** Which Python function to call, and how (see src/core/python/runPython.ts). */
export interface PythonCall {
  name: string;
  kind: RewardKind;
  /** Rows per call for the batch conventions (TRL, verl-batch, OpenRLHF). */
  batchSize: number;
  /** A `reward_funcs` list: each function is called (TRL's way) and the run's score is their weighted total. */
  functions?: WeightedFunction[];
  /**
   * `name` (empty: the first) is among the reward objects found when the module ran (built by imported code, which
   * the parse cannot follow); its kind is read there, `kind` only sizes the tasks.
   */
  whenRun?: boolean;
}

export interface RunTask {
  kind: 'run';
  taskId: number;
  datasetId: string;
  code: string;
  start: number;
  end: number;
  /** The per-row limit, for the message of rows that time out. */
  timeLimitMs?: number;
  /** Load this tokenizer (once) before running, for `ctx.tokenCount`. */
  tokenizer?: TokenizerId;
  python?: PythonCall;
  /** Reward-model scores of rows [start, end) by model name, for `ctx.models`. */
  models?: Record<string, Float64Array>;
}

/** Engine → worker. */
export type ToWorker =
  | { kind: 'init'; watch: SharedArrayBuffer | null }
  | { kind: 'load'; file: DatasetFile; meta?: { label: string | null; groupBy?: string | null } }
  | RunTask
  /** A run has ended: read the rows of this block not held yet, and (Python) make the next run's copies. */
  | { kind: 'idle'; block: [number, number] }
  /** Compile (TypeScript) or parse (Python: list the reward functions, run nothing). */
  | { kind: 'check'; reqId: number; code: string }
  /** Are you there? (a worker that holds tasks but shows no row for a while) */
  | { kind: 'ping'; id: number };

export type CheckResult = { ok: true; candidates: RewardCandidate[] } | { ok: false; message: string; line?: number };

/** Worker → engine. */
export type FromWorker =
  | { kind: 'loaded'; datasetId: string; rows: number; meta?: DatasetMeta }
  | { kind: 'load-failed'; datasetId: string; message: string }
  | { kind: 'checked'; reqId: number; result: CheckResult }
  /** `stdout`: Python print() output of the task; `moduleStdout`: the module's top-level output when it was loaded for it. */
  /** `found`: the reward objects found when the module ran (harness.py `_found_when_run`). */
  | { kind: 'result'; taskId: number; result: RangeResult; stdout?: string; moduleStdout?: string; found?: RewardCandidate[] }
  | { kind: 'compile-error'; taskId: number; message: string; line?: number; stdout?: string }
  | { kind: 'failed'; taskId: number; message: string }
  | { kind: 'pong'; id: number };

// ---- checks at the receiving end ----------------------------------------------------------------------------

/** Component columns: at most COMPONENT_LIMIT names of bounded length, each a column of `n` (`__proto__` is a name like any other). */
export function checkComponents(v: unknown, n: number, where: string): Record<string, Float64Array> {
  const comps = record(v, where);
  const components: Record<string, Float64Array> = {};
  const names = Object.keys(comps);
  if (names.length > COMPONENT_LIMIT) bad(where, `at most ${COMPONENT_LIMIT} components`);
  for (const k of names) {
    if (k.length > COMPONENT_NAME_LIMIT) bad(where, `names of at most ${COMPONENT_NAME_LIMIT} characters`);
    setOwn(components, k, f64(comps[k], n, `${where}.${k}`));
  }
  return components;
}

/** A task's result: sizes match the task, rows lie inside it, statuses are known codes. */
export function checkRangeResult(v: unknown, start: number, end: number, where = 'result'): RangeResult {
  const r = record(v, where);
  const n = end - start;
  if (r.start !== start) bad(`${where}.start`, String(start));
  const scores = f64(r.scores, n, `${where}.scores`);
  const status = r.status instanceof Uint8Array && r.status.length === n ? r.status : bad(`${where}.status`, `a Uint8Array of ${n}`);
  for (let i = 0; i < n; i++) if (status[i] < RowStatus.Ok || status[i] > RowStatus.TimedOut) bad(`${where}.status.${i}`, 'a row status 1–4');
  const row = (x: unknown, at: string) => int(x, at, start, end - 1);
  if (!Array.isArray(r.errors)) bad(`${where}.errors`, 'an array');
  const errors = (r.errors as unknown[]).map((e, i): RowError => {
    const o = record(e, `${where}.errors.${i}`);
    const line = optional(o.line, (x) => int(x, `${where}.errors.${i}.line`, 1));
    const out: RowError = { row: row(o.row, `${where}.errors.${i}.row`), message: text(o.message, `${where}.errors.${i}.message`) };
    if (line !== undefined) out.line = line;
    return out;
  });
  const components = checkComponents(r.components, n, `${where}.components`);
  if (!Array.isArray(r.notes)) bad(`${where}.notes`, 'an array');
  const notes = (r.notes as unknown[]).map((x, i) => {
    const o = record(x, `${where}.notes.${i}`);
    return { row: row(o.row, `${where}.notes.${i}.row`), note: text(o.note, `${where}.notes.${i}.note`, NOTE_LIMIT + 100) };
  });
  return { start, scores, status, errors, components, notes };
}

function checkMeta(v: unknown): DatasetMeta {
  const m = record(v, 'meta');
  const rows = int(m.rows, 'meta.rows', 0);
  const groupOf = m.groupOf instanceof Int32Array && m.groupOf.length === rows ? m.groupOf : bad('meta.groupOf', `an Int32Array of ${rows}`);
  if (!Array.isArray(m.groupKeys) || !m.groupKeys.every((k) => typeof k === 'string')) bad('meta.groupKeys', 'an array of strings');
  const groupKeys = m.groupKeys as string[];
  for (let i = 0; i < rows; i++) if (groupOf[i] < 0 || groupOf[i] >= groupKeys.length) bad(`meta.groupOf.${i}`, 'a group index');
  const labels = m.labels === null ? null : f64(m.labels, rows, 'meta.labels');
  const groupBy = m.groupBy === undefined || m.groupBy === null ? null : checkCategories(m.groupBy, rows);
  if (!Array.isArray(m.issues)) bad('meta.issues', 'an array');
  const issues = (m.issues as unknown[]).map((x, i) => {
    const o = record(x, `meta.issues.${i}`);
    return { line: int(o.line, `meta.issues.${i}.line`, 0), reason: text(o.reason, `meta.issues.${i}.reason`) };
  });
  return {
    rows,
    issues,
    detection: record(m.detection, 'meta.detection') as unknown as Detection,
    groupOf,
    groupKeys,
    lengths: f64(m.lengths, rows, 'meta.lengths'),
    labels,
    labelPresent: int(m.labelPresent, 'meta.labelPresent', 0, rows),
    groupBy,
  };
}

/** A column's categories (core/dataset/categories): a code per row, −1 or an index into the values. */
function checkCategories(v: unknown, rows: number): Categories {
  const g = record(v, 'meta.groupBy');
  const codes = g.codes instanceof Int32Array && g.codes.length === rows ? g.codes : bad('meta.groupBy.codes', `an Int32Array of ${rows}`);
  if (!Array.isArray(g.values) || g.values.length > rows || !g.values.every((x) => typeof x === 'string' && x.length <= CATEGORY_TEXT_LIMIT + 1))
    bad('meta.groupBy.values', `at most ${rows} strings of at most ${CATEGORY_TEXT_LIMIT + 1} characters`);
  const values = g.values as string[];
  for (let i = 0; i < rows; i++) if (codes[i] < -1 || codes[i] >= values.length) bad(`meta.groupBy.codes.${i}`, 'a value index or −1');
  return { codes, values, present: int(g.present, 'meta.groupBy.present', 0, rows) };
}

export function checkCandidates(v: unknown): RewardCandidate[] {
  if (!Array.isArray(v)) return bad('result.candidates', 'an array');
  return v.map((x, i) => {
    const c = record(x, `result.candidates.${i}`);
    str(c.name, `result.candidates.${i}.name`);
    str(c.kind, `result.candidates.${i}.kind`);
    if (c.functions !== undefined) {
      if (!Array.isArray(c.functions)) bad(`result.candidates.${i}.functions`, 'an array');
      (c.functions as unknown[]).forEach((x, j) => {
        const f = record(x, `result.candidates.${i}.functions.${j}`);
        str(f.name, `result.candidates.${i}.functions.${j}.name`);
        if (typeof f.weight !== 'number' || !Number.isFinite(f.weight)) bad(`result.candidates.${i}.functions.${j}.weight`, 'a finite number');
      });
    }
    optional(c.problem, (x) => text(x, `result.candidates.${i}.problem`));
    return c as unknown as RewardCandidate;
  });
}

/** The answer to a `check`: the reward functions found, or why the code does not compile. */
export function checkCheckResult(v: unknown): CheckResult {
  const r = record(v, 'result');
  return r.ok === true
    ? { ok: true, candidates: checkCandidates(r.candidates) }
    : { ok: false, message: text(r.message, 'result.message'), line: optional(r.line, (x) => int(x, 'result.line', 1)) };
}

/**
 * A message from a worker, checked. Task results are checked against their task later (`checkRangeResult`), when
 * the engine knows which task a reply answers.
 */
export function checkFromWorker(v: unknown): Check<FromWorker> {
  return checked((): FromWorker => {
    const m = record(v, 'message');
    switch (m.kind) {
      case 'loaded': {
        const out: FromWorker = { kind: 'loaded', datasetId: str(m.datasetId, 'datasetId'), rows: int(m.rows, 'rows', 0) };
        if (m.meta !== undefined) out.meta = checkMeta(m.meta);
        return out;
      }
      case 'load-failed':
        return { kind: 'load-failed', datasetId: str(m.datasetId, 'datasetId'), message: text(m.message, 'message') };
      case 'checked':
        return { kind: 'checked', reqId: int(m.reqId, 'reqId', 0), result: checkCheckResult(m.result) };
      case 'result':
        return {
          kind: 'result',
          taskId: int(m.taskId, 'taskId', 0),
          result: m.result as RangeResult,
          stdout: optional(m.stdout, (x) => text(x, 'stdout')),
          moduleStdout: optional(m.moduleStdout, (x) => text(x, 'moduleStdout')),
          found: optional(m.found, checkCandidates),
        };
      case 'compile-error':
        return {
          kind: 'compile-error',
          taskId: int(m.taskId, 'taskId', 0),
          message: text(m.message, 'message'),
          line: optional(m.line, (x) => int(x, 'line', 1)),
          stdout: optional(m.stdout, (x) => text(x, 'stdout')),
        };
      case 'failed':
        return { kind: 'failed', taskId: int(m.taskId, 'taskId', 0), message: text(m.message, 'message') };
      case 'pong':
        return { kind: 'pong', id: int(m.id, 'id', 0) };
      default:
        throw new Bad(`unknown message kind ${JSON.stringify(String(m.kind)).slice(0, 60)}`);
    }
  });
}

/**
 * Which Python function to call (checked in the worker and in the sandbox frame): a name, a known kind, a batch size,
 * and for a `reward_funcs` list its functions' names and weights. Returns a fresh object with those fields only.
 */
export function checkPythonCall(v: unknown, where = 'python'): PythonCall {
  const p = record(v, where);
  const call: PythonCall = {
    name: str(p.name, `${where}.name`),
    kind: REWARD_KINDS.includes(p.kind as RewardKind) ? (p.kind as RewardKind) : bad(`${where}.kind`, REWARD_KINDS.join(', ')),
    batchSize: int(p.batchSize, `${where}.batchSize`, 1),
  };
  if (p.whenRun === true) call.whenRun = true;
  if (p.functions === undefined) return call;
  if (!Array.isArray(p.functions) || p.functions.length === 0 || p.functions.length > COMPONENT_LIMIT)
    bad(`${where}.functions`, `1 to ${COMPONENT_LIMIT} functions`);
  call.functions = (p.functions as unknown[]).map((x, i) => {
    const f = record(x, `${where}.functions.${i}`);
    const weight = typeof f.weight === 'number' && Number.isFinite(f.weight) ? f.weight : bad(`${where}.functions.${i}.weight`, 'a finite number');
    return { name: str(f.name, `${where}.functions.${i}.name`), weight };
  });
  return call;
}

/** A message from the engine, checked by the worker before it acts on it. */
export function checkToWorker(v: unknown): Check<ToWorker> {
  return checked((): ToWorker => {
    const m = record(v, 'message');
    switch (m.kind) {
      case 'init':
        if (m.watch !== null && !(m.watch instanceof SharedArrayBuffer && m.watch.byteLength >= WATCH_SLOTS * 4)) bad('watch', 'a SharedArrayBuffer or null');
        return m as ToWorker;
      case 'load': {
        const f = record(m.file, 'file');
        str(f.datasetId, 'file.datasetId');
        str(f.name, 'file.name');
        if (!(f.blob instanceof Blob) && typeof f.path !== 'string') bad('file', 'a blob or a path');
        return m as ToWorker;
      }
      case 'run': {
        str(m.datasetId, 'datasetId');
        str(m.code, 'code');
        int(m.taskId, 'taskId', 0);
        const start = int(m.start, 'start', 0);
        int(m.end, 'end', start);
        if (m.models !== undefined) for (const [k, col] of Object.entries(record(m.models, 'models'))) f64(col, (m.end as number) - start, `models.${k}`);
        if (m.python !== undefined) checkPythonCall(m.python);
        return m as ToWorker;
      }
      case 'idle': {
        if (!Array.isArray(m.block) || m.block.length !== 2) bad('block', 'a pair of rows');
        const [a, b] = m.block as unknown[];
        int(a, 'block.0', 0);
        int(b, 'block.1', a as number);
        return m as ToWorker;
      }
      case 'check':
        int(m.reqId, 'reqId', 0);
        str(m.code, 'code');
        return m as ToWorker;
      case 'ping':
        int(m.id, 'id', 0);
        return m as ToWorker;
      default:
        throw new Bad(`unknown message kind ${JSON.stringify(String(m.kind)).slice(0, 60)}`);
    }
  });
}
