import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';

export type SortKey = 'index' | 'group' | 'reward' | 'length';

export interface RowViewInput {
  rows: readonly Trajectory[];
  groupOf: Int32Array;
  charLengths: Int32Array;
  scores: Float64Array | null;
  status: Uint8Array | null;
}

export interface RowViewOptions {
  sortKey: SortKey;
  sortDesc: boolean;
  /** Only rows whose reward failed (error or timed out). */
  errorsOnly?: boolean;
  /** Only rows of this group index. */
  group?: number | null;
  /** Case-insensitive substring of prompt or completion. */
  search?: string;
  /** Only these rows (e.g. the rollouts behind a histogram bar). */
  subset?: ArrayLike<number> | null;
}

/**
 * The table's row order: filter, then a stable sort, as an index array (the table virtualizes over it).
 * Rows with no score (null, error, not run) sort after scored rows whatever the direction.
 */
export function rowView(input: RowViewInput, opts: RowViewOptions): Int32Array {
  const { rows, groupOf, charLengths, scores, status } = input;
  const needle = opts.search?.trim().toLowerCase() ?? '';
  const base = opts.subset ? Array.from(opts.subset) : null;
  const n = base ? base.length : rows.length;
  const keep: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = base ? base[k] : k;
    if (opts.errorsOnly && !(status && (status[i] === RowStatus.Error || status[i] === RowStatus.TimedOut))) continue;
    if (opts.group != null && groupOf[i] !== opts.group) continue;
    if (needle && !rows[i].completion.toLowerCase().includes(needle) && !rows[i].prompt.toLowerCase().includes(needle)) continue;
    keep.push(i);
  }
  const out = Int32Array.from(keep);
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
    case 'group':
      out.sort(byNumber(groupOf));
      break;
    default:
      if (opts.sortDesc) out.reverse();
  }
  return out;
}
