/**
 * Small checks for messages that cross a thread or frame boundary: each names the place that failed
 * ("result.scores: expected a Float64Array of 8"), and `checked` turns a failure into a value, never a throw.
 */

/** Longest message, note or error text accepted from a worker (a longer one is cut, not refused). */
export const TEXT_LIMIT = 100_000;

export type Check<T> = { ok: true; value: T } | { ok: false; error: string };

export class Bad extends Error {}
export const bad = (where: string, what: string): never => {
  throw new Bad(`${where}: expected ${what}`);
};
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const record = (v: unknown, where: string) => (isRecord(v) ? v : bad(where, 'an object'));
export const str = (v: unknown, where: string) => (typeof v === 'string' ? v : bad(where, 'a string'));
export const bool = (v: unknown, where: string) => (typeof v === 'boolean' ? v : bad(where, 'a boolean'));
export const text = (v: unknown, where: string, limit = TEXT_LIMIT) => {
  const s = str(v, where);
  return s.length > limit ? `${s.slice(0, limit)}… (cut at ${limit.toLocaleString('en-US')} characters)` : s;
};
export const int = (v: unknown, where: string, min = -Infinity, max = Infinity) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : bad(where, `an integer in [${min}, ${max}]`);
export const optional = <T>(v: unknown, f: (v: unknown) => T): T | undefined => (v === undefined ? undefined : f(v));
export const f64 = (v: unknown, n: number, where: string) => (v instanceof Float64Array && v.length === n ? v : bad(where, `a Float64Array of ${n}`));

/** Run a check written with the helpers above; a `Bad` becomes `{ ok: false }`, anything else is a bug and throws. */
export function checked<T>(f: () => T): Check<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof Bad) return { ok: false, error: e.message };
    throw e;
  }
}
