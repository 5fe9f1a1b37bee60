/**
 * Run a Python reward (TRL, verl or OpenRLHF style) on a range of rows inside a loaded Pyodide, reported in the
 * same `RangeResult` shape as `runRows`, plus the `print()` output. Conventions and sources: docs/python-rewards.md.
 */
import type { PyodideAPI } from 'pyodide';
import { RowStatus } from '../reward/contract';
import type { ModelColumns } from '../reward/context';
import type { RangeResult, RowError } from '../reward/runRows';
import { combineFunctions, type WeightedFunction } from '../reward/weighted';
import type { TokenEncoder } from '../tokenize/tokenIds';
import type { Message, Trajectory } from '../trajectory';
import { harnessFor, type HarnessResult } from './harness';
import { isContainer, jsonValue, MarshalWriter } from './marshal';
import { isPerRow, type RewardCandidate, type RewardKind } from './signatures';

/** The chosen function: its name in the user's code and how to call it. */
export interface PythonRewardChoice {
  name: string;
  kind: RewardKind;
  /** A `reward_funcs` list: each function called TRL's way on the range, the score their weighted total (core/reward/weighted). */
  functions?: readonly WeightedFunction[];
}

/** `print()` output of one call: `rows` rows starting at dataset row `row` (rows = 1 for per-row calls). */
export interface PythonOutput {
  row: number;
  rows: number;
  text: string;
}

export interface PythonRangeResult extends RangeResult {
  /** All `print()` / stderr output of the range, in call order (each call's text is capped at 20,000 characters). */
  stdout: string;
  /** The same output, call by call. */
  output: PythonOutput[];
  /** TRL `log_metric(name, value)` calls, in order (value null when not a finite number). */
  metrics: { name: string; value: number | null }[];
}

export interface PythonRunOptions {
  /** Rows per call for the batch kinds (trl, verl-batch, openrlhf); default 32. verl is always called per row. */
  batchSize?: number;
  /** Called before each call with its first dataset row and its row count (publish it to the pool's watchdog). */
  onCall?: (row: number, rows: number) => void;
  /** The buffer given to `pyodide.setInterruptBuffer`: cleared before each call. */
  interrupt?: Int32Array;
  /**
   * Called before the range runs again after an interrupt landed in the harness's own code: reset the watch slot
   * (the first call of the new attempt may be on the row the watchdog last saw, and must be timed afresh).
   */
  beforeRetry?: () => void;
  /** Only used in the message of timed-out rows ("timed out after N ms", as the JS pool writes it). */
  timeLimitMs?: number;
  /**
   * The identity of the rows behind `rowAt` (e.g. the worker's rows array): the same object always means the same
   * rows. With it, the interpreter keeps the rows it has converted (up to 256 MB) and later runs on the same
   * dataset only call the function: for a worker that scores the same dataset again and again while the user edits
   * the reward. Lists and dicts are still handed to each call as fresh copies.
   */
  datasetKey?: object;
  /**
   * Reward-model scores (`columns[name][i - offset]` for row i): verl functions find them in
   * `extra_info["rollout_reward_scores"]`, TRL functions in the column `model_scores` (one dict per completion).
   * OpenRLHF's `reward_func(queries, prompts, labels)` has no place for them.
   */
  models?: ModelColumns;
  /**
   * TRL's `completion_ids`: the chosen tokenizer's encoder, used only for a function that can read them (see
   * `wantsCompletionIds`). A string instead says why there are none (no tokenizer chosen, or it failed to load): a
   * function that reads them then fails its rows with it rather than see None.
   */
  completionIds?: TokenEncoder | string;
}

/** What rows of a function that reads completion_ids say when the run has no tokenizer (the studio always has one). */
export const NO_TOKENIZER_MESSAGE =
  'completion_ids are the token ids of each completion, and no tokenizer was chosen: pick one under Tokenizer ' +
  '(the CLI: --tokenizer gpt2, qwen3 or llama3)';

/** The code does not load: a syntax error, an exception at import time, or the chosen function is missing. */
export class PythonLoadError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly stdout = '',
  ) {
    super(message);
    this.name = 'PythonLoadError';
  }
}

/** `found`: names the parse could not follow (built by imported code) whose value is a reward, read once the module ran. */
export type LoadOutcome = { ok: true; stdout: string; found: RewardCandidate[] } | { ok: false; message: string; line?: number; stdout: string };

/**
 * Run the user's module (as `reward`, file `reward.py`) in this Pyodide instance, replacing any earlier one.
 * Top-level `print()` output is returned; code under `if __name__ == "__main__":` does not run.
 */
export function loadRewardModule(py: PyodideAPI, code: string): LoadOutcome {
  const h = harnessFor(py);
  h.loaded = null;
  const r = JSON.parse(h.load(code)) as { ok: boolean; message?: string; line?: number | null; stdout: string; found?: RewardCandidate[] };
  if (!r.ok) {
    const out: LoadOutcome = { ok: false, message: r.message ?? 'the code did not load', stdout: r.stdout };
    if (r.line != null) out.line = r.line;
    return out;
  }
  h.loaded = code;
  return { ok: true, stdout: r.stdout, found: r.found ?? [] };
}

/** The scores of rows [start, end) per model as JSON, NaN (no score) as null; undefined without models. */
function modelsJson(m: ModelColumns | undefined, start: number, end: number): string | undefined {
  if (!m || Object.keys(m.columns).length === 0) return undefined;
  const out: Record<string, (number | null)[]> = {};
  for (const [name, col] of Object.entries(m.columns)) {
    out[name] = Array.from(col.subarray(start - m.offset, end - m.offset), (v) => (Number.isFinite(v) ? v : null));
  }
  return JSON.stringify(out);
}

/**
 * The error message for a module that is not available, as harness.py's `_missing_module` writes it for rows; for
 * packages reward files often import it adds what the studio offers instead (". Instead: ...").
 */
export function missingModuleMessage(name: string): string {
  return (
    `ModuleNotFoundError: No module named '${name}' (Python runs offline in the browser with Pyodide: the standard ` +
    `library, sympy and mpmath are available; no other packages)`
  );
}

// ---------------------------------------------------------------------------------------------- row payloads

/** A message as TRL's conversational format writes it. */
function trlMessage(m: Message): Record<string, unknown> {
  const out: Record<string, unknown> = { role: m.role, content: m.content };
  if (m.toolCalls) {
    out.tool_calls = m.toolCalls.map((c) => ({
      type: 'function',
      ...(c.id !== undefined ? { id: c.id } : {}),
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  if (m.name !== undefined) out.name = m.name;
  if (m.toolCallId !== undefined) out.tool_call_id = m.toolCallId;
  return out;
}

/**
 * The text whose token ids are TRL's `completion_ids`: the last assistant message's content in a chat, else the
 * completion (docs/completion-ids.md).
 */
export function completionIdsText(t: Trajectory): string {
  const k = lastAssistant(t.messages);
  return k >= 0 ? t.messages[k].content : t.completion;
}

function lastAssistant(messages: Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return i;
  return -1;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether TRL would see this row as conversational (message lists), and its prompt and completion values. */
export function trlPromptCompletion(t: Trajectory): { prompt: unknown; completion: unknown; conversational: boolean } {
  const f = t.fields;
  if (Array.isArray(f.completion)) return { prompt: f.prompt, completion: f.completion, conversational: true };
  if (Array.isArray(f.messages)) {
    const k = lastAssistant(t.messages);
    if (k >= 0) {
      return { prompt: t.messages.slice(0, k).map(trlMessage), completion: t.messages.slice(k).map(trlMessage), conversational: true };
    }
  }
  return { prompt: t.prompt, completion: t.completion, conversational: false };
}

/** The data one row contributes to a call of this kind (what runPython sends to Python, as JSON). */
export function rowPayload(kind: RewardKind, t: Trajectory): Record<string, unknown> {
  const f = t.fields;
  const groundTruth = t.groundTruth ?? null;
  if (kind === 'trl') {
    const { prompt, completion } = trlPromptCompletion(t);
    const columns: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(f)) if (k !== 'prompt' && k !== 'completion' && k !== 'completion_ids') columns[k] = v;
    if (!('ground_truth' in columns) && t.groundTruth !== undefined) columns.ground_truth = t.groundTruth;
    return { prompt, completion, columns, step: t.step ?? null };
  }
  if (kind === 'openrlhf') return { query: t.prompt + t.completion, prompt: t.prompt, label: groundTruth };
  const extraInfo: Record<string, unknown> = isObject(f.extra_info) ? { ...f.extra_info } : {};
  if (!('num_turns' in extraInfo)) extraInfo.num_turns = f.__num_turns__ ?? null;
  if (!('rollout_reward_scores' in extraInfo)) extraInfo.rollout_reward_scores = isObject(f.reward_scores) ? f.reward_scores : {};
  const ds = f.data_source;
  return {
    data_source: typeof ds === 'string' ? ds : ds == null ? '' : String(ds),
    solution_str: t.completion,
    ground_truth: groundTruth,
    extra_info: extraInfo,
  };
}

/** The values of a row's payload, in the order the harness reads them (its `_FIELDS`). */
const ROW_FIELDS: Readonly<Record<RewardKind, readonly string[]>> = {
  trl: ['prompt', 'completion', 'columns', 'step'],
  verl: ['data_source', 'solution_str', 'ground_truth', 'extra_info'],
  'verl-source': ['data_source', 'solution_str', 'ground_truth', 'extra_info'],
  'verl-batch': ['data_source', 'solution_str', 'ground_truth', 'extra_info'],
  openrlhf: ['query', 'prompt', 'label'],
};

/**
 * One row as the harness reads it: `(v0, ..., vk-1, mask, blob)`, values as json.loads of their JSON would give
 * them (marshal.ts). With `copies`, lists and dicts (bit j of mask) go into blob, marshal bytes of their tuple,
 * which the harness loads again for each run (so a row kept across runs never shows one run's mutations to the
 * next); without, they are written in place and mask is 0.
 */
function writeRow(w: MarshalWriter, names: readonly string[], payload: Record<string, unknown>, copies: boolean): void {
  const k = names.length;
  w.seq('(', k + 2);
  let mask = 0;
  const values = names.map((n) => jsonValue(payload[n]));
  for (let j = 0; j < k; j++) {
    if (copies && isContainer(values[j])) {
      mask |= 1 << j;
      w.value(null);
    } else w.value(values[j]);
  }
  w.number(mask);
  if (mask === 0) {
    w.value(null);
    return;
  }
  const at = w.beginBytes();
  w.seq('(', values.filter((_, j) => (mask >> j) & 1).length);
  for (let j = 0; j < k; j++) if ((mask >> j) & 1) w.value(values[j]);
  w.endBytes(at);
}

/**
 * One row of `kind` for `t`, as `writeRow` writes its `rowPayload`. A verl row whose record has no `extra_info`,
 * `__num_turns__` or `reward_scores` (most rollout files), with a string or no `data_source` and ground truth, takes
 * `fast`: its three strings, then the rest pre-encoded (`verlTail`), without the payload's objects: ~1 µs a row less.
 */
export function writeRowOf(w: MarshalWriter, kind: RewardKind, t: Trajectory, copies: boolean, fast = true): void {
  const f = t.fields;
  const ds = f.data_source;
  const gt = t.groundTruth;
  if (
    fast &&
    (kind === 'verl' || kind === 'verl-source' || kind === 'verl-batch') &&
    f.extra_info === undefined &&
    f.__num_turns__ === undefined &&
    f.reward_scores === undefined &&
    (ds == null || typeof ds === 'string') &&
    (gt == null || typeof gt === 'string') &&
    typeof t.completion === 'string'
  ) {
    w.seq('(', 6);
    w.str(ds ?? '');
    w.str(t.completion);
    if (gt == null) w.value(null);
    else w.str(gt);
    w.raw(verlTail(copies));
    return;
  }
  writeRow(w, ROW_FIELDS[kind], rowPayload(kind, t), copies);
}

/** What follows a verl row's three strings when its extra_info is the default one: taken from `writeRow` itself. */
const verlTails: Partial<Record<'copies' | 'inPlace', Uint8Array>> = {};
function verlTail(copies: boolean): Uint8Array {
  const k = copies ? 'copies' : 'inPlace';
  let tail = verlTails[k];
  if (tail === undefined) {
    const w = new MarshalWriter();
    writeRow(w, ROW_FIELDS.verl, { data_source: '', solution_str: '', ground_truth: null, extra_info: { num_turns: null, rollout_reward_scores: {} } }, copies);
    // '(' and its count (5 bytes), two empty strings (5 each), None (1): 16 bytes before the extra_info.
    tail = verlTails[k] = w.bytes().slice(16);
  }
  return tail;
}

/** The marshal buffer of the last range, reused by the next (growing a fresh one range after range cost more than writing). */
let scratch: Uint8Array | undefined;
const SCRATCH_LIMIT = 64 * 1024 * 1024;

const datasetKeys = new WeakMap<object, number>();
let nextDatasetKey = 1;

// ---------------------------------------------------------------------------------------------- running

interface RawResult {
  errors: [number, string, number | null][];
  components: Record<string, (number | null)[]>;
  notes: [number, string][];
  /** A dict result's string values by name, one per row (harness.py caps names and lengths). */
  strings?: Record<string, (string | null)[]>;
  /** Step rewards by row (a verl dict's `steps`); absent in results from before. */
  steps?: [number, number[]][];
  output: [number, number, string][];
  metrics: [string, number | null][];
}

/**
 * Score rows [start, end) with `choice` from `code` (loaded first if this instance has other code loaded; a load
 * failure or a missing function throws PythonLoadError). Every row ends Ok, Null, Error or TimedOut.
 */
export function runPython(
  py: PyodideAPI,
  code: string,
  choice: PythonRewardChoice,
  rowAt: (i: number) => Trajectory,
  start: number,
  end: number,
  opts: PythonRunOptions = {},
): PythonRangeResult {
  const h = harnessFor(py);
  let loadStdout = '';
  if (h.loaded !== code) {
    const l = loadRewardModule(py, code);
    if (!l.ok) throw new PythonLoadError(l.message, l.line, l.stdout);
    loadStdout = l.stdout;
  }
  // The rows Python needs: all of the range, or without a dataset key those it does not hold yet.
  let key: number | undefined;
  let spans: [number, number][] = [[start, end]];
  if (opts.datasetKey !== undefined) {
    key = keyOf(opts.datasetKey);
    spans = JSON.parse(h.missing(key, choice.kind, start, end)) as [number, number][];
  }
  // A reward_funcs list: every function runs on the range, each called as TRL calls a reward (the rows are held
  // after the first, so the others only call their function).
  const calls: { name: string; kind: RewardKind }[] = choice.functions?.map((f) => ({ name: f.name, kind: 'trl' })) ?? [choice];
  // TRL's completion_ids, tokenized once for the range, only when one of the functions can read them; without a
  // tokenizer, the reason, which a function that reads them fails with (one that only takes **kwargs runs).
  let ids: [Uint8Array, Uint8Array] | string | undefined;
  if (calls.some((c) => c.kind === 'trl' && h.wantsIds(c.name))) {
    ids = typeof opts.completionIds === 'function' ? encodeRange(opts.completionIds, rowAt, start, end) : (opts.completionIds ?? NO_TOKENIZER_MESSAGE);
  }
  const w = rowsPayload(choice.kind, spans, rowAt, key !== undefined);
  const batch = Math.max(1, Math.floor(opts.batchSize ?? 32));
  const clear = () => {
    if (opts.interrupt) Atomics.store(opts.interrupt, 0, 0);
  };
  // Called before each call (one crossing into JS, no arguments): the calls cover the range in order, `size` rows
  // each (verl: 1).
  const size = isPerRow(choice.kind) ? 1 : batch;
  let next = start;
  const tick =
    opts.interrupt || opts.onCall
      ? () => {
          clear();
          const rows = Math.min(size, end - next);
          opts.onCall?.(next, rows);
          next += rows;
        }
      : undefined;
  const models = modelsJson(opts.models, start, end);
  const attempt = (name: string, kind: RewardKind) => {
    next = start;
    clear();
    return h.run(kind, name, w.bytes(), tick, key, start, end, batch, models, ids);
  };
  const outs: HarnessResult[] = [];
  try {
    for (const c of calls) {
      try {
        outs.push(attempt(c.name, c.kind));
      } catch (e) {
        // An interrupt meant for a call that had just ended landed in the harness's own code, between calls (see 4.
        // above): the range runs again, once, from its start.
        if (!/^KeyboardInterrupt\b/.test(pythonErrorMessage(e))) throw e;
        opts.beforeRetry?.();
        outs.push(attempt(c.name, c.kind));
      }
    }
  } catch (e) {
    const message = pythonErrorMessage(e);
    if (/^LookupError: /.test(message)) throw new PythonLoadError(message.replace(/^LookupError: /, ''));
    throw new Error(`the Python harness failed: ${message}`, { cause: e });
  } finally {
    clear();
    reuse(w);
  }
  const results = outs.map((out, k) => toRangeResult(out, start, opts.timeLimitMs, k === 0 ? loadStdout : ''));
  if (!choice.functions) return results[0];
  const combined = combineFunctions(choice.functions.map((f, k) => ({ ...f, result: results[k] })));
  return {
    ...combined,
    stdout: results.map((r) => r.stdout).join(''),
    output: results.flatMap((r) => r.output),
    metrics: results.flatMap((r) => r.metrics),
  };
}

/** Marshal bytes of `(indexes, rows)` for the rows of `spans`, the harness's payload (in the reused buffer). */
function rowsPayload(kind: RewardKind, spans: [number, number][], rowAt: (i: number) => Trajectory, keyed: boolean): MarshalWriter {
  const count = spans.reduce((a, [from, to]) => a + to - from, 0);
  const w = new MarshalWriter(scratch);
  scratch = undefined; // a nested call (none today) would get its own buffer
  w.seq('(', 2);
  w.seq('[', count);
  for (const [from, to] of spans) for (let i = from; i < to; i++) w.number(i);
  w.seq('[', count);
  for (const [from, to] of spans) for (let i = from; i < to; i++) writeRowOf(w, kind, rowAt(i), keyed);
  return w;
}

/** The harness has copied `w`'s payload into Python: its buffer is the next payload's (up to 64 MB kept). */
function reuse(w: MarshalWriter): void {
  if (w.buf.byteLength <= SCRATCH_LIMIT) scratch = w.buf;
}

function keyOf(datasetKey: object): number {
  let key = datasetKeys.get(datasetKey);
  if (key === undefined) datasetKeys.set(datasetKey, (key = nextDatasetKey++));
  return key;
}

/**
 * A spare worker's idle work (no user code has run in its interpreter): convert rows [start, end) for `kind` and
 * keep them for `datasetKey`, with their arguments made, so that the first run of an edited code only calls the
 * function. Returns how many rows it prepared.
 */
export function holdPython(py: PyodideAPI, kind: RewardKind, rowAt: (i: number) => Trajectory, start: number, end: number, datasetKey: object): number {
  const h = harnessFor(py);
  const key = keyOf(datasetKey);
  const spans = JSON.parse(h.missing(key, kind, start, end)) as [number, number][];
  if (spans.length === 0) return 0;
  const w = rowsPayload(kind, spans, rowAt, true);
  try {
    return h.hold(w.bytes(), key, kind, start, end);
  } finally {
    reuse(w);
  }
}

/** Token ids of rows [start, end) as (int32 offsets, n + 1, and int32 ids) bytes, the harness's `ids`. */
function encodeRange(encode: TokenEncoder, rowAt: (i: number) => Trajectory, start: number, end: number): [Uint8Array, Uint8Array] {
  const n = end - start;
  const offsets = new Int32Array(n + 1);
  const parts: number[][] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const got = encode(completionIdsText(rowAt(start + i)));
    parts.push(got);
    total += got.length;
    offsets[i + 1] = total;
  }
  const all = new Int32Array(total);
  for (let i = 0; i < n; i++) all.set(parts[i], offsets[i]);
  return [new Uint8Array(offsets.buffer), new Uint8Array(all.buffer)];
}

/** Whether `choice` (loaded in this interpreter) reads TRL's completion_ids: then the run needs a tokenizer. */
export function wantsCompletionIds(py: PyodideAPI, choice: PythonRewardChoice): boolean {
  const h = harnessFor(py);
  const names = choice.functions?.map((f) => f.name) ?? (choice.kind === 'trl' ? [choice.name] : []);
  return names.some((name) => h.wantsIds(name));
}

/**
 * While the interpreter is idle (a worker that has sent its results): make ahead the fresh copies of the lists and
 * dicts of the rows that runs with a dataset key have used, so that the next run on those rows (after the user's
 * next edit) only calls the function. Returns how many rows it prepared (0 when there was nothing to do).
 */
export function preparePython(py: PyodideAPI): number {
  return harnessFor(py).prepare();
}

/** The last line of a Pyodide PythonError ("ValueError: ..."), or the message of another error. */
function pythonErrorMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const lines = text.trim().split('\n');
  return lines[lines.length - 1];
}

function toRangeResult(out: HarnessResult, start: number, timeLimitMs: number | undefined, loadStdout: string): PythonRangeResult {
  const { scores, status } = out;
  const n = scores.length;
  const raw = JSON.parse(out.json) as RawResult;
  const errors: RowError[] = raw.errors.map(([i, message, line]) => {
    const msg = status[i] === RowStatus.TimedOut && timeLimitMs !== undefined ? `timed out after ${timeLimitMs} ms` : message;
    return line === null ? { row: start + i, message: msg } : { row: start + i, message: msg, line };
  });
  errors.sort((a, b) => a.row - b.row);
  const components: Record<string, Float64Array> = {};
  for (const [k, values] of Object.entries(raw.components)) {
    const arr = new Float64Array(n).fill(Number.NaN);
    values.forEach((v, i) => {
      if (v !== null) arr[i] = v;
    });
    components[k] = arr;
  }
  const notes = raw.notes.map(([i, note]) => ({ row: start + i, note })).sort((a, b) => a.row - b.row);
  const output: PythonOutput[] = raw.output.map(([i, rows, text]) => ({ row: start + i, rows, text }));
  const texts = output.map((o) => o.text);
  if (loadStdout) texts.unshift(loadStdout);
  return {
    start,
    scores,
    status,
    errors,
    components,
    notes,
    ...(raw.strings && Object.keys(raw.strings).length ? { strings: raw.strings } : {}),
    ...(raw.steps?.length ? { steps: raggedSteps(raw.steps, n) } : {}),
    stdout: texts.map((t) => (t.endsWith('\n') ? t : t + '\n')).join(''),
    output,
    metrics: raw.metrics.map(([name, value]) => ({ name, value })),
  };
}

/** [row, steps] pairs (rows of the range) as one ragged column: offsets (n + 1) and values. */
function raggedSteps(pairs: [number, number[]][], n: number): { offsets: Int32Array; values: Float64Array } {
  // The harness shares the interpreter with the reward code: rows outside the range and non-lists are left out here,
  // and the engine checks every value again (protocol.ts checkSteps).
  const byRow = new Map(pairs.filter(([i, xs]) => Number.isInteger(i) && i >= 0 && i < n && Array.isArray(xs)));
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + (byRow.get(i)?.length ?? 0);
  const values = new Float64Array(offsets[n]);
  for (const [i, xs] of byRow) values.set(xs, offsets[i]);
  return { offsets, values };
}
