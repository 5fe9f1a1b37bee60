import type { TokenCounter } from '../tokenize/tokenizers';
import type { Trajectory } from '../trajectory';
import type { RewardFn } from './compile';
import { errorLine } from './compile';
import { createContext, type ModelColumns } from './context';
import { COMPONENT_LIMIT, RowStatus, setOwn, STRING_COLUMN_LIMIT, validateResult } from './contract';
import { freezeRow, readOnlyHint } from './readOnly';

export interface RowError {
  /** Dataset index of the row. */
  row: number;
  message: string;
  /** Line in the user's reward code, when known. */
  line?: number;
}

/** A row error as the CLI's report, `--out` and Download rows write it: the message, with ` (line N)` when known. */
export function errorText(e: RowError): string {
  return e.line !== undefined ? `${e.message} (line ${e.line})` : e.message;
}

/** Results for a contiguous range of rows, as typed arrays (transferable). */
export interface RangeResult {
  start: number;
  scores: Float64Array;
  status: Uint8Array;
  errors: RowError[];
  /** Component name → one value per row (NaN where the row had no such component). */
  components: Record<string, Float64Array>;
  notes: { row: number; note: string }[];
  /** Text values by name (a dict result's strings, e.g. verl's `pred`): one per row, null where the row has none. */
  strings?: Record<string, (string | null)[]>;
  /** Step rewards (RewardResult.steps), ragged: row start + i has values[offsets[i] .. offsets[i + 1]); absent when none. */
  steps?: { offsets: Int32Array; values: Float64Array };
}

/** Put text value `v` of `name` at row i of a range of n rows; false when the range already has STRING_COLUMN_LIMIT other names. */
export function addString(strings: Record<string, (string | null)[]>, n: number, i: number, name: string, v: string): boolean {
  let col = Object.hasOwn(strings, name) ? strings[name] : undefined;
  if (!col) {
    if (Object.keys(strings).length >= STRING_COLUMN_LIMIT) return false;
    setOwn(strings, name, (col = new Array<string | null>(n).fill(null)));
  }
  col[i] = v;
  return true;
}

/**
 * Score rows [start, end) with a compiled reward; `rowAt(i)` gives trajectory i. `onRow(i)` is called before each
 * row (the pool uses it to publish which row is running, so a stuck row can be timed out from outside).
 * The reward gets each row frozen (readOnly.ts): a worker keeps its rows for later runs. Nothing thrown escapes.
 */
export function runRows(
  fn: RewardFn,
  rowAt: (i: number) => Trajectory,
  start: number,
  end: number,
  onRow?: (row: number) => void,
  tokenCount?: TokenCounter,
  models?: ModelColumns,
): RangeResult {
  const n = end - start;
  const scores = new Float64Array(n).fill(Number.NaN);
  const status = new Uint8Array(n);
  const errors: RowError[] = [];
  const notes: { row: number; note: string }[] = [];
  const components: Record<string, Float64Array> = {};
  const strings: Record<string, (string | null)[]> = {};
  const ctx = createContext(tokenCount, models);
  let steps: (number[] | undefined)[] | null = null;
  for (let i = 0; i < n; i++) {
    const row = start + i;
    onRow?.(row);
    ctx.index = row;
    let value: unknown;
    try {
      value = fn(freezeRow(rowAt(row)), ctx);
    } catch (e) {
      status[i] = RowStatus.Error;
      const err = e instanceof Error ? e : new Error(String(e));
      errors.push({ row, message: readOnlyHint(`${err.name}: ${err.message}`), line: errorLine(err) });
      continue;
    }
    // The common case, a finite number, takes no allocation.
    if (typeof value === 'number' && value - value === 0) {
      status[i] = RowStatus.Ok;
      scores[i] = value;
      continue;
    }
    const v = validateResult(value);
    if (v.kind === 'null') {
      status[i] = RowStatus.Null;
    } else if (v.kind === 'error') {
      status[i] = RowStatus.Error;
      errors.push({ row, message: v.reason });
    } else {
      status[i] = RowStatus.Ok;
      scores[i] = v.score;
      if (v.components) {
        for (const [k, val] of Object.entries(v.components)) {
          let col = Object.hasOwn(components, k) ? components[k] : undefined;
          if (!col) {
            // A task keeps at most COMPONENT_LIMIT distinct names: rows that add more fail with the reason.
            if (Object.keys(components).length >= COMPONENT_LIMIT) {
              status[i] = RowStatus.Error;
              scores[i] = Number.NaN;
              errors.push({ row, message: `more than ${COMPONENT_LIMIT} distinct component names in this run; "${k.slice(0, 40)}" was not kept` });
              break;
            }
            setOwn(components, k, (col = new Float64Array(n).fill(Number.NaN)));
          }
          col[i] = val;
        }
        if (status[i] === RowStatus.Error) continue;
      }
      // Names past STRING_COLUMN_LIMIT are left out, as the Python harness does.
      if (v.strings) for (const [k, text] of Object.entries(v.strings)) addString(strings, n, i, k, text);
      if (v.note) notes.push({ row, note: v.note });
      if (v.steps) (steps ??= new Array<number[] | undefined>(n))[i] = v.steps;
    }
  }
  return {
    start,
    scores,
    status,
    errors,
    components,
    notes,
    ...(Object.keys(strings).length ? { strings } : {}),
    ...(steps ? { steps: raggedSteps(steps) } : {}),
  };
}

/** Per-row step lists as one ragged column (offsets + values). */
function raggedSteps(lists: (number[] | undefined)[]): { offsets: Int32Array; values: Float64Array } {
  const offsets = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = offsets[i] + (lists[i]?.length ?? 0);
  const values = new Float64Array(offsets[lists.length]);
  for (let i = 0; i < lists.length; i++) if (lists[i]) values.set(lists[i]!, offsets[i]);
  return { offsets, values };
}
