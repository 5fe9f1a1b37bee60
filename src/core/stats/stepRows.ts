/** Rows by training step: the distinct steps of a column and the rows of each (Over steps, collapse per step). */
import { lowerBound, sortFloat64 } from './ranks';

/**
 * The distinct finite steps, ascending, and for each row its step's index (−1 when its step is not finite). 0 and −0
 * are one step. O(n) with a hash of the few distinct steps (rows of a step usually follow each other), then a sort of
 * those alone: the page calls this on 500k rows.
 */
export function stepIndex(steps: ArrayLike<number>): { values: Float64Array; of: Int32Array } {
  const n = steps.length;
  const idOf = new Map<number, number>();
  const seen: number[] = [];
  const of = new Int32Array(n).fill(-1);
  let last = Number.NaN;
  let lastId = -1;
  for (let i = 0; i < n; i++) {
    const v = steps[i];
    if (!Number.isFinite(v)) continue;
    if (v !== last) {
      let id = idOf.get(v);
      if (id === undefined) {
        id = seen.length;
        idOf.set(v, id);
        seen.push(v);
      }
      last = v;
      lastId = id;
    }
    of[i] = lastId;
  }
  const values = sortFloat64(Float64Array.from(seen));
  const rankOf = new Int32Array(seen.length);
  for (let id = 0; id < seen.length; id++) rankOf[id] = lowerBound(values, seen[id]);
  for (let i = 0; i < n; i++) if (of[i] >= 0) of[i] = rankOf[of[i]];
  return { values, of };
}

/**
 * How many distinct finite steps `steps` holds, counting up to `atMost` (0 and −0 are one step): it stops at the
 * `atMost`-th, so "two or more?" over a million rows sorted by step reads only the first step's rows.
 */
export function distinctSteps(steps: ArrayLike<number>, atMost: number): number {
  const seen: number[] = [];
  for (let i = 0; i < steps.length && seen.length < atMost; i++) {
    const v = steps[i];
    // `includes` is SameValueZero: 0 and −0 are one.
    if (Number.isFinite(v) && !seen.includes(v)) seen.push(v);
  }
  return seen.length;
}

/** Rows of each step, in row order: rows of step s are order[start[s] .. start[s + 1]). */
export function rowsByStep(of: Int32Array, stepCount: number): { start: Int32Array; order: Int32Array } {
  const start = new Int32Array(stepCount + 1);
  for (let i = 0; i < of.length; i++) if (of[i] >= 0) start[of[i] + 1]++;
  for (let s = 0; s < stepCount; s++) start[s + 1] += start[s];
  const order = new Int32Array(start[stepCount]);
  const fill = start.slice(0, stepCount);
  for (let i = 0; i < of.length; i++) if (of[i] >= 0) order[fill[of[i]]++] = i;
  return { start, order };
}

/** The distinct finite steps, ascending, and the rows of each: `stepIndex` then `rowsByStep`. */
export interface StepRows {
  values: Float64Array;
  start: Int32Array;
  order: Int32Array;
}

export function stepRows(steps: ArrayLike<number>): StepRows {
  const { values, of } = stepIndex(steps);
  return { values, ...rowsByStep(of, values.length) };
}
