/**
 * One column of every row read from a plain JSONL file's bytes by the import's scanner, no row built: Group by on a
 * column the import did not collect, and a table column of a source field, without parsing a million rows into
 * objects and keeping them (the data worker's row store asks, rowStore.ts).
 */
import { FIELD_WORDS, HEADER_WORDS, LineScanner, nextLine, PARSE, type ScannedLines } from '../formats/jsonl-scan/scanner';
import type { FormatId } from '../formats/types';
import { fieldOf } from '../trajectory';
import { cellNumber, valuesColumn, type ColumnValues } from '../table/columns';
import { CategoryCollector, MAX_COLLECTED_VALUES, type Categories } from './categories';
import { LabelCollector } from './labelColumns';
import type { LineIndex } from './lineRows';
import { Packer } from './packed';
import { readChunks, scanJsonl, scansFlat } from './scanJsonl';

/** Bytes fed to the scanner at once, as the import feeds it. */
const FEED_BYTES = 1 << 20;

/**
 * The categories of the top-level columns of `blob` (a whole plain JSONL file in `format`), as `categories()` gives
 * them from its rows: `column` with all its values, each other column with at most MAX_COLLECTED_VALUES (so that the
 * next one asked for is there already). A column left out cannot be told by the scan: a list or object value (which
 * `categories()` writes as JSON), or, for another column, more values. Null for a format read otherwise. Throws when
 * the file no longer gives the `rows` rows it was imported with.
 */
export async function scanCategories(blob: Blob, name: string, format: FormatId, column: string, rows: number): Promise<Map<string, Categories> | null> {
  if (!scansFlat(format)) return null;
  const cats = new CategoryCollector((c) => (c === column ? Infinity : MAX_COLLECTED_VALUES));
  cats.column(column); // a column no row has: every row without a value
  const scan = scanJsonl(blob, { name, format, fileOffset: 0, fileStart: true, packer: new Packer(), labels: new LabelCollector(cats) });
  let n = 0;
  for (let r = await scan.next(); !r.done; r = await scan.next()) n += r.value.batch.line.length;
  if (n !== rows) throw new Error(`${name} gives ${n} rows now, ${rows} when it was imported: has the file changed?`);
  return new Map(cats.finish(rows).map((c) => [c.name, c.categories]));
}

/** Columns of numbers collected on the way by a scan for one field, at most this many (8 MB each at 1M rows). */
const MAX_NUMBER_COLUMNS = 8;

/** What a scan for one field gives: its column, and the other fields whose values were all numbers (or none). */
export interface ScannedField {
  column: ColumnValues;
  /** Fields of the first MAX_NUMBER_COLUMNS met whose every value is a finite number or a boolean (NaN where none). */
  numbers: Map<string, Float64Array>;
}

/** `scanCells` of the field as a table column, as `fieldColumn` gives it from the rows. */
export async function scanField(blob: Blob, name: string, index: LineIndex, field: string): Promise<ScannedField> {
  const { cells, numbers } = await scanCells(blob, name, index, field);
  return { column: valuesColumn(cells), numbers };
}

/**
 * The value of top-level field `field` of every row (the lines `index` lists, as the import found them) of `blob`, a
 * whole plain JSONL file, as the rows' records hold it (`Trajectory.fields` is the record in every format): each
 * line's value of that field read where the scanner found it, no record built; the rows of one record (a preference
 * pair) share it. Fields of numbers come along (`numbers`, as `fieldColumn` would give them), for the next one asked
 * for. Throws when a row's line is no longer where the import found it.
 */
export async function scanCells(blob: Blob, name: string, index: LineIndex, field: string): Promise<{ cells: unknown[]; numbers: Map<string, Float64Array> }> {
  const n = index.lines.length;
  // Each row's value of the field (undefined where the row has none).
  const cells: unknown[] = [];
  const numbers = new NumberColumns(n);
  const scanner = await LineScanner.create(0);
  let id = -1;
  /** Per key id: its number column (null once it is not one). */
  const slots: (Float64Array | null)[] = [];
  const take = (s: ScannedLines) => {
    const { i32 } = s;
    if (id < 0) id = scanner.keys.indexOf(field);
    for (let r = s.first; r < s.end; r = nextLine(i32, r)) {
      const status = i32[r + 2];
      const start = i32[r];
      const fields = i32[r + 3];
      const f0 = r + HEADER_WORDS;
      // Lines that gave no row (blank, broken) are not in the index.
      const row = cells.length;
      if (row >= n || s.streamBase + start !== index.spans[2 * row]) continue;
      // The rows this line gave: one, or several for a preference record.
      let rows = 1;
      while (row + rows < n && index.spans[2 * (row + rows)] === index.spans[2 * row]) rows++;
      if (status === PARSE) {
        const record = JSON.parse(scanner.decode(s.bytes, s.base + start, s.base + i32[r + 1])) as Record<string, unknown>;
        const cell = fieldOf(record, field);
        for (let q = 0; q < rows; q++) cells.push(cell);
        for (const key of Object.keys(record)) for (let q = 0; q < rows; q++) numbers.put(numbers.column(key), key, row + q, record[key]);
        continue;
      }
      // The last of repeated keys, as JSON.parse keeps it.
      let f = -1;
      for (let k = 0; k < fields; k++) {
        const g = f0 + k * FIELD_WORDS;
        const key = i32[g];
        if (key === id) f = g;
        let slot = slots[key];
        if (slot === undefined) slot = slots[key] = numbers.column(scanner.keys[key]);
        // A text value is made once per field: the field is no longer one of numbers after it.
        if (slot !== null) {
          const v = scanner.valueAt(s, g);
          for (let q = 0; q < rows && slot !== null; q++) slot = numbers.put(slot, scanner.keys[key], row + q, v);
          slots[key] = slot;
        }
      }
      const cell = f < 0 ? undefined : scanner.valueAt(s, f);
      for (let q = 0; q < rows; q++) cells.push(cell);
    }
  };
  let offset = 0;
  for await (const chunk of readChunks(blob, FEED_BYTES)) {
    const end = offset + chunk.length;
    // A byte-order mark is skipped, as the import skipped it (spans are file offsets).
    const bom = offset === 0 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
    scanner.feed(chunk.subarray(bom), offset + bom, end >= blob.size, take);
    offset = end;
  }
  if (cells.length !== n) throw new Error(`${name} gives ${cells.length} of its ${n} rows where they were imported: has the file changed?`);
  return { cells, numbers: numbers.finish() };
}

/** Number columns by field name, as `valuesColumn` makes a column whose cells are all numbers (`cellNumber`). */
class NumberColumns {
  /** null: a field that is not one (a value of another kind), or met when there were enough. */
  private byName = new Map<string, Float64Array | null>();

  constructor(private readonly rows: number) {}

  column(name: string): Float64Array | null {
    let c = this.byName.get(name);
    if (c === undefined) {
      c = this.byName.size < MAX_NUMBER_COLUMNS ? new Float64Array(this.rows).fill(Number.NaN) : null;
      this.byName.set(name, c);
    }
    return c;
  }

  /** Row `row`'s value of field `name` (its column `c`, null when it is none): the column, or null once it is not one. */
  put(c: Float64Array | null, name: string, row: number, v: unknown): Float64Array | null {
    if (c === null) return null;
    const x = cellNumber(v);
    if (x !== undefined) c[row] = x;
    else this.byName.set(name, (c = null));
    return c;
  }

  finish(): Map<string, Float64Array> {
    const out = new Map<string, Float64Array>();
    for (const [name, c] of this.byName) if (c !== null) out.set(name, c);
    return out;
  }
}
