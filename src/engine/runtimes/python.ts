/** Python rewards in a worker: one Pyodide interpreter, the module loaded once per code, ranges scored with runPython. */
import type { PyodideAPI } from 'pyodide';
import {
  holdPython,
  loadRewardModule,
  preparePython,
  PythonLoadError,
  runPython,
  wantsCompletionIds,
  type PythonRewardChoice,
} from '../../core/python/runPython';
import { findRewardFunctions, type RewardCandidate } from '../../core/python/signatures';
import { RowStatus } from '../../core/reward/contract';
import type { RangeResult } from '../../core/reward/runRows';
import type { TokenEncoder } from '../../core/tokenize/tokenIds';
import { TOKENIZERS, type TokenizerId } from '../../core/tokenize/tokenizers';
import type { Runtime } from '../serve';
import { installShippedPackages, type ReadWheel } from './pythonPackages';
import { publishCall, WATCH_COMPILING, WATCH_IDLE, type Watch } from '../watch';

export interface PythonHost {
  /** The interpreter, started when the worker starts. */
  pyodide: Promise<PyodideAPI>;
  /** Adjust messages to where Python runs (the harness's texts say "in the browser"). */
  rewrite?: (message: string) => string;
  /**
   * Keep the rows converted to Python values for the next run (the studio runs again after each edit); a one-shot
   * run (the CLI) converts without keeping, which is faster once.
   */
  keepRows?: boolean;
  /** The encoder of a tokenizer, for TRL's completion_ids (loaded only for a function that reads them). */
  tokenIds?: (id: TokenizerId) => Promise<TokenEncoder>;
  /** Reads a shipped wheel (sympy, mpmath): without it, only the standard library can be imported. */
  wheel?: ReadWheel;
}

export function pythonRuntime(host: PythonHost): Runtime {
  const rewrite = host.rewrite ?? ((m: string) => m);
  let started = false;
  let bufferSet: Watch | null = null;
  let loaded: string | null = null;
  // The reward objects the loaded module's run found (harness.py `_found_when_run`).
  let found: RewardCandidate[] = [];
  void host.pyodide.then(() => (started = true)).catch(() => undefined);

  const interpreter = async (w: Watch | null) => {
    const py = await host.pyodide;
    if (w && bufferSet !== w) {
      py.setInterruptBuffer(w.interrupt);
      bufferSet = w;
    }
    return py;
  };

  return {
    ready: host.pyodide,
    notReady: (e) => `Python could not start: ${e instanceof Error ? e.message : String(e)}`,
    async check(code, w) {
      return findRewardFunctions(await interpreter(w), code);
    },
    async run(m, rows, w) {
      if (!m.python) return { kind: 'failed', message: 'no Python function chosen' };
      const py = await interpreter(w);
      let moduleStdout = '';
      if (loaded !== m.code && host.wheel) {
        // Before the module's time limit starts: unpacking and importing sympy take seconds, once per interpreter.
        const problem = await installShippedPackages(py, m.code, host.wheel);
        if (problem !== null) return { kind: 'compile-error', message: problem, stdout: '' };
      }
      if (loaded !== m.code) {
        // The module's top-level code runs here: the engine times it.
        if (w) {
          Atomics.store(w.interrupt, 0, 0);
          publishCall(w, WATCH_COMPILING);
        }
        const l = loadRewardModule(py, m.code);
        if (w) {
          Atomics.store(w.row, 0, WATCH_IDLE);
          Atomics.store(w.interrupt, 0, 0);
        }
        if (!l.ok) return { kind: 'compile-error', message: rewrite(l.message), line: l.line, stdout: l.stdout };
        loaded = m.code;
        found = l.found;
        moduleStdout = l.stdout;
      }
      let call: PythonRewardChoice = m.python;
      if (m.python.whenRun) {
        const wanted = m.python.name;
        const c = wanted === '' ? found[0] : found.find((x) => x.name === wanted);
        if (!c) return { kind: 'compile-error', message: notFoundWhenRun(wanted, found), stdout: moduleStdout };
        call = { name: c.name, kind: c.kind };
      }
      // TRL's completion_ids: the tokenizer the user chose (the task's), loaded only for a function that reads them.
      let completionIds: TokenEncoder | string | undefined;
      if (m.tokenizer && host.tokenIds && wantsCompletionIds(py, call)) {
        try {
          completionIds = await host.tokenIds(m.tokenizer);
        } catch (e) {
          completionIds = `completion_ids: the ${TOKENIZERS[m.tokenizer].label} tokenizer did not load (${e instanceof Error ? e.message : String(e)})`;
        }
      }
      try {
        const r = runPython(py, m.code, call, (i) => rows.rows[i], m.start, m.end, {
          completionIds,
          batchSize: m.python.batchSize,
          timeLimitMs: m.timeLimitMs,
          interrupt: w?.interrupt,
          // A new array on each load: the interpreter keeps the converted rows for the next runs on this dataset.
          datasetKey: host.keepRows === false || rows.keep === false ? undefined : rows.rows,
          models: m.models ? { columns: m.models, offset: m.start } : undefined,
          onCall: w ? (row, count) => publishCall(w, row, count) : undefined,
          beforeRetry: w ? () => Atomics.store(w.row, 0, WATCH_IDLE) : undefined,
        });
        const { start, scores, status, errors, components, notes, strings, steps } = r;
        for (const e of errors) e.message = rewrite(e.message);
        const result = { start, scores, status, errors, components, notes, ...(strings ? { strings } : {}), ...(steps ? { steps } : {}) };
        return { kind: 'result', result, stdout: r.stdout, moduleStdout, found };
      } catch (e) {
        if (e instanceof PythonLoadError) {
          loaded = null;
          return { kind: 'compile-error', message: rewrite(e.message), line: e.line, stdout: e.stdout };
        }
        // The harness itself failed (twice): this range's rows fail with the reason, the run goes on.
        return { kind: 'result', result: failedRange(m.start, m.end, e instanceof Error ? e.message : String(e)) };
      }
    },
    idle() {
      if (started) void host.pyodide.then(preparePython);
    },
    async hold(rows, start, end, python) {
      // Only in an interpreter no code has run in (a spare), for a call whose rows' shape is known before it loads;
      // kept under the call's kind, as runPython keeps them.
      if (loaded !== null || host.keepRows === false || rows.keep === false || python.whenRun) return;
      const py = await host.pyodide;
      if (loaded !== null) return;
      holdPython(py, python.kind, (i) => rows.rows[i], start, end, rows.rows);
    },
  };
}

/** Why a reward asked for by name among those found when the module ran cannot be called. */
function notFoundWhenRun(wanted: string, found: readonly RewardCandidate[]): string {
  const names = found.map((c) => c.name).join(', ');
  if (wanted === '') return 'no reward function found: the file defines none, and no top-level name is bound to a reward object once the module has run';
  return `no reward function named ${wanted}${names ? `; the module's run found ${names}` : ', also once the module has run'}`;
}

function failedRange(start: number, end: number, message: string): RangeResult {
  const n = end - start;
  const errors = Array.from({ length: n }, (_, i) => ({ row: start + i, message }));
  return { start, scores: new Float64Array(n).fill(Number.NaN), status: new Uint8Array(n).fill(RowStatus.Error), errors, components: {}, notes: [] };
}
