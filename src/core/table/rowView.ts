import { RowStatus } from '../reward/contract';
import { filterTest, sortValues, type ColumnFilter, type ColumnValues } from './columns';

/** The built-in columns, or the id of an extra column (see `RowViewInput.columns`). */
export type SortKey = 'index' | 'group' | 'reward' | 'length' | (string & {});

export interface RowViewInput {
  size: number;
  groupOf: Int32Array;
  charLengths: Int32Array;
  scores: Float64Array | null;
  status: Uint8Array | null;
  /** Each group's rank in the order of its label (dataset/groupLabels `groupRanks`): sorting by group follows it. */
  groupRank?: Int32Array;
  /**
   * Each group's label class (the first group index with the same label: dataset/groupLabels `groupLabelClasses`):
   * the group filter keeps every group of the filtered group's label, e.g. group "200" at each training step.
   */
  groupClass?: Int32Array;
  /** Extra columns by id (fields, components, advantage, tokens, and any built-in to filter on). */
  columns?: ReadonlyMap<string, ColumnValues>;
}

export interface RowViewOptions {
  sortKey: SortKey;
  sortDesc: boolean;
  /** Only rows whose reward failed (error or timed out). */
  errorsOnly?: boolean;
  /** Only rows of this group index (or, with `groupClass`, of any group with its label); −1: no row. */
  group?: number | null;
  /** Only these rows (text-search hits). */
  hits?: ArrayLike<number> | null;
  /** Only these rows, in this order before sorting (e.g. the rollouts behind a histogram bar). */
  subset?: ArrayLike<number> | null;
  /** Filters on `columns`; one naming a column that is not there keeps no row (its values are not known yet). */
  filters?: readonly ColumnFilter[];
}

function mask(size: number, rows: ArrayLike<number>): Uint8Array {
  const m = new Uint8Array(size);
  for (let i = 0; i < rows.length; i++) m[rows[i]] = 1;
  return m;
}

/**
 * The table's row order: filter, then a stable sort, as an index array (the table virtualizes over it).
 * Rows with no score (null, error, not run) sort after scored rows whatever the direction.
 */
export function rowView(input: RowViewInput, opts: RowViewOptions): Int32Array {
  const { groupOf, charLengths, scores, status } = input;
  const hit = opts.hits ? mask(input.size, opts.hits) : null;
  const base = opts.subset ?? null;
  const n = base ? base.length : input.size;
  // Straight into a typed array (no array of 100,000 numbers to build and convert: this runs on the main thread).
  const tests: ((i: number) => boolean)[] = [];
  for (const f of opts.filters ?? []) {
    const c = input.columns?.get(f.id);
    const t = c ? filterTest(c, f) : () => false;
    if (t) tests.push(t);
  }
  const cls = input.groupClass;
  const want = opts.group == null ? null : opts.group < 0 ? -1 : cls ? cls[opts.group] : opts.group;
  const keep = new Int32Array(n);
  let kept = 0;
  rows: for (let k = 0; k < n; k++) {
    const i = base ? base[k] : k;
    if (opts.errorsOnly && !(status && (status[i] === RowStatus.Error || status[i] === RowStatus.TimedOut))) continue;
    if (want !== null && (cls ? cls[groupOf[i]] : groupOf[i]) !== want) continue;
    if (hit && !hit[i]) continue;
    for (let t = 0; t < tests.length; t++) if (!tests[t](i)) continue rows;
    keep[kept++] = i;
  }
  const out = kept === n ? keep : keep.slice(0, kept);
  const dir = opts.sortDesc ? -1 : 1;
  const byNumber = (col: ArrayLike<number>) => (a: number, b: number) => {
    const x = col[a];
    const y = col[b];
    const xf = Number.isFinite(x);
    const yf = Number.isFinite(y);
    if (xf !== yf) return xf ? -1 : 1;
    if (!xf || x === y) return a - b;
    return (x < y ? -1 : 1) * dir;
  };
  switch (opts.sortKey) {
    case 'reward':
      if (scores) out.sort(byNumber(scores));
      break;
    case 'length':
      out.sort(byNumber(charLengths));
      break;
    case 'group': {
      const rank = input.groupRank;
      let key: Int32Array = groupOf;
      if (rank) {
        key = new Int32Array(groupOf.length);
        for (let i = 0; i < key.length; i++) key[i] = rank[groupOf[i]];
      }
      out.sort(byNumber(key));
      break;
    }
    case 'index':
      if (opts.sortDesc) out.reverse();
      break;
    default: {
      const c = input.columns?.get(opts.sortKey);
      if (c) out.sort(byNumber(sortValues(c)));
    }
  }
  return out;
}
