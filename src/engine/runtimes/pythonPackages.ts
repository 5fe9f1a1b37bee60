/**
 * Unpack the shipped wheels (core/python/packages) a reward file imports into Pyodide's site-packages, each once per
 * interpreter, after checking its SHA-256 against the manifest: only code that imports sympy or mpmath pays.
 */
import type { PyodideAPI } from 'pyodide';
import { harnessFor } from '../../core/python/harness';
import { SHIPPED_MODULES, wheelsFor } from '../../core/python/packages';

/** Reads a shipped wheel by file name: the app's own /pyodide/packages/ in the browser, vendor/python in the CLI. */
export type ReadWheel = (file: string) => Promise<Uint8Array>;

const installed = new WeakMap<PyodideAPI, Set<string>>();

/**
 * Install what `code` imports of the shipped packages and import them (outside the module's time limit: sympy
 * takes seconds). Returns null, or why a wheel could not be used (the run then reports it instead of loading).
 */
export async function installShippedPackages(py: PyodideAPI, code: string, read: ReadWheel): Promise<string | null> {
  if (!mayImportShipped(code)) return null;
  const h = harnessFor(py);
  let done = installed.get(py);
  if (!done) installed.set(py, (done = new Set()));
  const wanted = wheelsFor(h.imports(code)).filter((w) => !done.has(w.file));
  if (wanted.length === 0) return null;
  for (const w of wanted) {
    let bytes: Uint8Array;
    try {
      bytes = await read(w.file);
    } catch (e) {
      return `the shipped package ${w.file} could not be read: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (h.sha256(bytes) !== w.sha256) return `the shipped package ${w.file} does not match its SHA-256 in vendor/python/manifest.json: not used`;
    py.unpackArchive(bytes, 'wheel');
    done.add(w.file);
  }
  h.preimport(wanted.flatMap((w) => w.modules));
  return null;
}

/**
 * Whether `code` may import a shipped package: it names one, or holds non-ASCII text (Python reads identifiers in
 * NFKC, so `import ｓｙｍｐｙ` imports sympy). Otherwise no parse: the AST walk took ~20 ms of each worker's first run.
 */
export function mayImportShipped(code: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/^[\x00-\x7f]*$/.test(code) || SHIPPED_MODULES.some((m) => code.includes(m));
}
