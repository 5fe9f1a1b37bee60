/**
 * Figures of a run's arrays kept while the arrays live (a WeakMap on their identity): the table's reward column and
 * the diagnostics tabs share one scored-values array per run (the tabs' own figures are kept in app/figures). A run's
 * arrays do not change once it is in the store, so identity is enough.
 */
import { scoredValues } from '../core/stats/scored';

/** `compute(k, ...rest)` kept per `k`: `rest` must be what `k` determines (a column's run status, say). */
function keptBy<K extends object, X extends unknown[], R>(compute: (k: K, ...rest: X) => R): (k: K, ...rest: X) => R {
  const kept = new WeakMap<K, R>();
  return (k, ...rest) => {
    if (kept.has(k)) return kept.get(k) as R;
    const r = compute(k, ...rest);
    kept.set(k, r);
    return r;
  };
}

/** A run's scores with every row that is not OK as NaN (scoredValues): the same array for the same run. */
export const scoredOf = keptBy((r: { scores: Float64Array; status: Uint8Array }) => scoredValues(r.scores, r.status));

/** A column of a run (a component) on its scored rows: the same array for the same column. */
export const scoredColumn = keptBy((values: Float64Array, status: Uint8Array) => scoredValues(values, status));
