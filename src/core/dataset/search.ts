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

/** Indices of the trajectories whose prompt, completion or any original field contains the needle. */
export function searchTrajectories(rows: readonly Trajectory[], needle: string): Int32Array {
  const match = textMatcher(needle);
  const hits: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const t = rows[i];
    if (match(t.prompt) || match(t.completion) || match(t.fields)) hits.push(i);
  }
  return Int32Array.from(hits);
}
