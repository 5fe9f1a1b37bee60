/**
 * The shipped sympy and mpmath wheels in Pyodide (Node): unpacked only for code that imports them, and a verl
 * scorer that checks equivalence with sympy scores as CPython scores it (scripts/sympy-fixtures.py).
 */
import { readFile } from 'node:fs/promises';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRewardModule, runPython } from '../../core/python/runPython';
import { findRewardFunctions } from '../../core/python/signatures';
import IMPORTED_OBJECT from '../../core/python/testing/packages/imported_object.py?raw';
import REWARD_HELPERS from '../../core/python/testing/packages/reward_helpers.py?raw';
import expected from '../../core/python/testing/packages/expected.json';
import SYMPY_EQUIV from '../../core/python/testing/packages/sympy_equiv.py?raw';
import CACHED_EQUIV from '../../core/python/testing/packages/cached_equiv.py?raw';
import type { Trajectory } from '../../core/trajectory';
import { installShippedPackages, mayImportShipped } from './pythonPackages';

let py: PyodideAPI;
const reads: string[] = [];
const read = async (file: string) => {
  reads.push(file);
  return new Uint8Array(await readFile(new URL(`../../../vendor/python/${file}`, import.meta.url)));
};
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

const rows: Trajectory[] = expected.rows.map((r, i) => ({
  id: String(i),
  index: i,
  line: i + 1,
  group: 'g',
  prompt: 'Q?',
  completion: r.completion,
  groundTruth: r.ground_truth,
  messages: [{ role: 'assistant', content: r.completion }],
  fields: { prompt: 'Q?', completion: r.completion, ground_truth: r.ground_truth },
}));

describe('shipped packages', () => {
  it('unpacks nothing for code that imports only the standard library', async () => {
    expect(await installShippedPackages(py, 'import re, math\nfrom fractions import Fraction\n', read)).toBeNull();
    expect(reads).toEqual([]);
    expect(py.runPython('import importlib.util; importlib.util.find_spec("sympy") is None')).toBe(true);
  });

  it('scores a sympy equivalence check as CPython does', async () => {
    const t0 = performance.now();
    expect(await installShippedPackages(py, SYMPY_EQUIV, read)).toBeNull();
    console.log(`sympy + mpmath unpacked and imported in ${Math.round(performance.now() - t0)} ms`);
    expect(reads).toEqual(['mpmath-1.3.0-py3-none-any.whl', 'sympy-1.14.0-py3-none-any.whl']);
    const r = runPython(py, SYMPY_EQUIV, { name: 'compute_score', kind: 'verl-source' }, (i) => rows[i], 0, rows.length);
    expect(r.errors).toEqual([]);
    expect(Array.from(r.scores)).toEqual(expected.sympy_equiv.map((e) => e.score));
    const gaps = expected.sympy_equiv.map((e: { gap?: number }) => e.gap ?? Number.NaN);
    Array.from(r.components.gap).forEach((g, i) => (Number.isNaN(gaps[i]) ? expect(g).toBeNaN() : expect(g).toBeCloseTo(gaps[i], 15)));
    expect(py.runPython('import sympy, mpmath; sympy.__version__ + " " + mpmath.__version__')).toBe('1.14.0 1.3.0');
  }, 120_000);

  it('parses only a file that names a shipped module or holds non-ASCII text', () => {
    expect(mayImportShipped('import re, math\nfrom fractions import Fraction\n')).toBe(false);
    expect(mayImportShipped('from sympy import simplify\n')).toBe(true);
    expect(mayImportShipped('import isympy\n')).toBe(true);
    expect(mayImportShipped('x = "mpmath"\n')).toBe(true);
    expect(mayImportShipped('# é\nimport re\n')).toBe(true);
  });

  it('unpacks each wheel once per interpreter', async () => {
    expect(await installShippedPackages(py, CACHED_EQUIV, read)).toBeNull();
    expect(reads).toEqual(['mpmath-1.3.0-py3-none-any.whl', 'sympy-1.14.0-py3-none-any.whl']);
  });

  it('refuses a wheel whose bytes do not match the manifest', async () => {
    const other = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
    const bad = async () => new Uint8Array([80, 75, 5, 6, ...new Array<number>(18).fill(0)]);
    expect(await installShippedPackages(other, 'import mpmath\n', bad)).toBe(
      'the shipped package mpmath-1.3.0-py3-none-any.whl does not match its SHA-256 in vendor/python/manifest.json: not used',
    );
    // Python reads identifiers in NFKC: full-width letters name mpmath too, and the file is still parsed for them.
    expect(await installShippedPackages(other, 'import \uff4d\uff50\uff4d\uff41\uff54\uff48\n', bad)).toBe(
      'the shipped package mpmath-1.3.0-py3-none-any.whl does not match its SHA-256 in vendor/python/manifest.json: not used',
    );
  }, 60_000);
});

describe('reward objects built by imported code: found when the module runs', () => {
  it('finds soft = make_length_penalty(...) from another module, and scores it as CPython does', () => {
    // The parse (no code run) cannot see what the imported factory returns.
    expect(findRewardFunctions(py, IMPORTED_OBJECT)).toEqual({ ok: true, candidates: [] });
    // The factory's module, importable as an installed package would be.
    py.FS.mkdirTree('/home/pyodide/helpers');
    py.FS.writeFile('/home/pyodide/helpers/reward_helpers.py', REWARD_HELPERS);
    py.runPython('import sys; sys.path.insert(0, "/home/pyodide/helpers")');
    const l = loadRewardModule(py, IMPORTED_OBJECT);
    expect(l).toEqual({
      ok: true,
      stdout: '',
      found: [
        {
          name: 'soft',
          kind: 'trl',
          line: 4,
          params: ['completions'],
          required: ['completions'],
          varPositional: false,
          varKeyword: true,
          async: false,
          object: 'make_length_penalty(max_chars=30, cache=10)',
          whenRun: true,
        },
      ],
    });
    const r = runPython(py, IMPORTED_OBJECT, { name: 'soft', kind: 'trl' }, (i) => rows[i], 0, rows.length);
    expect(r.errors).toEqual([]);
    expect(Array.from(r.scores)).toEqual(expected.imported_object);
  });

  it('finds compute_score = functools.lru_cache(...)(_equiv), a sympy scorer, and scores it as CPython does', async () => {
    expect(findRewardFunctions(py, CACHED_EQUIV)).toEqual({ ok: true, candidates: [] });
    expect(await installShippedPackages(py, CACHED_EQUIV, read)).toBeNull();
    const l = loadRewardModule(py, CACHED_EQUIV);
    expect(l.ok && l.found.map((c) => [c.name, c.kind, c.line, c.object])).toEqual([
      ['compute_score', 'verl-source', 17, 'functools.lru_cache(maxsize=65536)(_equiv)'],
    ]);
    const r = runPython(py, CACHED_EQUIV, { name: 'compute_score', kind: 'verl-source' }, (i) => rows[i], 0, rows.length);
    expect(r.errors).toEqual([]);
    expect(Array.from(r.scores)).toEqual(expected.cached_equiv);
  }, 60_000);

  it('lists no helper: a name bound to a non-reward callable or a class is not a candidate', () => {
    const code = ['import functools, re', 'find = functools.partial(re.findall, r"\\d+")', 'Box = type("Box", (), {})', ''].join('\n');
    const l = loadRewardModule(py, code);
    expect(l.ok && l.found).toEqual([]);
  });
});
