/**
 * The columns `score` computes its report from, one entry per scored row (a shard's rows, or all). `score` builds them
 * from its run, `merge` from partial files; both hand them to scoreReport (src/cli/scoreReport.ts).
 */
import type { DatasetMeta } from '../core/dataset/meta';
import { stepGroupKey } from '../core/dataset/parts';
import type { RowError } from '../core/reward/runRows';
import type { RunResult } from '../engine/engine';

const required = <T>(type: T) => ({ type, optional: false as const });
/** A column only some runs have (an option's, or the data's): null in RowColumns and absent from a partial without it. */
const optional = <T>(type: T) => ({ type, optional: true as const });

/**
 * Every per-row column, with its element type. A partial file carries exactly these (and one per reward function),
 * in this order: a new column is one line here (and the line in columnsOf that fills it).
 */
export const ROW_COLUMNS = {
  /** The row's index in the dataset (ascending). */
  index: required(Int32Array),
  score: required(Float64Array),
  /** RowStatus: 1 ok, 2 null, 3 error, 4 timed out. */
  status: required(Uint8Array),
  /** Index into `groupKeys`. */
  group: required(Int32Array),
  /** Completion length in UTF-16 code units. */
  length: required(Float64Array),
  /** Index into `errorTable`, −1 when the row did not fail. */
  error: required(Int32Array),
  /** --label: the label (NaN when missing). */
  label: optional(Float64Array),
  /** --group-by: index into `groupByValues`, −1 when the row has no value. */
  groupBy: optional(Int32Array),
  /** --by-step: the row's training step (NaN when it has none). */
  step: optional(Float64Array),
  /** --by-step: what the row's fields say of truncation (truncatedFromFields: 1, 0, NaN); --max-length applies later. */
  truncated: optional(Float64Array),
};

type Spec = typeof ROW_COLUMNS;
export type ColumnName = keyof Spec;
export const COLUMN_NAMES = Object.keys(ROW_COLUMNS) as ColumnName[];
/** Views of any buffer: a run's results, or columns read from a partial file. */
type View<T> = T extends Int32ArrayConstructor
  ? Int32Array
  : T extends Float64ArrayConstructor
    ? Float64Array
    : T extends Uint8ArrayConstructor
      ? Uint8Array
      : never;
export type RowColumns = { [K in ColumnName]: View<Spec[K]['type']> | (Spec[K]['optional'] extends true ? null : never) };

export interface ScoreColumns {
  rows: RowColumns;
  /** Group key per group index (groups numbered in first-seen order over the rows). */
  groupKeys: string[];
  /** --group-by: the column's values (the whole file's, first-seen order); null without --group-by. */
  groupByValues: string[] | null;
  errorTable: { message: string; line?: number }[];
  /** Several reward functions: each one's value per row (NaN = None), in the order of the report's `functions`. */
  functions: Float64Array[];
  /** --by-step: the reward's components per row (a dict result's numeric keys, or the functions), by name. */
  components: { name: string; values: Float64Array }[];
}

/** The columns of a run's rows `subset` (positions of the run; null: the run covered every row of the dataset). */
export function columnsOf(meta: DatasetMeta, result: RunResult, subset: Int32Array | null, functionNames: readonly string[], byStep = false): ScoreColumns {
  const n = result.scores.length;
  let index = subset;
  if (index === null) {
    index = new Int32Array(n);
    for (let i = 0; i < n; i++) index[i] = i;
  }
  // Groups renumbered over the subset in first-seen order (for all rows: the dataset's own numbering); a table by
  // dataset group (−1: not seen yet) rather than a Map: one lookup per row.
  const local = new Int32Array(meta.groupKeys.length).fill(-1);
  const groupKeys: string[] = [];
  const group = new Int32Array(n);
  const length = new Float64Array(n);
  const label = meta.labels ? new Float64Array(n) : null;
  const groupBy = meta.groupBy ? new Int32Array(n) : null;
  const step = byStep ? new Float64Array(n) : null;
  const truncated = byStep ? new Float64Array(n) : null;
  for (let j = 0; j < n; j++) {
    const row = index[j];
    const g = meta.groupOf[row];
    let k = local[g];
    if (k === -1) {
      k = groupKeys.length;
      local[g] = k;
      // One key per group: a group of a stepped dataset is (step, key), and the same key recurs at other steps.
      groupKeys.push(stepGroupKey(meta.steps[row], meta.groupKeys[g]));
    }
    group[j] = k;
    length[j] = meta.lengths[row];
    if (label && meta.labels) label[j] = meta.labels[row];
    if (groupBy && meta.groupBy) groupBy[j] = meta.groupBy.codes[row];
    if (step) step[j] = meta.steps[row];
    if (truncated) truncated[j] = meta.truncated[row];
  }
  const error = new Int32Array(n).fill(-1);
  const errorTable: ScoreColumns['errorTable'] = [];
  for (const [pos, e] of [...result.errors].sort((a, b) => a[0] - b[0])) {
    if (!(pos >= 0 && pos < n)) continue;
    error[pos] = errorTable.length;
    errorTable.push(e.line === undefined ? { message: e.message } : { message: e.message, line: e.line });
  }
  const functions = functionNames.map((name) => (Object.hasOwn(result.components, name) ? result.components[name] : new Float64Array(n).fill(Number.NaN)));
  const components = byStep ? Object.entries(result.components).map(([name, values]) => ({ name, values })) : [];
  return {
    rows: { index, score: result.scores, status: result.status, group, length, error, label, groupBy, step, truncated },
    groupKeys,
    groupByValues: meta.groupBy ? meta.groupBy.values : null,
    errorTable,
    functions,
    components,
  };
}

/** The rows' errors by dataset row, as the report shows them. */
export function errorsOf(c: ScoreColumns): Map<number, RowError> {
  const out = new Map<number, RowError>();
  const { index, error } = c.rows;
  for (let j = 0; j < error.length; j++) if (error[j] >= 0) out.set(index[j], { row: index[j], ...c.errorTable[error[j]] });
  return out;
}
