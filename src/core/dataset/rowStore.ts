/**
 * The trajectories of the current dataset, as the data worker keeps them to answer the detail view, text search,
 * label columns and token counts.
 *
 * For a plain JSONL file the worker keeps no trajectories during the import: only where each row's line is in the
 * file (its byte span) and which of the record's rows it is. Keeping a hundred thousand parsed objects alive while
 * parsing made the import pay for them in garbage collection over and over (about as much as the parse itself).
 * A row is read again from its line when it is asked for (`get`: a detail view reads a few). What needs every row (a
 * text search, token counts, the preference check, a column the scanner cannot read) reads the file again and keeps
 * none (`search`, `each`): at a million rows, keeping them held ~1.2 GB.
 * Other files (gzip, CSV, Parquet, JSON documents) keep their trajectories from the import.
 */
import { LineRows, unreadable, type LineIndex } from './lineRows';
import type { ByteSource, ColumnMapping, FormatId } from '../formats/types';
import { fieldOf, type Trajectory } from '../trajectory';
import { withPartStep } from './parts';
import { categories, categoriesOfCells, CategoryCollector, type Categories } from './categories';
import { scanCategories, scanCells, scanField } from './columnScan';
import { fieldColumn, valuesColumn, type ColumnValues } from '../table/columns';
import { searchTrajectories } from './search';
import { searchLines } from './searchLines';
import { eachLineRow } from './lineBlocks';
import { concat } from './concat';

export type { LineIndex } from './lineRows';

export interface RowStore {
  readonly size: number;
  /** The trajectories at these indices, in that order. */
  get(indices: readonly number[]): Promise<Trajectory[]>;
  /** The categories of top-level column `column` of every row (Group by). */
  categories(column: string): Promise<Categories>;
  /** Top-level field `name` of every row's source record, as a table column. */
  field(name: string): Promise<ColumnValues>;
  /** Indices of the rows whose prompt, completion or any field holds `needle` (search.ts); null once `signal` aborts. */
  search(needle: string, signal?: AbortSignal): Promise<Int32Array | null>;
  /** Call `visit` with every row in order, none kept (a plain JSONL file is read again); false once `signal` aborts. */
  each(visit: (t: Trajectory, i: number) => void, signal?: AbortSignal): Promise<boolean>;
}

/** Every row of `rows` to `visit`. */
function visitAll(rows: readonly Trajectory[], visit: (t: Trajectory, i: number) => void): boolean {
  for (let i = 0; i < rows.length; i++) visit(rows[i], i);
  return true;
}

/** Each row's value of top-level field `name` of its record (undefined where it has none), from every row. */
async function cellsOf(store: Pick<RowStore, 'each'>, name: string): Promise<unknown[]> {
  const cells: unknown[] = [];
  await store.each((t) => cells.push(fieldOf(t.fields, name)));
  return cells;
}

/** The trajectories at these indices, those out of range left out. */
const pick = (rows: Trajectory[], indices: readonly number[]) => indices.map((i) => rows[i]).filter((t) => t !== undefined);

/** A store over trajectories already in memory. */
export function rowsInMemory(rows: Trajectory[]): RowStore {
  return {
    size: rows.length,
    get: async (indices) => pick(rows, indices),
    categories: async (column) => categories(rows, column),
    field: async (name) => fieldColumn(rows, name),
    search: async (needle) => searchTrajectories(rows, needle),
    each: async (visit) => visitAll(rows, visit),
  };
}

/** A store that reads rows back from their JSONL lines in the file. */
export function rowsFromLines(source: ByteSource, read: { format: FormatId; mapping?: ColumnMapping }, index: LineIndex): RowStore {
  const rows = new LineRows(index, read);
  const { size } = rows;
  /** The columns the last scan of the file gave (columnScan.ts): categories, and fields of numbers. */
  let scanned: Map<string, Categories> | null = null;
  let numbers = new Map<string, Float64Array>();
  /** Columns that scan was asked for and could not tell: the next request reads their values at once. */
  const untold = new Set<string>();

  /** A scan of the file, its error said as a file that cannot be read again. */
  const fromFile = async <T>(scan: () => Promise<T>): Promise<T> => {
    try {
      return await scan();
    } catch (e) {
      throw unreadable(source.name, e);
    }
  };

  const readRow = async (i: number): Promise<Trajectory> => {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(await source.blob.slice(rows.start(i), rows.end(i)).text()) as Record<string, unknown>;
    } catch (e) {
      throw unreadable(source.name, e);
    }
    return rows.pick(i, rows.produce(i, record), source.name);
  };

  return {
    size,
    async get(indices) {
      return Promise.all(indices.filter((i) => i >= 0 && i < size).map(readRow));
    },
    async categories(column) {
      // From the file's bytes: a scan of every column with few values (a copy: the caller may transfer it, and the
      // next request for such a column takes it from here), or of that column's values when that scan cannot tell
      // (a list or object value, a format it does not read).
      if (!untold.has(column)) {
        if (!scanned?.has(column)) scanned = await fromFile(() => scanCategories(source.blob, source.name, read.format, column, size));
        const c = scanned?.get(column);
        if (c) return { ...c, codes: c.codes.slice() };
        untold.add(column);
      }
      return categoriesOfCells((await fromFile(() => scanCells(source.blob, source.name, index, column))).cells);
    },
    async field(name) {
      // From the file's bytes (a copy of a column of numbers that came along with an earlier field: the caller may
      // transfer it).
      const kept = numbers.get(name);
      if (kept) return { kind: 'number', values: kept.slice() };
      const got = await fromFile(() => scanField(source.blob, source.name, index, name));
      numbers = got.numbers;
      return got.column;
    },
    // From the file, keeping nothing (searchLines.ts, lineBlocks.ts).
    search: (needle, signal) => searchLines(source, rows, needle, signal),
    each: (visit, signal) => eachLineRow(source, rows, visit, signal),
  };
}

/** Collects what an import's batches leave for its RowStore: trajectories, or line spans when every batch has them. */
export class RowStoreBuilder {
  private rows: Trajectory[] = [];
  private spans: Float64Array[] = [];
  private lines: Int32Array[] = [];
  private withoutSpans = false;

  add(lines: Int32Array, spans: Float64Array | undefined, rows: Trajectory[] | undefined): void {
    if (spans && !this.withoutSpans) {
      this.spans.push(spans);
      this.lines.push(lines);
    } else if (rows) {
      this.withoutSpans = true;
      for (const r of rows) this.rows.push(r);
    } else if (lines.length > 0) {
      throw new Error('RowStoreBuilder: a batch has neither spans nor rows');
    }
  }

  /** The store, and where each row's line is when the rows are read back from their lines. */
  finish(source: ByteSource, read: { format: FormatId; mapping?: ColumnMapping }): { store: RowStore; index?: LineIndex } {
    if (this.withoutSpans) {
      if (this.spans.some((s) => s.length > 0)) throw new Error('RowStoreBuilder: an import mixed spans and rows');
      return { store: rowsInMemory(this.rows) };
    }
    const index = { spans: concat(this.spans, Float64Array), lines: concat(this.lines, Int32Array) };
    return { store: rowsFromLines(source, read, index), index };
  }
}

/** One file's store in a dataset of several files: its rows are the dataset's rows [first, first + store.size). */
export interface PartStore {
  store: RowStore;
  first: number;
  name: string;
  step: number | null;
}

/**
 * A store over the parts of a dataset of several files (core/dataset/parts.ts): each row comes from its part's
 * store, with its dataset index and, when it has no step of its own, its part's step.
 */
export function rowsOfParts(parts: readonly PartStore[]): RowStore {
  const size = parts.reduce((n, p) => n + p.store.size, 0);
  const fix = (p: PartStore, t: Trajectory, i: number) => {
    t.index = i;
    return withPartStep(t, p.step);
  };
  /** The part holding dataset row i (parts are in row order). */
  const partOf = (i: number) => {
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (parts[mid].first <= i) lo = mid;
      else hi = mid - 1;
    }
    return parts[lo];
  };
  return {
    size,
    async get(indices) {
      const inRange = indices.filter((i) => i >= 0 && i < size);
      return Promise.all(
        inRange.map(async (i) => {
          const p = partOf(i);
          const [t] = await p.store.get([i - p.first]);
          return fix(p, t, i);
        }),
      );
    },
    async categories(column) {
      // Each file's, joined as an import joins its pieces' (values numbered again in first-seen order).
      const joined = new CategoryCollector(() => Infinity);
      joined.column(column);
      for (const p of parts) {
        const { codes, values } = await p.store.categories(column);
        joined.merge({ rows: p.store.size, columns: [{ name: column, codes, values }] }, p.first);
      }
      const [c] = joined.finish(size);
      if (!c) throw new Error(`the files' values of ${column} did not join`);
      return c.categories;
    },
    // Whether the column is numbers depends on every file's values: read from the rows.
    async field(name) {
      return valuesColumn(await cellsOf(this, name));
    },
    async search(needle, signal) {
      const hits: number[] = [];
      for (const p of parts) {
        const got = await p.store.search(needle, signal);
        if (got === null) return null;
        for (const i of got) hits.push(p.first + i);
      }
      return Int32Array.from(hits);
    },
    async each(visit, signal) {
      for (const p of parts) if (!(await p.store.each((t, i) => visit(fix(p, t, p.first + i), p.first + i), signal))) return false;
      return true;
    },
  };
}
