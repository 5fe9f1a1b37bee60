/**
 * The pure-Python packages the studio ships (vendor/python: sympy and mpmath, README "Python packages"): which
 * wheels a reward file needs, from the modules it imports. The wheels are unpacked into Pyodide's site-packages only
 * when the code imports them, so code that does not pays nothing.
 */
import manifest from '../../../vendor/python/manifest.json';

export interface ShippedWheel {
  /** The file name in vendor/python (served by the app under /pyodide/packages/). */
  file: string;
  /** Lowercase hex SHA-256 of the file: a wheel that does not match is not used. */
  sha256: string;
  /** Top-level modules the wheel provides. */
  modules: string[];
  /** Top-level modules of other shipped wheels it imports. */
  requires: string[];
}

export const SHIPPED_WHEELS: readonly ShippedWheel[] = manifest.wheels;

/** The top-level modules the shipped wheels provide ("sympy", "mpmath", ...). */
export const SHIPPED_MODULES: readonly string[] = SHIPPED_WHEELS.flatMap((w) => w.modules);

/** The wheels that provide `imports` (top-level module names), with what they require, each after its requirements. */
export function wheelsFor(imports: readonly string[]): ShippedWheel[] {
  const out: ShippedWheel[] = [];
  const add = (module: string, seen: Set<string>) => {
    const w = SHIPPED_WHEELS.find((x) => x.modules.includes(module));
    if (!w || out.includes(w) || seen.has(w.file)) return;
    seen.add(w.file);
    for (const r of w.requires) add(r, seen);
    out.push(w);
  };
  for (const m of imports) add(m, new Set());
  return out;
}
