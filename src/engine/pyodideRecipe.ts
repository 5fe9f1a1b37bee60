/**
 * What a Pyodide memory snapshot holds, and how an interpreter started from one is made fresh again: shared by the
 * CLI's snapshot file (pyodideSnapshot.ts) and the browser sandbox's in-memory one (pyodideShare.ts).
 */
import type { PyodideAPI } from 'pyodide';
import { PRECOMPILE_HARNESS_PY, HARNESS_SOURCE } from '../core/python/harness';

/** The harness's own imports (harness.py): made part of the snapshot. No module that seeds itself at import. */
export const PREIMPORT = 'import array, ast, inspect, io, json, linecache, marshal, math, numbers, struct, sys, types';

/**
 * The snapshot of `py`, started with `_makeSnapshot` and not yet used by anything else: the harness's imports and the
 * harness compiled (not run) are added first. `py` stays usable.
 */
export function takeSnapshot(py: PyodideAPI): Uint8Array {
  py.runPython(PREIMPORT);
  // The harness compiled (harness.ts uses it when its source is the same), in a namespace of its own.
  const ns = py.globals.get('dict')();
  ns.set('_source', HARNESS_SOURCE);
  py.runPython(PRECOMPILE_HARNESS_PY, { globals: ns });
  ns.destroy();
  return py.makeMemorySnapshot();
}

type Load = typeof import('pyodide').loadPyodide;

/**
 * Pyodide started by `load` from `snapshot` when there is one and it starts, else the usual way. After a start from
 * it, `random` is seeded again: Pyodide seeds it at its start, so every start from one snapshot would draw the same
 * numbers.
 */
export async function startFrom(load: Load, options: Parameters<Load>[0], snapshot: Uint8Array | null | undefined): Promise<PyodideAPI> {
  if (snapshot) {
    try {
      const py = await load({ ...options, _loadSnapshot: snapshot });
      const random = py.pyimport('random') as { seed(): void; destroy(): void };
      random.seed();
      random.destroy();
      return py;
    } catch {
      // Not a snapshot this Pyodide starts from: the usual start.
    }
  }
  return load(options);
}
