/**
 * Figures of a run's arrays kept while the arrays live (a WeakMap on their identity): a tab drawn again, or passed
 * through on the way to another, does not sort a million scores again. A run's arrays do not change once it is in
 * the store, so identity is enough.
 */
import { describe, type Description } from '../../core/stats/describe';
import { scoredValues } from '../../core/stats/scored';

function keptBy<K extends object, R>(compute: (k: K) => R): (k: K) => R {
  const kept = new WeakMap<K, R>();
  return (k) => {
    if (kept.has(k)) return kept.get(k) as R;
    const r = compute(k);
    kept.set(k, r);
    return r;
  };
}

const scoredOfResult = keptBy((r: { scores: Float64Array; status: Uint8Array }) => scoredValues(r.scores, r.status));
const scoredOfColumn = new WeakMap<Float64Array, Float64Array>();

/** The scored rows' values of a run (scoredValues), the same array for the same run. */
export const scoredOf = scoredOfResult;

/** A column's values on the run's scored rows: the same array for the same column. */
export function scoredColumn(values: Float64Array, status: Uint8Array): Float64Array {
  let v = scoredOfColumn.get(values);
  if (!v) scoredOfColumn.set(values, (v = scoredValues(values, status)));
  return v;
}

/** describe() of an array, computed once per array. */
export const describeOf: (values: Float64Array) => Description = keptBy(describe);

/**
 * `compute(a, b, ...rest)` kept per pair (a, b): `rest` must be what the pair determines (a dataset's lengths belong
 * to that dataset, so its groups may be passed alongside them).
 */
export function keptByPair<A extends object, B extends object, X extends unknown[], R>(compute: (a: A, b: B, ...rest: X) => R): (a: A, b: B, ...rest: X) => R {
  const kept = new WeakMap<A, WeakMap<B, R>>();
  return (a, b, ...rest) => {
    let inner = kept.get(a);
    if (!inner) kept.set(a, (inner = new WeakMap()));
    if (inner.has(b)) return inner.get(b) as R;
    const r = compute(a, b, ...rest);
    inner.set(b, r);
    return r;
  };
}
