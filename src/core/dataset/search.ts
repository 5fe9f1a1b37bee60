import type { Trajectory } from '../trajectory';

/**
 * Does any string anywhere in a value (nested lists and objects included) contain the needle, case-insensitively?
 * Regex characters in the needle are literal.
 */
export function textMatcher(needle: string): (value: unknown) => boolean {
  const re = new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
  const visit = (v: unknown, depth: number): boolean => {
    if (typeof v === 'string') return re.test(v);
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return re.test(String(v));
    if (v === null || typeof v !== 'object' || depth > 12) return false;
    if (Array.isArray(v)) {
      for (const x of v) if (visit(x, depth + 1)) return true;
      return false;
    }
    for (const k in v as Record<string, unknown>) if (visit((v as Record<string, unknown>)[k], depth + 1)) return true;
    return false;
  };
  return (value) => visit(value, 0);
}

/** Does a trajectory's prompt, completion or any original field contain the needle? */
export function rowMatcher(needle: string): (t: Trajectory) => boolean {
  const match = textMatcher(needle);
  return (t) => match(t.prompt) || match(t.completion) || match(t.fields);
}

/** Indices of the trajectories whose prompt, completion or any original field contains the needle. */
export function searchTrajectories(rows: readonly Trajectory[], needle: string): Int32Array {
  const matches = rowMatcher(needle);
  const hits: number[] = [];
  for (let i = 0; i < rows.length; i++) if (matches(rows[i])) hits.push(i);
  return Int32Array.from(hits);
}
