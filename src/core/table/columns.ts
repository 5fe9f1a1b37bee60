/**
 * Extra table columns (issue 21, item 15): a source field, a reward component, the advantage, the token length.
 * Each is a typed column the table sorts and filters on without touching objects: numbers as a Float64Array (NaN
 * where a row has none), text as strings with a precomputed sort rank, so that 100,000 rows sort as numbers.
 */
import { fieldOf, type Trajectory } from '../trajectory';

export interface NumberColumn {
  kind: 'number';
  values: Float64Array;
}
export interface TextColumn {
  kind: 'text';
  /** The value as text (null where the row has none), cut at TEXT_CELL_CHARS. */
  values: (string | null)[];
  /** Sort rank of each row's value (NaN for null): equal texts share a rank. */
  ranks: Float64Array;
}
export type ColumnValues = NumberColumn | TextColumn;

/** A column filter: a range for numbers (either end open), a case-insensitive substring for text. */
export type ColumnFilter = { id: string; min?: number; max?: number } | { id: string; contains: string };

/** Characters of a text value kept per row: enough to read and search a field, bounded for 100k rows of prompts. */
export const TEXT_CELL_CHARS = 1000;

const collator = new Intl.Collator('en', { numeric: true });

/** Ranks of text values: sorted by collation with digits compared as numbers ("item 9" < "item 10"). */
export function textColumn(values: (string | null)[]): TextColumn {
  const distinct = Array.from(new Set(values.filter((v): v is string => v !== null))).sort(collator.compare);
  const rankOf = new Map<string, number>();
  distinct.forEach((v, r) => rankOf.set(v, r));
  const ranks = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    ranks[i] = v === null ? Number.NaN : rankOf.get(v)!;
  }
  return { kind: 'text', values, ranks };
}

/** A field value as text: strings as they are, bigints with every digit, anything else as JSON. */
function asText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  let s: string;
  if (typeof v === 'string') s = v;
  else if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') s = String(v);
  else {
    try {
      s = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > TEXT_CELL_CHARS ? s.slice(0, TEXT_CELL_CHARS) : s;
}

/**
 * The values of one top-level field of the source records: a number column when every present value is a finite
 * number, a boolean (0/1) or a bigint that a double holds exactly; text otherwise (so an int64 above 2^53 keeps its
 * digits). A row without the field is NaN / null.
 */
export function fieldColumn(rows: readonly Pick<Trajectory, 'fields'>[], name: string): ColumnValues {
  return valuesColumn(rows.map((t) => fieldOf(t.fields, name)));
}

/** fieldColumn of the rows' values of the field (undefined where a row has none). */
export function valuesColumn(cells: readonly unknown[]): ColumnValues {
  const n = cells.length;
  const nums = new Float64Array(n);
  let numeric = true;
  for (let i = 0; i < n && numeric; i++) {
    const x = cellNumber(cells[i]);
    if (x === undefined) numeric = false;
    else nums[i] = x;
  }
  if (numeric) return { kind: 'number', values: nums };
  return textColumn(cells.map(asText));
}

/** A value as a cell of a number column (NaN where the row has none); undefined when it makes the column text. */
export function cellNumber(v: unknown): number | undefined {
  if (v === null || v === undefined) return Number.NaN;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(v);
  return undefined;
}

/** The value used for sorting: numbers themselves, text by rank; NaN where the row has none. */
export function sortValues(c: ColumnValues): Float64Array {
  return c.kind === 'number' ? c.values : c.ranks;
}

/**
 * The filter as a test on row indexes, or null when it keeps every row (an empty text, a range open at both ends).
 * A number filter keeps finite values within [min, max]; a text filter keeps values containing the text,
 * case-insensitively (a number column is matched on its values written out, "0.5").
 */
export function filterTest(c: ColumnValues, f: ColumnFilter): ((i: number) => boolean) | null {
  if ('contains' in f) {
    const needle = f.contains.toLowerCase();
    if (needle === '') return null;
    if (c.kind === 'text') return (i) => c.values[i]?.toLowerCase().includes(needle) ?? false;
    return (i) => Number.isFinite(c.values[i]) && String(c.values[i]).includes(needle);
  }
  const { min, max } = f;
  if (min === undefined && max === undefined) return null;
  if (c.kind !== 'number') return () => false;
  return (i) => {
    const x = c.values[i];
    return Number.isFinite(x) && (min === undefined || x >= min) && (max === undefined || x <= max);
  };
}
