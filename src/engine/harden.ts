/**
 * A TypeScript reward worker keeps its realm from one run to the next (its rows are read once). So that one reward
 * cannot change what a later one computes or posts (a patched `String.prototype.includes`, `Function.prototype.call`,
 * `JSON.parse`), everything reachable from the global object is frozen before any reward code runs. Why each
 * exception is there: docs/engine.md, "One reward cannot change the next".
 */

/** What `hardenRealm` left unfrozen and checks instead: `intact()` is false once reward code changed it. */
export interface Hardened {
  /** Objects frozen. */
  frozen: number;
  /** False once `RegExp.prototype` differs from what it was (V8 drops its fast regex paths on any change to it). */
  intact(): boolean;
}

/** A task's outcome when reward code changed what `hardenRealm` left unfrozen (serve.ts checks before and after). */
export const REALM_CHANGED =
  'reward code changed RegExp.prototype, which every later run in this worker would have seen: the run stopped and its worker was replaced (use a RegExp of your own instead)';

const { defineProperty, freeze, getOwnPropertyDescriptor, getPrototypeOf, isFrozen } = Object;
const { ownKeys } = Reflect;
const { isView } = ArrayBuffer;

/**
 * Properties of the prototypes that code commonly sets on its own objects (`this.name = …` in an Error subclass,
 * `o.toString = …`). Freezing makes such an assignment throw ("the override mistake"); each becomes a getter and a
 * setter that defines the property on the object assigned to, as SES's "moderate" override taming does.
 */
const OVERRIDABLE: [object, (string | symbol)[]][] = [
  [Object.prototype, ['toString', 'valueOf', 'constructor']],
  [Function.prototype, ['toString', 'constructor', 'bind']],
  [Array.prototype, ['toString']],
  [Promise.prototype, ['constructor']],
  ...[Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError, AggregateError].map(
    (E) => [E.prototype, ['name', 'message', 'constructor', 'toString']] as [object, string[]],
  ),
];

function enableOverride(proto: object, key: string | symbol): void {
  const d = getOwnPropertyDescriptor(proto, key);
  if (!d || !('value' in d) || !d.configurable) return;
  const value: unknown = d.value;
  defineProperty(proto, key, {
    get() {
      return value;
    },
    set(this: object, v: unknown) {
      if (this === proto) throw new TypeError(`Cannot assign to read only property '${String(key)}' of a frozen prototype`);
      defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
    },
    enumerable: d.enumerable,
    configurable: false,
  });
}

/** Intrinsics that no global property names: each is the prototype of something a program can make. */
function hiddenIntrinsics(): unknown[] {
  const out: unknown[] = [];
  const protoOf = (make: () => unknown) => {
    try {
      out.push(getPrototypeOf(make()));
    } catch {
      /* not in this engine */
    }
  };
  protoOf(() => [][Symbol.iterator]());
  protoOf(() => ''[Symbol.iterator]());
  protoOf(() => new Map()[Symbol.iterator]());
  protoOf(() => new Set()[Symbol.iterator]());
  protoOf(() => /a/[Symbol.matchAll](''));
  protoOf(() => function* () {});
  protoOf(() => async function () {});
  protoOf(() => async function* () {});
  protoOf(() => (function* () {})());
  protoOf(() => (async function* () {})());
  protoOf(() => Int8Array);
  protoOf(() => (globalThis as unknown as { Iterator: { from(x: object): object } }).Iterator.from({ next: () => ({ done: true }) }));
  protoOf(() => ([].values() as unknown as { map(f: (x: never) => never): object }).map((x) => x));
  // Not %SegmentsPrototype% (Intl.Segmenter's results): reaching it starts ICU's segmenter, 8 of the 12 ms this took.
  const thrower = getOwnPropertyDescriptor(Function.prototype, 'caller')?.get;
  if (thrower) out.push(thrower);
  return out;
}

/**
 * Freeze every object reachable from `scope`'s properties and prototypes, except `scope` itself (its data
 * properties become read-only instead), `RegExp.prototype` (checked by `intact`) and `skip`. A getter is called only
 * when `read` names it (what it returns is frozen too); otherwise its functions are frozen, not what it returns.
 */
export function hardenRealm(scope: object, opts: { skip?: string[]; read?: string[] } = {}): Hardened {
  const regExpProto = RegExp.prototype as unknown as Record<string | symbol, unknown>;
  const left = new Set<unknown>([scope, regExpProto]);
  for (const name of opts.skip ?? []) {
    const d = getOwnPropertyDescriptor(scope, name);
    if (d && 'value' in d) left.add(d.value);
  }
  for (const [proto, keys] of OVERRIDABLE) for (const k of keys) enableOverride(proto, k);

  const seen = new Set<unknown>(left);
  const todo: object[] = [];
  const add = (v: unknown) => {
    if ((typeof v === 'object' && v !== null) || typeof v === 'function') {
      if (!seen.has(v)) {
        seen.add(v);
        todo.push(v);
      }
    }
  };
  const walk = (o: object) => {
    add(getPrototypeOf(o));
    for (const k of ownKeys(o)) {
      const d = getOwnPropertyDescriptor(o, k);
      if (!d) continue;
      add(d.value);
      add(d.get);
      add(d.set);
    }
  };
  walk(scope);
  walk(regExpProto);
  for (const name of opts.read ?? []) add((scope as Record<string, unknown>)[name]);
  for (const v of hiddenIntrinsics()) add(v);
  let frozen = 0;
  while (todo.length) {
    const o = todo.pop()!;
    walk(o);
    // A typed array with elements cannot be frozen.
    if (isView(o) || isFrozen(o)) continue;
    freeze(o);
    frozen++;
  }
  // The global object stays extensible (reward code may add its own globals), but what is there cannot be replaced.
  for (const k of ownKeys(scope)) {
    const d = getOwnPropertyDescriptor(scope, k);
    if (!d || !d.configurable || !('value' in d) || (typeof k === 'string' && opts.skip?.includes(k))) continue;
    defineProperty(scope, k, { value: d.value, writable: false, enumerable: d.enumerable, configurable: false });
  }
  const keys = ownKeys(regExpProto);
  const before = keys.map((k) => getOwnPropertyDescriptor(regExpProto, k)!);
  const same = (a: PropertyDescriptor | undefined, b: PropertyDescriptor) =>
    !!a && a.value === b.value && a.get === b.get && a.set === b.set && a.writable === b.writable && a.configurable === b.configurable;
  return {
    frozen,
    intact: () => {
      const now = ownKeys(regExpProto);
      if (now.length !== keys.length || !Object.isExtensible(regExpProto) || getPrototypeOf(regExpProto) !== Object.prototype) return false;
      for (let i = 0; i < keys.length; i++) if (now[i] !== keys[i] || !same(getOwnPropertyDescriptor(regExpProto, keys[i]), before[i])) return false;
      return true;
    },
  };
}

/**
 * For a worker whose runtime loads first (Pyodide, which needs the network APIs and an unfrozen realm to start):
 * `lock` (the lock-down and the freeze) runs once `ready` has settled; the realm counts as intact until then.
 */
export function hardenAfter(ready: Promise<unknown>, lock: () => Hardened): () => boolean {
  let realm: Hardened | null = null;
  const done = () => void (realm = lock());
  void ready.then(done, done);
  return () => realm?.intact() ?? true;
}

/** Node's own `process` and `console` change as they work: the frozen realm leaves them as they are. */
const NODE_SKIP = ['process', 'console'];
/** Globals Node keeps behind getters that are not read: the fetch family loads undici (12 ms), and the worker uses none. */
const NODE_UNREAD = new Set([...NODE_SKIP, 'performance', 'crypto', 'FormData', 'Headers', 'Request', 'Response']);

/**
 * `hardenRealm` for a Node worker thread. Node exposes most Web APIs (Blob, TextDecoder, the streams, MessagePort)
 * through getters that load them when first read, and a getter is not followed: they are read first (~2 ms), so that
 * they are frozen too.
 */
export function hardenNodeRealm(): Hardened {
  const read = Object.entries(Object.getOwnPropertyDescriptors(globalThis))
    .filter(([k, d]) => d.get && !NODE_UNREAD.has(k))
    .map(([k]) => k);
  return hardenRealm(globalThis, { skip: NODE_SKIP, read });
}
