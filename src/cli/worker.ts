/**
 * A reward worker thread of the CLI: the Node twin of `workers/reward-js.worker.ts`. It compiles the reward, reads
 * the data file itself with the browser's import (`loadAll`), then scores the row ranges it is sent with `runRows`,
 * publishing the row it is on in the shared watch slot so the pool can time a stuck row out from outside.
 *
 * A Python reward (`setup.python`) runs in Pyodide, loaded here from the `pyodide` npm package (kept outside the
 * bundle: it finds its wasm and standard library next to its own module): the file is scanned for reward functions
 * (never run for that), one is chosen, the module is loaded, and ranges are scored with `runPython`, which publishes
 * the first row and the row count of each call; the pool interrupts a stuck call through the interrupt slot.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { PyodideAPI } from 'pyodide';
import { loadAll } from '../core/dataset/loadAll';
import { loadRewardModule, runPython, type PythonRewardChoice } from '../core/python/runPython';
import { findRewardFunctions, KIND_DESCRIPTIONS, type RewardCandidate } from '../core/python/signatures';
import { compileReward, type RewardFn } from '../core/reward/compile';
import { RowStatus } from '../core/reward/contract';
import { runRows, type RangeResult } from '../core/reward/runRows';
import type { TokenCounter } from '../core/tokenize/tokenizers';
import type { Trajectory } from '../core/trajectory';
import { lockDownNetwork } from '../runtime/lockDown';
import { labelValue } from './args';
import {
  WATCH_COMPILING,
  WATCH_COUNT,
  WATCH_IDLE,
  WATCH_INTERRUPT,
  WATCH_ROW,
  type DatasetMeta,
  type FromWorker,
  type PythonFunctionInfo,
  type PythonSetup,
  type ToWorker,
  type WorkerSetup,
} from './protocol';

type Loaded = Awaited<ReturnType<typeof loadAll>>;

/** The scorer of one worker: JavaScript (`runRows`) or Python (`runPython`), with the print() output of a range. */
type Scorer = (start: number, end: number) => { result: RangeResult; stdout?: string };

export function runWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('runWorker: not in a worker thread');
  const setup = workerData as WorkerSetup;
  const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const watch = new Int32Array(setup.watch);
  const ownOpenAsBlob = openAsBlob;

  let rows: Trajectory[] = [];
  const rowAt = (i: number) => rows[i];

  /** Start reading the data file (kept as a promise: it runs while Pyodide loads; its failure is reported later). */
  const readFile = (): Promise<Loaded> => {
    const p = (async () => {
      const blob = await ownOpenAsBlob(setup.dataPath);
      return loadAll({ name: basename(setup.dataPath), blob }, { format: setup.format ?? undefined, mapping: setup.mapping ?? undefined });
    })();
    p.catch(() => {}); // awaited (and reported) after the reward is set up
    return p;
  };

  const ready = (async (): Promise<Scorer | null> => {
    let scorer: Scorer | null;
    let file: Promise<Loaded> | null = null;
    if (setup.python) {
      // Pyodide takes seconds to load: the file is read meanwhile. Errors in the code are still reported first.
      file = readFile();
      scorer = await setUpPython(setup, setup.python, watch, post, rowAt);
    } else {
      // As in the browser's reward workers: reward code gets no network APIs, so a reward behaves the same in both.
      // (This is parity, not a sandbox: the CLI runs the user's own reward file, like `node reward.js` would.)
      lockDownNetwork(globalThis);
      // Compile first: a syntax error is reported before the (possibly large) file is read.
      scorer = await setUpJs(setup, watch, post, rowAt);
    }
    if (!scorer) return null;
    try {
      const loaded = await (file ?? readFile());
      rows = loaded.rows;
      if (setup.sendMeta) {
        const meta = metaOf(loaded.rows, loaded.issues, loaded.detection, setup.label);
        const transfer = [meta.groupOf.buffer, meta.lengths.buffer] as ArrayBuffer[];
        if (meta.labels) transfer.push(meta.labels.buffer as ArrayBuffer);
        post({ kind: 'meta', meta }, transfer);
      }
    } catch (e) {
      post({ kind: 'load-failed', message: e instanceof Error ? e.message : String(e) });
      return null;
    }
    post({ kind: 'ready', rows: rows.length });
    return scorer;
  })();

  port.on('message', async (m: ToWorker) => {
    // Runs that arrive while the file loads wait here and resume in the order they came.
    const score = await ready;
    if (!score || m.kind !== 'run') return;
    if (m.end > rows.length) return post({ kind: 'failed', taskId: m.taskId, message: `rows ${m.start}–${m.end} asked of a file of ${rows.length} rows` });
    const { result, stdout } = score(m.start, m.end);
    Atomics.store(watch, WATCH_ROW, WATCH_IDLE);
    const transfer = [result.scores.buffer, result.status.buffer, ...Object.values(result.components).map((a) => a.buffer)] as ArrayBuffer[];
    post(stdout ? { kind: 'result', taskId: m.taskId, result, stdout } : { kind: 'result', taskId: m.taskId, result }, transfer);
  });
}

type Post = (m: FromWorker, transfer?: ArrayBuffer[]) => void;

async function setUpJs(setup: WorkerSetup, watch: Int32Array, post: Post, rowAt: (i: number) => Trajectory): Promise<Scorer | null> {
  // The module's top-level code runs here, so it is watched like a row.
  Atomics.store(watch, WATCH_ROW, WATCH_COMPILING);
  const c = compileReward(setup.code);
  Atomics.store(watch, WATCH_ROW, WATCH_IDLE);
  if (!c.ok) {
    post({ kind: 'compile-error', message: c.message, line: c.line });
    return null;
  }
  const fn: RewardFn = c.fn;
  let tokenCount: TokenCounter | undefined;
  try {
    // Imported only when asked for: the tokenizer library and its 2–11 MB of JSON.
    if (setup.tokenizer) tokenCount = (await import('./tokenizer')).loadTokenCounterNode(setup.tokenizer);
  } catch (e) {
    post({ kind: 'setup-failed', message: e instanceof Error ? e.message : String(e) });
    return null;
  }
  const onRow = (row: number) => void (watch[WATCH_ROW] = row);
  return (start, end) => ({ result: runRows(fn, rowAt, start, end, onRow, tokenCount) });
}

const info = (c: RewardCandidate): PythonFunctionInfo => ({ name: c.name, kind: c.kind, line: c.line });
const described = (c: RewardCandidate) => `${c.name} (${c.kind}, line ${c.line})`;

/** Which function to call, or why none can be: `--function`, else the first candidate. */
export function choosePythonFunction(candidates: RewardCandidate[], wanted: string | null): { ok: true; chosen: RewardCandidate } | { ok: false; message: string; line?: number } {
  if (candidates.length === 0) {
    const conventions = Object.values(KIND_DESCRIPTIONS).map((d) => '  ' + d);
    return {
      ok: false,
      message:
        'no reward function found: a top-level def with a parameter solution_str (verl), solution_strs (verl batch), ' +
        `completions (TRL) or queries (OpenRLHF; or reward_func(queries, prompts, labels)). The conventions:\n${conventions.join('\n')}`,
    };
  }
  if (wanted === null) return { ok: true, chosen: candidates[0] };
  const chosen = candidates.find((c) => c.name === wanted);
  if (chosen) return { ok: true, chosen };
  return { ok: false, message: `--function ${wanted}: no reward function of that name; the file has ${candidates.map(described).join(', ')}` };
}

/** The message of a module that needs a package: the CLI runs Pyodide in Node, not in the browser. */
const cliMessage = (m: string) => m.replace('(Python runs in the browser with Pyodide, ', '(Python runs in Pyodide, ');

async function setUpPython(setup: WorkerSetup, python: PythonSetup, watch: Int32Array, post: Post, rowAt: (i: number) => Trajectory): Promise<Scorer | null> {
  let py: PyodideAPI;
  try {
    // Not bundled (see bin/build-cli.mjs): Pyodide locates pyodide.asm.wasm and python_stdlib.zip beside its module.
    const { loadPyodide } = await import('pyodide');
    py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
  } catch (e) {
    post({ kind: 'setup-failed', message: `could not load Pyodide (the pyodide package) to run the Python reward: ${e instanceof Error ? e.message : String(e)}` });
    return null;
  }
  // After Pyodide has its files, before any user code runs (see the JavaScript side).
  lockDownNetwork(globalThis);
  const interrupt = new Int32Array(setup.watch, WATCH_INTERRUPT * 4, 1);
  py.setInterruptBuffer(interrupt);

  const scan = findRewardFunctions(py, setup.code);
  if (!scan.ok) {
    post({ kind: 'compile-error', message: scan.message, line: scan.line });
    return null;
  }
  const pick = choosePythonFunction(scan.candidates, python.function);
  if (!pick.ok) {
    post({ kind: 'compile-error', message: pick.message, line: pick.line });
    return null;
  }
  const chosen = pick.chosen;
  // The module's top-level code runs here: watched like the JavaScript module's.
  Atomics.store(interrupt, 0, 0);
  Atomics.store(watch, WATCH_COUNT, 1);
  Atomics.store(watch, WATCH_ROW, WATCH_COMPILING);
  const loaded = loadRewardModule(py, setup.code);
  Atomics.store(watch, WATCH_ROW, WATCH_IDLE);
  Atomics.store(interrupt, 0, 0);
  if (!loaded.ok) {
    post({ kind: 'compile-error', message: cliMessage(loaded.message), line: loaded.line });
    return null;
  }
  if (setup.sendMeta) {
    post({ kind: 'python-reward', chosen: info(chosen), others: scan.candidates.filter((c) => c !== chosen).map(info), stdout: loaded.stdout });
  }

  const choice: PythonRewardChoice = { name: chosen.name, kind: chosen.kind };
  const onCall = (row: number, count: number) => {
    Atomics.store(watch, WATCH_COUNT, count);
    Atomics.store(watch, WATCH_ROW, row);
  };
  const opts = { batchSize: python.batchSize, interrupt, timeLimitMs: python.timeLimitMs, onCall, beforeRetry: () => Atomics.store(watch, WATCH_ROW, WATCH_IDLE) };
  return (start, end) => {
    let result;
    try {
      result = runPython(py, setup.code, choice, rowAt, start, end, opts);
    } catch (e) {
      return { result: failedRange(start, end, e instanceof Error ? e.message : String(e)) };
    }
    // Only the RangeResult fields travel back (the output is `stdout`; `output` and `metrics` are not reported).
    const { stdout, output: _output, metrics: _metrics, ...range } = result;
    for (const e of range.errors) e.message = cliMessage(e.message);
    return { result: range, stdout };
  };
}

function failedRange(start: number, end: number, message: string): RangeResult {
  const n = end - start;
  const errors = Array.from({ length: n }, (_, i) => ({ row: start + i, message }));
  return { start, scores: new Float64Array(n).fill(Number.NaN), status: new Uint8Array(n).fill(RowStatus.Error), errors, components: {}, notes: [] };
}

/** Group indexes (first-seen order), completion lengths and labels of the rows. */
export function metaOf(rows: Trajectory[], issues: DatasetMeta['issues'], detection: DatasetMeta['detection'], label: string | null): DatasetMeta {
  const n = rows.length;
  const groupOf = new Int32Array(n);
  const index = new Map<string, number>();
  const groupKeys: string[] = [];
  const lengths = new Float64Array(n);
  const labels = label === null ? null : new Float64Array(n);
  let labelPresent = 0;
  for (let i = 0; i < n; i++) {
    const t = rows[i];
    let g = index.get(t.group);
    if (g === undefined) {
      g = groupKeys.length;
      index.set(t.group, g);
      groupKeys.push(t.group);
    }
    groupOf[i] = g;
    lengths[i] = t.completion.length;
    if (labels && label !== null) {
      const v = Object.hasOwn(t.fields, label) ? t.fields[label] : undefined;
      if (v !== undefined) labelPresent++;
      labels[i] = labelValue(v);
    }
  }
  return { rows: n, issues, detection, groupOf, groupKeys, lengths, labels, labelPresent };
}
