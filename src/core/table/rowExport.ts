/**
 * **Download rows** (issue 21, item 17): the scored rows, in the table's order and as filtered, as JSONL, CSV or
 * Parquet. Each row: `index, group, status, reward, advantage, length, error`, then the picked extra columns
 * (`tokens`, `fields.<name>`), one column per reward component (`components.<name>`) and one per text value of the
 * result (`strings.<name>`, verl's `pred`). JSONL nests components, strings and fields in objects, CSV and Parquet flatten them to dotted names (as pandas' json_normalize would).
 *
 * `group` is the group's label, always as text: the file's own value exactly (an int64 above 2^53 keeps every
 * digit, which a JSON number read back as a double would not), or "p-…" for prompt-text groups.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import { RowStatus } from '../reward/contract';
import type { ColumnValues } from './columns';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportInput {
  /** Dataset indexes of the rows to write, in order. */
  order: ArrayLike<number>;
  groupOf: Int32Array;
  groupLabels: readonly string[];
  /** Completion length in characters. */
  length: ArrayLike<number>;
  /** The run's scores and row statuses (RowStatus); null before any run. */
  scores: Float64Array | null;
  status: Uint8Array | null;
  /** Error text of failed rows (message, with " (line N)" when known). */
  errors: ReadonlyMap<number, string>;
  /** Advantage per row under the chosen estimator (NaN where none); null before any run. */
  advantage: Float64Array | null;
  components: Readonly<Record<string, Float64Array>>;
  /** The run's text columns (a dict result's string values), null where a row has none; absent when none. */
  strings?: Readonly<Record<string, readonly (string | null)[]>>;
  /** Extra columns in the order picked: `tokens`, or a field (`name` without its `field:` prefix). */
  extra: readonly { key: 'tokens' | `fields.${string}`; values: ColumnValues }[];
}

const STATUS_TEXT: Record<number, string> = {
  [RowStatus.Pending]: 'not run',
  [RowStatus.Ok]: 'ok',
  [RowStatus.Null]: 'null',
  [RowStatus.Error]: 'error',
  [RowStatus.TimedOut]: 'timed out',
};

type Cell = string | number | null;

/** Hears how many of the rows are written (every PROGRESS_STEP rows): the file of 100,000 rows takes seconds. */
export type ExportProgress = (done: number, total: number) => void;
const PROGRESS_STEP = 4096;

/** The flat columns of the export: name, whether numeric, and the cell of row i. */
function columnsOf(x: ExportInput): { name: string; numeric: boolean; cell: (i: number) => Cell }[] {
  const num = (v: number): number | null => (Number.isFinite(v) ? v : null);
  const ok = (i: number) => x.status !== null && x.status[i] === RowStatus.Ok;
  const cols: { name: string; numeric: boolean; cell: (i: number) => Cell }[] = [
    { name: 'index', numeric: true, cell: (i) => i },
    { name: 'group', numeric: false, cell: (i) => x.groupLabels[x.groupOf[i]] },
    { name: 'status', numeric: false, cell: (i) => STATUS_TEXT[x.status?.[i] ?? RowStatus.Pending] ?? 'not run' },
    { name: 'reward', numeric: true, cell: (i) => (ok(i) && x.scores ? num(x.scores[i]) : null) },
    { name: 'advantage', numeric: true, cell: (i) => (x.advantage ? num(x.advantage[i]) : null) },
    { name: 'length', numeric: true, cell: (i) => x.length[i] },
    { name: 'error', numeric: false, cell: (i) => x.errors.get(i) ?? null },
  ];
  for (const e of x.extra) {
    const v = e.values;
    cols.push(v.kind === 'number' ? { name: e.key, numeric: true, cell: (i) => num(v.values[i]) } : { name: e.key, numeric: false, cell: (i) => v.values[i] });
  }
  for (const name of Object.keys(x.components)) {
    const v = x.components[name];
    cols.push({ name: `components.${name}`, numeric: true, cell: (i) => num(v[i]) });
  }
  for (const name of Object.keys(x.strings ?? {})) {
    const v = x.strings![name];
    cols.push({ name: `strings.${name}`, numeric: false, cell: (i) => v[i] });
  }
  return cols;
}

/** One JSON object per line; components and fields nested (objects without a prototype: a `__proto__` name stays a name). */
export function toJsonl(x: ExportInput, onProgress?: ExportProgress): string {
  // Each column's place in the nested row, worked out once rather than per row.
  const cols = columnsOf(x).map((c) => {
    const dot = c.name.indexOf('.');
    return { cell: c.cell, outer: dot < 0 ? c.name : c.name.slice(0, dot), inner: dot < 0 ? null : c.name.slice(dot + 1) };
  });
  const parts: string[] = [];
  for (let k = 0; k < x.order.length; k++) {
    const i = x.order[k];
    const row: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const c of cols) {
      if (c.inner === null) row[c.outer] = c.cell(i);
      else ((row[c.outer] ??= Object.create(null)) as Record<string, unknown>)[c.inner] = c.cell(i);
    }
    parts.push(JSON.stringify(row));
    if (onProgress && k % PROGRESS_STEP === PROGRESS_STEP - 1) onProgress(k + 1, x.order.length);
  }
  return parts.length ? parts.join('\n') + '\n' : '';
}

const PLAIN_NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, quote, newline or edge space. Text a spreadsheet would run
 * as a formula (starting with = + - @, tab or CR, and not a plain number) gets a leading apostrophe (OWASP's advice
 * for CSV injection): rows and their fields come from files the user did not write.
 */
export function csvCell(v: Cell, numeric: boolean): string {
  if (v === null) return '';
  let s = String(v);
  if (!numeric && /^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A header row, then one line per row (CRLF, as RFC 4180 writes it); an empty cell is null. */
export function toCsv(x: ExportInput, onProgress?: ExportProgress): string {
  const cols = columnsOf(x);
  const lines = [cols.map((c) => csvCell(c.name, false)).join(',')];
  for (let k = 0; k < x.order.length; k++) {
    const i = x.order[k];
    lines.push(cols.map((c) => csvCell(c.cell(i), c.numeric)).join(','));
    if (onProgress && k % PROGRESS_STEP === PROGRESS_STEP - 1) onProgress(k + 1, x.order.length);
  }
  return lines.join('\r\n') + '\r\n';
}

/** Parquet (hyparquet-writer, snappy): index and length INT64, numbers DOUBLE, text STRING; nulls where empty. */
export function toParquet(x: ExportInput, onProgress?: ExportProgress): ArrayBuffer {
  const cols = columnsOf(x);
  const n = x.order.length;
  // Progress counts cells gathered, in rows' worth: the writer's own encoding afterwards reports nothing.
  const columnData = cols.map((c, j) => {
    const data: Cell[] = new Array<Cell>(n);
    for (let k = 0; k < n; k++) data[k] = c.cell(x.order[k]);
    onProgress?.(Math.floor((n * (j + 1)) / cols.length), n);
    if (c.name === 'index' || c.name === 'length') return { name: c.name, type: 'INT64' as const, data: data.map((v) => (v === null ? null : BigInt(v))) };
    return { name: c.name, type: c.numeric ? ('DOUBLE' as const) : ('STRING' as const), data };
  });
  return parquetWriteBuffer({ columnData });
}

/** The file's bytes in `format` (text as UTF-8, as a Blob of the string would hold it). */
export function exportBytes(format: ExportFormat, x: ExportInput, onProgress?: ExportProgress): Uint8Array<ArrayBuffer> {
  if (format === 'parquet') return new Uint8Array(toParquet(x, onProgress));
  return new TextEncoder().encode(format === 'jsonl' ? toJsonl(x, onProgress) : toCsv(x, onProgress));
}
