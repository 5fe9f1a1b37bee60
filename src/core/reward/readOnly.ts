/**
 * Rollouts are read-only to reward code. A worker keeps its rows between runs, so a reward that changed one (a
 * `t.fields.xs.sort()`, a `t.completion = …`) would change what every later run, version and function scores.
 */
export function freezeRow<T>(t: T): T {
  if (unfrozen(t)) freezeTree(t, 0);
  return t;
}

/**
 * An object whose tree is still to be frozen. Objects are frozen children first, so one still extensible is the only
 * kind that needs it. A typed array with elements cannot be frozen (Parquet binary columns): it stays as it is.
 */
function unfrozen(x: unknown): x is object {
  return typeof x === 'object' && x !== null && Object.isExtensible(x) && !ArrayBuffer.isView(x);
}

/** Levels frozen by recursion; a deeper record goes on with an explicit stack (a call stack would overflow). */
const DEEP = 200;

function freezeTree(v: object, depth: number): void {
  if (depth > DEEP) return freezeDeepTree(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (unfrozen(x)) freezeTree(x, depth + 1);
    }
  } else {
    for (const k in v) {
      const x: unknown = (v as Record<string, unknown>)[k];
      if (unfrozen(x) && Object.hasOwn(v, k)) freezeTree(x, depth + 1);
    }
  }
  Object.freeze(v);
}

/** The same order (children before their parents) without recursion. */
function freezeDeepTree(root: object): void {
  const todo: object[] = [root];
  const order: object[] = [];
  while (todo.length) {
    const v = todo.pop()!;
    // At once, so that an object met twice (or a cycle) is taken once.
    Object.preventExtensions(v);
    order.push(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (unfrozen(x)) todo.push(x);
  }
  for (let i = order.length - 1; i >= 0; i--) Object.freeze(order[i]);
}

/** The reason a row (or the module's top level) failed, with a way out when it failed by changing its rollout or a built-in. */
export function readOnlyHint(message: string): string {
  return /^TypeError: .*(read only property|object is not extensible|Cannot delete property|Cannot redefine property)/.test(message)
    ? `${message} (rollouts and built-ins are read-only in reward code: change a copy, e.g. [...t.fields.xs].sort(), and keep helpers in objects of your own)`
    : message;
}
