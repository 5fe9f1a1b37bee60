/**
 * The messages between the engine and its reward workers, the same in the browser and in Node. Each side checks
 * what arrives (`checkToWorker`, `checkFromWorker`): a malformed message is reported and dropped, never used.
 */
import type { DatasetMeta } from '../core/dataset/meta';
import { CATEGORY_TEXT_LIMIT, type Categories } from '../core/dataset/categories';
import type { ColumnMapping, Detection, FormatId } from '../core/formats/types';
import type { LineIndex } from '../core/dataset/lineRows';
import { PART_LIMIT, PART_NAME_LIMIT } from '../core/dataset/parts';
import { PROBE_NAMES } from '../core/probe/probes';
import { REWARD_KINDS, type RewardCandidate, type RewardKind } from '../core/python/signatures';
import {
  COMPONENT_LIMIT,
  COMPONENT_NAME_LIMIT,
  NOTE_LIMIT,
  RowStatus,
  setOwn,
  stepsProblem,
  STRING_COLUMN_LIMIT,
  STRING_VALUE_LIMIT,
} from '../core/reward/contract';
import type { RangeResult, RowError } from '../core/reward/runRows';
import type { WeightedFunction } from '../core/reward/weighted';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { bad, Bad, bool, checked, f64, int, optional, record, str, text, type Check } from './checks';
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
  /** A Parquet file: per row, the 1-based row of the file it comes from; the worker then reads only the rows its tasks need. */
  records?: Int32Array;
  /**
   * A dataset of several files (core/dataset/parts.ts), in reading order; `blob`, `path` and `index` are then unused.
   * Each part's rows follow the previous part's; rows without a step get the part's.
   */
  parts?: DatasetPart[];
  /**
   * Read the rows for each task and let go of them after it (the CLI's one run over a file too large to keep); only
   * where every row has its line in an `index`.
   */
  lean?: boolean;
}

/** One file of a dataset of several files. */
export interface DatasetPart {
  blob?: Blob;
  path?: string;
  /** Its name (its path in the folder), for messages. */
  name: string;
  /** The step its name gives, or null. */
  step: number | null;
  index?: LineIndex;
  /** As `DatasetFile.records`. */
  records?: Int32Array;
  /** The rows the import found in it (the browser): a worker then reads it only when a task reaches them. */
  rows?: number;
}

/**
 * A dataset's parts as a boundary receives them: 1 to PART_LIMIT, each with a name of at most PART_NAME_LIMIT
 * characters, a Blob (or, where `paths` is true, a path), a step that is null or a finite number, and an index
 * whose arrays fit each other.
 */
export function checkParts(v: unknown, where: string, paths: boolean): DatasetPart[] {
  if (!Array.isArray(v) || v.length < 1 || v.length > PART_LIMIT) return bad(where, `an array of 1 to ${PART_LIMIT} parts`);
  return v.map((x, i) => {
    const p = record(x, `${where}.${i}`);
    const name = str(p.name, `${where}.${i}.name`);
    if (name.length > PART_NAME_LIMIT) bad(`${where}.${i}.name`, `at most ${PART_NAME_LIMIT} characters`);
    if (!(p.blob instanceof Blob) && !(paths && typeof p.path === 'string')) bad(`${where}.${i}`, paths ? 'a blob or a path' : 'a Blob');
    if (p.step !== null && !(typeof p.step === 'number' && Number.isFinite(p.step))) bad(`${where}.${i}.step`, 'null or a finite number');
    checkRowPlaces(p, `${where}.${i}`);
    if (p.rows !== undefined) int(p.rows, `${where}.${i}.rows`, 0);
    return p as unknown as DatasetPart;
  });
}

/** A file's line index as a boundary receives it: spans twice as long as lines. */
function checkLineIndex(v: unknown, where: string): LineIndex {
  const ix = record(v, where);
  if (!(ix.lines instanceof Int32Array) || !(ix.spans instanceof Float64Array) || ix.spans.length !== 2 * ix.lines.length)
    bad(where, 'spans (Float64Array) twice as long as lines (Int32Array)');
  return ix as unknown as LineIndex;
}

/** A pool has at most 256 workers (--workers), so an idle notice at most this many tails. */
const MAX_TAILS = 256;

/** Rows [a, b) as a pair of integers 0 ≤ a ≤ b. */
function checkRows(v: unknown, where: string): void {
  if (!Array.isArray(v) || v.length !== 2) bad(where, 'a pair of rows');
  const [a, b] = v as unknown[];
  int(a, `${where}.0`, 0);
  int(b, `${where}.1`, a as number);
}

/** Where a file's rows are, as a boundary receives them: `${where}.index` (plain JSONL) and `${where}.records` (Parquet). */
export function checkRowPlaces(f: { index?: unknown; records?: unknown }, where: string): void {
  if (f.index !== undefined) checkLineIndex(f.index, `${where}.index`);
  if (f.records !== undefined) checkRecordRows(f.records, `${where}.records`);
}

/** A file's source rows per row as a boundary receives them: an Int32Array of rows ≥ 1, ascending (equal within a record). */
function checkRecordRows(v: unknown, where: string): Int32Array {
  if (!(v instanceof Int32Array)) return bad(where, 'an Int32Array');
  for (let i = 0; i < v.length; i++) if (!(v[i] >= 1 && (i === 0 || v[i] >= v[i - 1]))) bad(`${where}.${i}`, 'rows ≥ 1, ascending');
  return v;
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
  /** A stress-test run: positions [start, end) are rows `rows` of the dataset with probe `name` applied. */
  probe?: ProbeTask;
  /** A row-subset run (`--shard`): position start + j is dataset row rows[j] (ascending). */
  rows?: Int32Array;
}

/** One task's share of a probe run: the dataset row of each position, and (for `cross`) the row lending its completion. */
export interface ProbeTask {
  name: string;
  rows: Int32Array;
  donors?: Int32Array;
}

/**
 * A piece of a plain JSONL file for one worker to read at once with the others (the CLI): bytes [start, end), cut
 * after a newline, `lineOffset` physical lines before it, read with the format the file's head gave.
 */
export interface PieceRequest {
  kind: 'piece';
  datasetId: string;
  path: string;
  name: string;
  start: number;
  end: number;
  lineOffset: number;
  format: FormatId;
  mapping: ColumnMapping | null;
  meta: { label: string | null; groupBy: string | null };
  /** Take the rows' facts a stretch at a time and keep no row (the dataset set next is `lean`). */
  lean?: boolean;
}

/** Engine → worker. */
export type ToWorker =
  | { kind: 'init'; watch: SharedArrayBuffer | null }
  | PieceRequest
  | { kind: 'load'; file: DatasetFile; meta?: { label: string | null; groupBy?: string | null } }
  | RunTask
  /**
   * A run has ended: read the rows not held yet of `block` (the worker's next run starts there) and of `tails` (the
   * other blocks' ends, which it takes when done first), and (Python) make the next run's copies.
   */
  | { kind: 'idle'; block: [number, number]; tails?: [number, number][]; python?: PythonCall }
  /** Compile (TypeScript) or parse (Python: list the reward functions, run nothing). */
  | { kind: 'check'; reqId: number; code: string }
  /** Are you there? (a worker that holds tasks but shows no row for a while) */
  | { kind: 'ping'; id: number };

export type CheckResult =
  /** functions: a TypeScript module's `rewardFuncs` list (Python's reward_funcs lists are candidates). */
  { ok: true; candidates: RewardCandidate[]; functions?: WeightedFunction[] } | { ok: false; message: string; line?: number };

/** Worker → engine. */
export type FromWorker =
  /** A piece read: its rows' facts (`meta`, lines numbered in the whole file) and where each row's line is. */
  | { kind: 'piece-read'; datasetId: string; meta: DatasetMeta; index: LineIndex }
  | { kind: 'piece-failed'; datasetId: string; message: string }
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

/**
 * Text columns (a dict result's strings): at most STRING_COLUMN_LIMIT names of bounded length, each an array of `n`
 * strings or nulls, each string at most STRING_VALUE_LIMIT characters and its ellipsis (Python counts code points,
 * so twice that in UTF-16 units is accepted). Absent is none.
 */
export function checkStrings(v: unknown, n: number, where: string): Record<string, (string | null)[]> | undefined {
  if (v === undefined) return undefined;
  const cols = record(v, where);
  const out: Record<string, (string | null)[]> = {};
  const names = Object.keys(cols);
  if (names.length > STRING_COLUMN_LIMIT) bad(where, `at most ${STRING_COLUMN_LIMIT} text columns`);
  for (const k of names) {
    if (k.length > COMPONENT_NAME_LIMIT) bad(where, `names of at most ${COMPONENT_NAME_LIMIT} characters`);
    const col = cols[k];
    if (!Array.isArray(col) || col.length !== n) bad(`${where}.${k}`, `an array of ${n}`);
    const values = (col as unknown[]).map((x, i) => {
      if (x === null) return null;
      if (typeof x !== 'string' || x.length > 2 * STRING_VALUE_LIMIT + 2)
        return bad(`${where}.${k}.${i}`, `null or a string of at most ${STRING_VALUE_LIMIT} characters`);
      return x;
    });
    setOwn(out, k, values);
  }
  return out;
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
  const strings = checkStrings(r.strings, n, `${where}.strings`);
  const steps = checkSteps(r.steps, n, `${where}.steps`);
  return { start, scores, status, errors, components, notes, ...(strings ? { strings } : {}), ...(steps ? { steps } : {}) };
}

/** Step rewards: offsets (n + 1, from 0, each row at most STEP_LIMIT steps) and finite values. Absent is none. */
export function checkSteps(v: unknown, n: number, where: string): { offsets: Int32Array; values: Float64Array } | undefined {
  if (v === undefined) return undefined;
  const o = record(v, where);
  const offsets = o.offsets instanceof Int32Array ? o.offsets : bad(`${where}.offsets`, `an Int32Array of ${n + 1} from 0`);
  const values = o.values instanceof Float64Array ? o.values : bad(`${where}.values`, 'a Float64Array');
  const p = stepsProblem({ offsets, values }, n);
  if (p) bad(`${where}.${p.at}`, p.expected);
  return { offsets, values };
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
    const line = int(o.line, `meta.issues.${i}.line`, 0);
    const reason = text(o.reason, `meta.issues.${i}.reason`);
    return o.file === undefined ? { line, reason } : { line, reason, file: text(o.file, `meta.issues.${i}.file`) };
  });
  return {
    rows,
    issues,
    detection: record(m.detection, 'meta.detection') as unknown as Detection,
    groupOf,
    groupKeys,
    lengths: f64(m.lengths, rows, 'meta.lengths'),
    steps: f64(m.steps, rows, 'meta.steps'),
    truncated: truncatedColumn(f64(m.truncated, rows, 'meta.truncated')),
    labels,
    labelPresent: int(m.labelPresent, 'meta.labelPresent', 0, rows),
    groupBy,
  };
}

/**
 * A piece's line index: a span and a line per row, spans non-negative, each ending at or after its start and starting
 * at or after the previous row's start, lines ≥ 1 and never decreasing (the engine checks the joined pieces again).
 */
function checkPieceIndex(v: unknown, rows: number): LineIndex {
  const ix = record(v, 'index');
  const spans = ix.spans instanceof Float64Array && ix.spans.length === 2 * rows ? ix.spans : bad('index.spans', `a Float64Array of ${2 * rows}`);
  const lines = ix.lines instanceof Int32Array && ix.lines.length === rows ? ix.lines : bad('index.lines', `an Int32Array of ${rows}`);
  let start = 0;
  let line = 1;
  for (let i = 0; i < rows; i++) {
    const s = spans[2 * i];
    // NaN fails every comparison; a fraction would be floored by Blob.slice, and is refused here.
    if (!(s >= start && spans[2 * i + 1] >= s && s % 1 === 0 && spans[2 * i + 1] % 1 === 0)) bad(`index.spans.${2 * i}`, 'byte ranges, starts ascending');
    if (!(lines[i] >= line)) bad(`index.lines.${i}`, 'lines ≥ 1, ascending');
    start = s;
    line = lines[i];
  }
  return { spans, lines };
}

/** A truncation column holds 1, 0 or NaN per row: anything else is a bad message. */
function truncatedColumn(a: Float64Array): Float64Array {
  for (let i = 0; i < a.length; i++) if (a[i] !== 0 && a[i] !== 1 && !Number.isNaN(a[i])) bad(`meta.truncated.${i}`, '1, 0 or NaN');
  return a;
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
    if (c.functions !== undefined) checkFunctionList(c.functions, `result.candidates.${i}.functions`, 0);
    optional(c.problem, (x) => text(x, `result.candidates.${i}.problem`));
    return c as unknown as RewardCandidate;
  });
}

/** Names and weights of several reward functions; `least` 0 for a list a candidate names with a problem. */
function checkFunctionList(v: unknown, where: string, least = 1): WeightedFunction[] {
  if (!Array.isArray(v) || v.length < least || v.length > COMPONENT_LIMIT) bad(where, `${least} to ${COMPONENT_LIMIT} functions`);
  return (v as unknown[]).map((x, j) => {
    const f = record(x, `${where}.${j}`);
    const name = str(f.name, `${where}.${j}.name`);
    if (typeof f.weight !== 'number' || !Number.isFinite(f.weight)) bad(`${where}.${j}.weight`, 'a finite number');
    return { name, weight: f.weight as number };
  });
}

/** The answer to a `check`: the reward functions found, or why the code does not compile. */
export function checkCheckResult(v: unknown): CheckResult {
  const r = record(v, 'result');
  if (r.ok !== true) return { ok: false, message: text(r.message, 'result.message'), line: optional(r.line, (x) => int(x, 'result.line', 1)) };
  const candidates = checkCandidates(r.candidates);
  return r.functions === undefined ? { ok: true, candidates } : { ok: true, candidates, functions: checkFunctionList(r.functions, 'result.functions') };
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
      case 'piece-read': {
        const meta = checkMeta(m.meta);
        return { kind: 'piece-read', datasetId: str(m.datasetId, 'datasetId'), meta, index: checkPieceIndex(m.index, meta.rows) };
      }
      case 'piece-failed':
        return { kind: 'piece-failed', datasetId: str(m.datasetId, 'datasetId'), message: text(m.message, 'message') };
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
  call.functions = checkFunctionList(p.functions, `${where}.functions`);
  return call;
}

/** A probe task: a known probe, and one non-negative row per position (the worker checks each is one of its rows). */
function checkProbeTask(v: unknown, n: number): void {
  const p = record(v, 'probe');
  if (!PROBE_NAMES.includes(p.name as string)) bad('probe.name', 'a known probe');
  for (const key of ['rows', 'donors'] as const) {
    const a = p[key];
    if (key === 'donors' && a === undefined) continue;
    if (!(a instanceof Int32Array) || a.length !== n) bad(`probe.${key}`, `an Int32Array of ${n}`);
    for (const r of a as Int32Array) if (r < 0) bad(`probe.${key}`, 'rows ≥ 0');
  }
}

/** A subset task's rows: one per position, ascending and ≥ 0 (the worker checks each is one of its rows); no probe. */
function checkSubset(a: unknown, n: number, probe: boolean): void {
  if (probe) bad('rows', 'absent in a probe task');
  if (!(a instanceof Int32Array) || a.length !== n) bad('rows', `an Int32Array of ${n}`);
  const rows = a as Int32Array;
  for (let j = 0; j < n; j++) if (rows[j] < 0 || (j > 0 && rows[j] <= rows[j - 1])) bad(`rows.${j}`, 'rows ≥ 0, ascending');
}

/** A message from the engine, checked by the worker before it acts on it. */
export function checkToWorker(v: unknown): Check<ToWorker> {
  return checked((): ToWorker => {
    const m = record(v, 'message');
    switch (m.kind) {
      case 'init':
        if (m.watch !== null && !(m.watch instanceof SharedArrayBuffer && m.watch.byteLength >= WATCH_SLOTS * 4)) bad('watch', 'a SharedArrayBuffer or null');
        return m as ToWorker;
      case 'piece': {
        str(m.datasetId, 'datasetId');
        str(m.path, 'path');
        str(m.name, 'name');
        const start = int(m.start, 'start', 0);
        int(m.end, 'end', start);
        int(m.lineOffset, 'lineOffset', 0);
        str(m.format, 'format');
        if (m.mapping !== null) record(m.mapping, 'mapping');
        record(m.meta, 'meta');
        optional(m.lean, (v) => bool(v, 'lean'));
        return m as ToWorker;
      }
      case 'load': {
        const f = record(m.file, 'file');
        str(f.datasetId, 'file.datasetId');
        str(f.name, 'file.name');
        if (f.parts !== undefined) checkParts(f.parts, 'file.parts', true);
        else if (!(f.blob instanceof Blob) && typeof f.path !== 'string') bad('file', 'a blob or a path');
        checkRowPlaces(f, 'file');
        optional(f.lean, (v) => bool(v, 'file.lean'));
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
        if (m.probe !== undefined) checkProbeTask(m.probe, (m.end as number) - start);
        if (m.rows !== undefined) checkSubset(m.rows, (m.end as number) - start, m.probe !== undefined);
        return m as ToWorker;
      }
      case 'idle': {
        checkRows(m.block, 'block');
        if (m.tails !== undefined) {
          if (!Array.isArray(m.tails) || m.tails.length > MAX_TAILS) bad('tails', `an array of at most ${MAX_TAILS} pairs of rows`);
          (m.tails as unknown[]).forEach((t, i) => checkRows(t, `tails.${i}`));
        }
        if (m.python !== undefined) checkPythonCall(m.python);
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
