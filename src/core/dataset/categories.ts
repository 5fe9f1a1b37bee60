import { fieldOf, type Trajectory } from '../trajectory';

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
  return cutCategory(typeof v === 'string' ? v : typeof v === 'bigint' ? String(v) : (JSON.stringify(v) ?? String(v)));
}

/** A category's text cut at CATEGORY_TEXT_LIMIT. */
export const cutCategory = (s: string): string => (s.length > CATEGORY_TEXT_LIMIT ? `${s.slice(0, CATEGORY_TEXT_LIMIT)}…` : s);

/** The categories of top-level column `column` of the rows' source records (`Trajectory.fields`). */
export function categories(rows: readonly Trajectory[], column: string): Categories {
  return categoriesOfCells(rows.map((t) => fieldOf(t.fields, column)));
}

/** The categories of a column given by its value per row (undefined where a row has none). */
export function categoriesOfCells(cells: readonly unknown[]): Categories {
  const codes = new Int32Array(cells.length).fill(-1);
  const index = new Map<string, number>();
  const values: string[] = [];
  let present = 0;
  for (let i = 0; i < cells.length; i++) {
    const c = categoryOf(cells[i]);
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

/** Columns people group rollouts by (Group by's default is the first a dataset has): collected during the import. */
export const GROUP_BY_COLUMNS: readonly string[] = ['model', 'policy', 'checkpoint', 'data_source', 'subset', 'source', 'category', 'task', 'dataset', 'split'];
/** Distinct values a column may have and still be collected during the import (more: read from the file on request). */
export const MAX_COLLECTED_VALUES = 1000;

/** A column collected during the import: its categories, as `categories()` gives them from the rows. */
export interface CategoryColumn {
  name: string;
  categories: Categories;
}

/** What a CategoryCollector has of one column: codes per row (−1 none) while `ok`. */
export interface CategorySeen {
  ok: boolean;
  codes: Int32Array;
  values: string[];
  index: Map<string, number>;
  /** The last value put and its code: rows of one model or source follow each other. */
  last: string | null;
  lastCode: number;
  /** More distinct values than this and the column is given up. */
  max: number;
}

/** The collected columns of one stretch of rows, in a form that travels between workers (`merge`). */
export interface CategoryPartial {
  rows: number;
  /** Columns in first-seen order; `codes` null once a column was given up. */
  columns: { name: string; codes: Int32Array | null; values: string[] }[];
}

const GIVEN_UP: CategorySeen = { ok: false, codes: new Int32Array(0), values: [], index: new Map(), last: null, lastCode: -1, max: 0 };

/**
 * The categories of the GROUP_BY_COLUMNS, collected while a file is imported, so that Group by does not read a
 * million rows again: each such column whose values are strings, numbers or booleans with at most
 * MAX_COLLECTED_VALUES distinct values. A column with a list or object value or more values is given up, as is
 * every other column (collecting them all cost a third of a 100k-row import): `categories()` over the rows answers.
 */
export class CategoryCollector {
  private seen = new Map<string, CategorySeen>();

  /** `limit(name)`: how many distinct values column `name` may have and still be collected (0: not collected). */
  constructor(private readonly limit: (name: string) => number = (name) => (GROUP_BY_COLUMNS.includes(name) ? MAX_COLLECTED_VALUES : 0)) {}

  /** The column's state, a new one (in first-seen order) the first time; a given-up one unless it is collected. */
  column(name: string): CategorySeen {
    let c = this.seen.get(name);
    if (c === undefined) {
      const max = this.limit(name);
      c = max > 0 ? { ok: true, codes: new Int32Array(0), values: [], index: new Map(), last: null, lastCode: -1, max } : GIVEN_UP;
      this.seen.set(name, c);
    }
    return c;
  }

  /** Row `row`'s value of column `c`, as `categoryOf` writes it. */
  put(c: CategorySeen, row: number, value: string): void {
    const code = value === c.last ? c.lastCode : this.code(c, value);
    if (!c.ok) return;
    if (row >= c.codes.length) c.codes = room(c.codes, row + 1);
    c.codes[row] = code;
  }

  /** The code of `value` in column `c`, numbered now if it is new (the column is given up past the value limit). */
  private code(c: CategorySeen, value: string): number {
    if (!c.ok) return -1;
    let k = c.index.get(value);
    if (k === undefined) {
      if (c.values.length >= c.max) {
        this.giveUp(c);
        return -1;
      }
      k = c.values.length;
      c.values.push(value);
      c.index.set(value, k);
    }
    c.last = value;
    c.lastCode = k;
    return k;
  }

  giveUp(c: CategorySeen): void {
    if (c === GIVEN_UP) return;
    c.ok = false;
    c.codes = new Int32Array(0);
    c.values = [];
    c.index = new Map();
  }

  /** A row's source record (`Trajectory.fields`). */
  addRecord(row: number, fields: Record<string, unknown>): void {
    for (const k in fields) {
      const v = fields[k];
      if (v === null || v === undefined) continue;
      const c = this.column(k);
      if (!c.ok) continue;
      if (typeof v === 'object') this.giveUp(c);
      else this.put(c, row, categoryOf(v)!);
    }
  }

  partial(rows: number): CategoryPartial {
    return { rows, columns: [...this.seen].map(([name, c]) => ({ name, codes: c.ok ? padded(c.codes, rows) : null, values: c.values })) };
  }

  /** Append the partial of the rows that follow (starting at row `base`): its codes renumbered in first-seen order. */
  merge(p: CategoryPartial, base: number): void {
    for (const { name, codes, values } of p.columns) {
      const c = this.column(name);
      if (!c.ok) continue;
      if (codes === null || codes.length !== p.rows) {
        this.giveUp(c);
        continue;
      }
      const to = Int32Array.from(values, (v) => this.code(c, v));
      if (!c.ok) continue;
      if (base + p.rows > c.codes.length) c.codes = room(c.codes, base + p.rows);
      for (let i = 0; i < p.rows; i++) {
        const k = codes[i];
        if (k < -1 || k >= values.length) {
          this.giveUp(c); // not codes of these values: read from the rows instead
          break;
        }
        c.codes[base + i] = k < 0 ? -1 : to[k];
      }
    }
  }

  finish(rows: number): CategoryColumn[] {
    const out: CategoryColumn[] = [];
    for (const [name, c] of this.seen) {
      if (!c.ok) continue;
      const codes = padded(c.codes, rows);
      let present = 0;
      for (let i = 0; i < rows; i++) if (codes[i] >= 0) present++;
      out.push({ name, categories: { codes, values: c.values, present } });
    }
    return out;
  }
}

/** `codes` with room for `n` rows (−1 where nothing was written), growing by doubling. */
function room(codes: Int32Array, n: number): Int32Array {
  const bigger = new Int32Array(Math.max(n, 2 * codes.length, 16)).fill(-1);
  bigger.set(codes);
  return bigger;
}

/** Exactly `rows` codes (−1 where nothing was written). */
function padded(codes: Int32Array, rows: number): Int32Array {
  if (codes.length === rows) return codes;
  const out = new Int32Array(rows).fill(-1);
  out.set(codes.subarray(0, Math.min(codes.length, rows)));
  return out;
}
