import type { Trajectory } from '../trajectory';

/** A column's value per row as a category: an index into `values` (first-seen order), −1 where the row has none. */
export interface Categories {
  codes: Int32Array;
  values: string[];
  /** Rows that have the column (a value that is not null). */
  present: number;
}

/** Longest value kept: a column of long texts (a prompt) still groups, with values cut here. */
export const CATEGORY_TEXT_LIMIT = 200;

/** A cell as a category: strings as they are, numbers and booleans as written in JSON, lists and objects as JSON. */
export function categoryOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = typeof v === 'string' ? v : typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? String(v));
  return s.length > CATEGORY_TEXT_LIMIT ? `${s.slice(0, CATEGORY_TEXT_LIMIT)}…` : s;
}

/** The categories of top-level column `column` of the rows' source records (`Trajectory.fields`). */
export function categories(rows: readonly Trajectory[], column: string): Categories {
  const codes = new Int32Array(rows.length).fill(-1);
  const index = new Map<string, number>();
  const values: string[] = [];
  let present = 0;
  for (let i = 0; i < rows.length; i++) {
    const f = rows[i].fields;
    const c = categoryOf(Object.hasOwn(f, column) ? f[column] : undefined);
    if (c === null) continue;
    present++;
    let k = index.get(c);
    if (k === undefined) {
      k = values.length;
      index.set(c, k);
      values.push(c);
    }
    codes[i] = k;
  }
  return { codes, values, present };
}
