/**
 * Rollouts are read-only to reward code. A worker keeps its rows between runs, so a reward that changed one (a
 * `t.fields.xs.sort()`, a `t.completion = …`) would change what every later run, version and function scores.
 */
export function freezeRow<T>(t: T): T {
  if (typeof t === 'object' && t !== null && !Object.isFrozen(t)) freezeDeep(t);
  return t;
}

function freezeDeep(v: object): void {
  Object.freeze(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object' && x !== null && !Object.isFrozen(x) && !ArrayBuffer.isView(x)) freezeDeep(x);
    }
    return;
  }
  for (const k in v) {
    const x: unknown = (v as Record<string, unknown>)[k];
    // A typed array with elements cannot be frozen (Parquet binary columns): it stays as it is.
    if (typeof x === 'object' && x !== null && !Object.isFrozen(x) && !ArrayBuffer.isView(x) && Object.hasOwn(v, k)) freezeDeep(x);
  }
}

/** The reason a row failed, with a way out when it failed by changing its rollout. */
export function readOnlyHint(message: string): string {
  return /^TypeError: .*(read only property|object is not extensible|Cannot delete property|Cannot redefine property)/.test(message)
    ? `${message} (rollouts are read-only in reward code: change a copy, e.g. [...t.fields.xs].sort())`
    : message;
}
