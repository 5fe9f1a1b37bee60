import type { Trajectory } from '../trajectory';
import { CategoryCollector, type CategoryColumn, type CategoryPartial } from './categories';
import { isIdLike } from './labelChoice';

/** A column of the source records that can serve as a trusted label: booleans as 1/0, numbers as they are. */
export interface LabelColumn {
  name: string;
  /** One value per trajectory; NaN where the record has no usable value. */
  values: Float64Array;
  /** Every present value is a boolean or 0/1. */
  binary: boolean;
}

/** Fields that describe where a row sits, not how good it is. */
const STRUCTURAL = new Set(['step', 'index', 'idx', 'id', 'uid', 'group', 'group_id', 'prompt_id', 'line', 'epoch', 'seed']);

/**
 * Top-level fields of the source records whose present values are all booleans or finite numbers (at least one
 * row has one, at most `max` columns, in first-seen order), e.g. `is_correct_openai` in the GSM8K demo or verl's `score`.
 * Structural fields (step, ids) and fields named like ids (`question_id`, `sample_index`: labelChoice.ts) are left out.
 */
export function labelColumns(rows: readonly Trajectory[], max = 12): LabelColumn[] {
  const c = new LabelCollector();
  c.add(rows);
  return c.finish(max);
}

/** What a LabelCollector has seen of one field. */
export interface FieldSeen {
  /** Every present value so far is a boolean or a finite number. */
  ok: boolean;
  binary: boolean;
  /** Per row from the first one: the value as a number, NaN where absent (only while `ok`). */
  values: Float64Array;
}

/** A field had a value that is not a label: it is no column, and its values are let go. */
function reject(f: FieldSeen): void {
  f.ok = false;
  f.values = new Float64Array(0);
}

/** The label columns of one stretch of rows, in a form that travels between workers (see LabelCollector.merge). */
export interface LabelPartial {
  rows: number;
  /** Fields in first-seen order; `values` is null once a field had a value that is not a label. */
  fields: { name: string; binary: boolean; values: Float64Array | null }[];
  /** The stretch's collected category columns; absent when they were not collected (none is then kept). */
  categories?: CategoryPartial;
}

/**
 * Builds `labelColumns` batch by batch while a file is imported, so that the columns are there without keeping the
 * trajectories; the collectors of a parallel import's pieces are merged in file order.
 */
export class LabelCollector {
  private seen = new Map<string, FieldSeen>();
  private rows = 0;
  /** `categories`: the columns' categories (Group by), collected in the same pass. */
  constructor(readonly categories = new CategoryCollector()) {}
  /** Rows were merged without their categories: no category column can be trusted. */
  private categoriesMissing = false;

  add(rows: readonly Trajectory[]): void {
    for (let i = 0; i < rows.length; i++) {
      const row = this.rows++;
      const fields = rows[i].fields;
      this.categories.addRecord(row, fields);
      for (const k in fields) {
        const v = fields[k];
        if (v === null || v === undefined) continue;
        const f = this.field(k);
        if (!f.ok) continue;
        if (typeof v === 'boolean') this.put(f, row, v ? 1 : 0);
        else if (typeof v === 'number') this.put(f, row, v);
        else reject(f);
      }
    }
  }

  /** Count one more row (whose fields are given with `field` and `put`): its index. */
  row(): number {
    return this.rows++;
  }

  /**
   * Row `row`'s value of field `f` (from `field`: call it at the field's first value that is not null, so the
   * columns keep their first-seen order): a number (a boolean as 1 or 0); one that is not finite rejects the field.
   */
  put(f: FieldSeen, row: number, x: number): void {
    if (!f.ok) return;
    if (!Number.isFinite(x)) return reject(f);
    if (x !== 0 && x !== 1) f.binary = false;
    if (row >= f.values.length) f.values = this.room(f.values, row + 1);
    f.values[row] = x;
  }

  /** Row values of field `f` that are not labels (strings, lists, objects): the field is no column. */
  reject(f: FieldSeen): void {
    reject(f);
  }

  /** Append the partial of the rows that follow this collector's. */
  merge(p: LabelPartial): void {
    const base = this.rows;
    this.rows += p.rows;
    if (p.categories) this.categories.merge(p.categories, base);
    else if (p.rows > 0) this.categoriesMissing = true;
    for (const { name, binary, values } of p.fields) {
      const f = this.field(name);
      if (!f.ok) continue;
      if (values === null) {
        reject(f);
        continue;
      }
      f.binary &&= binary;
      f.values = this.room(f.values, base + values.length);
      f.values.set(values, base);
    }
  }

  partial(): LabelPartial {
    const fields = [...this.seen].map(([name, f]) => ({ name, binary: f.binary, values: f.ok ? this.padded(f.values) : null }));
    return { rows: this.rows, fields, ...(this.categoriesMissing ? {} : { categories: this.categories.partial(this.rows) }) };
  }

  /** The category columns collected over every row (none when some rows came without theirs). */
  categoryColumns(): CategoryColumn[] {
    return this.categoriesMissing ? [] : this.categories.finish(this.rows);
  }

  finish(max = 12): LabelColumn[] {
    const names = [...this.seen].filter(([k, f]) => f.ok && !STRUCTURAL.has(k.toLowerCase()) && !isIdLike(k)).slice(0, max);
    return names.map(([name, f]) => ({ name, values: this.padded(f.values), binary: f.binary }));
  }

  /** What has been seen of a field, a new entry (in first-seen order) the first time. */
  field(name: string): FieldSeen {
    let f = this.seen.get(name);
    if (f === undefined) {
      f = { ok: true, binary: true, values: new Float64Array(0) };
      this.seen.set(name, f);
    }
    return f;
  }

  /** `values` with room for `n` rows (NaN where nothing was written), growing by doubling. */
  private room(values: Float64Array, n: number): Float64Array {
    if (n <= values.length) return values;
    const bigger = new Float64Array(Math.max(n, 2 * values.length, 16)).fill(Number.NaN);
    bigger.set(values);
    return bigger;
  }

  /** Exactly one value per row seen. */
  private padded(values: Float64Array): Float64Array {
    if (values.length === this.rows) return values;
    const out = new Float64Array(this.rows).fill(Number.NaN);
    out.set(values.subarray(0, Math.min(values.length, this.rows)));
    return out;
  }
}
