/**
 * The Python side of Python rewards (harness.py, run inside Pyodide): finds reward functions, loads the user's
 * module and calls the chosen function the way its framework does (docs/python-rewards.md).
 */
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
// Its row status codes are the numbers of `RowStatus` in ../reward/contract.ts.
import HARNESS_PY from './harness.py?raw';

/** The file name user code is compiled under: traceback frames with this name are the user's lines. */
export const USER_FILE = 'reward.py';

/** The harness's entry points, bound to one Pyodide instance. */
export interface Harness {
  /** JSON `{ok, candidates}` or `{ok: false, message, line}`. */
  findCandidates(source: string): string;
  /** JSON `{ok, stdout, found}` (found: the reward objects read when the module ran) or `{ok: false, message, line, stdout, timedOut}`. */
  load(source: string): string;
  /** JSON `[[from, to], ...]`: the rows of [start, end) this interpreter does not hold for the dataset `key`. */
  missing(key: number, kind: string, start: number, end: number): string;
  /**
   * The per-row results of rows [start, end): scores (NaN where there is none) and status codes as typed arrays,
   * the rest (errors, components, notes, strings, output, metrics) as JSON. `payload`: marshal bytes of `(indexes, rows)`
   * (see runPython.ts), every row of the range without `key`, else those `missing` named (the others are held).
   * `tick` is called before each call into the user's function.
   */
  run(
    kind: string,
    name: string,
    payload: Uint8Array,
    tick: (() => void) | undefined,
    key: number | undefined,
    start: number,
    end: number,
    batch: number,
    models?: string,
    ids?: [Uint8Array, Uint8Array] | string,
  ): HarnessResult;
  /** Whether the loaded module's `name` can read TRL's completion_ids (a parameter of that name, or **kwargs). */
  wantsIds(name: string): boolean;
  /**
   * Make ahead, for the next run, the arguments of the held rows the last runs with a dataset key used (fresh copies
   * of their lists and dicts): call it when the interpreter is idle. Returns how many rows it prepared.
   */
  prepare(): number;
  /** Keep rows [start, end) of dataset `key` for `kind` (`payload` as for `run`) and prepare their arguments. */
  hold(payload: Uint8Array, key: number, kind: string, start: number, end: number): number;
  /** The top-level modules `source` imports (parsed, not run); [] when it does not parse. */
  imports(source: string): string[];
  /** Lowercase hex SHA-256 of `bytes`, computed by Python's hashlib. */
  sha256(bytes: Uint8Array): string;
  /** Import shipped packages (harness.py `SHIPPED`) just unpacked into site-packages, before the user's module runs. */
  preimport(names: readonly string[]): void;
  /** The source last loaded with `load` successfully, or null. */
  loaded: string | null;
}

/** What `Harness.run` returns. */
export interface HarnessResult {
  /** JSON: `{errors, components, notes, strings, output, metrics}`. */
  json: string;
  scores: Float64Array;
  status: Uint8Array;
}

const harnesses = new WeakMap<PyodideAPI, Harness>();

/** The module of `sys.modules` where a snapshot keeps the harness compiled: `source` and its `code`. */
export const PRECOMPILED_HARNESS = '_reward_studio_harness_code';

/** Python that compiles the harness into PRECOMPILED_HARNESS (run by the snapshot's recipe, with `_source` set). */
export const PRECOMPILE_HARNESS_PY = `import sys as _sys, types as _types
_m = _types.ModuleType("${PRECOMPILED_HARNESS}")
_m.source = _source
_m.code = compile(_source, "<reward-studio-harness>", "exec")
_sys.modules["${PRECOMPILED_HARNESS}"] = _m
del _sys, _types, _m, _source`;

/** The harness's source (harness.py). */
export const HARNESS_SOURCE: string = HARNESS_PY;

/** The harness for this Pyodide instance, installed on first use (its own namespace, not `__main__`). */
export function harnessFor(py: PyodideAPI): Harness {
  let h = harnesses.get(py);
  if (h) return h;
  const ns = py.globals.get('dict')();
  // An interpreter started from the CLI's snapshot (engine/pyodideSnapshot.ts) holds this source compiled: compiling
  // it takes 0.1–0.5 s in Pyodide. Used only when its source is this one.
  ns.set('_source', HARNESS_PY);
  py.runPython(
    'import sys as _sys\n' +
      `_pre = _sys.modules.get("${PRECOMPILED_HARNESS}")\n` +
      'exec(_pre.code if _pre is not None and _pre.source == _source else compile(_source, "<reward-studio-harness>", "exec"))\n' +
      'del _sys, _pre, _source',
    { globals: ns },
  );
  // A JS `undefined` arrives in Python as None (a JS null would arrive as `jsnull`).
  // These proxies live as long as the Pyodide instance: one harness per instance, never destroyed.
  const find = ns.get('find_candidates');
  const load = ns.get('load');
  const missing = ns.get('missing');
  const run = ns.get('run');
  const prepare = ns.get('prepare');
  const hold = ns.get('hold');
  const wantsIds = ns.get('wants_ids');
  const imports = ns.get('imports');
  const preimport = ns.get('preimport');
  const sha256 = ns.get('sha256');
  h = {
    findCandidates: (source) => find(source) as string,
    load: (source) => load(source) as string,
    missing: (key, kind, start, end) => missing(key, kind, start, end) as string,
    run: (kind, name, payload, tick, key, start, end, batch, models, ids) => {
      const out = run(kind, name, payload, tick, key, start, end, batch, models, ids) as PyProxy;
      try {
        // A tuple (str, bytes, bytes): each bytes object arrives as a Uint8Array copy of its own.
        const [json, scores, status] = out.toJs() as [string, Uint8Array, Uint8Array];
        const f64 = scores.byteOffset % 8 === 0 ? scores : scores.slice();
        return { json, scores: new Float64Array(f64.buffer, f64.byteOffset, f64.byteLength / 8), status };
      } finally {
        out.destroy();
      }
    },
    prepare: () => prepare() as number,
    hold: (payload, key, kind, start, end) => hold(payload, key, kind, start, end) as number,
    wantsIds: (name) => wantsIds(name) as boolean,
    imports: (source) => JSON.parse(imports(source) as string) as string[],
    sha256: (bytes) => sha256(bytes) as string,
    preimport: (names) => void preimport(JSON.stringify(names)),
    loaded: null,
  };
  harnesses.set(py, h);
  return h;
}
