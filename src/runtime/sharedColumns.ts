/**
 * Columns the page sends a worker again and again (a run's scores, a dataset's groups and lengths: each diagnostics
 * tab's job, at every visit) as copies on a SharedArrayBuffer, made once per column: a message then carries them
 * without copying them. At a million rows the copies each message made took 30–200 ms of the page's thread (bench/README,
 * session 28). The page never changes these arrays once made, and the workers only read them (figures.inputs.test.ts).
 * Where the page is not cross-origin isolated there is no SharedArrayBuffer: the arrays go as they are, copied by
 * each message as before.
 */
type Column = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

const copies = new WeakMap<object, Column>();

function isColumn(x: unknown): x is Column {
  return (
    ArrayBuffer.isView(x) && !(x instanceof DataView) && !(typeof BigInt64Array !== 'undefined' && (x instanceof BigInt64Array || x instanceof BigUint64Array))
  );
}

/** `a`'s shared copy (the same one each time), or `a` itself where nothing can be shared. */
export function shared<T extends Column>(a: T): T {
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer === 'undefined' || a.buffer instanceof SharedArrayBuffer) return a;
  let s = copies.get(a);
  if (!s) {
    const b = new SharedArrayBuffer(a.byteLength);
    new Uint8Array(b).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    s = new (a.constructor as new (b: SharedArrayBuffer) => Column)(b);
    copies.set(a, s);
  }
  return s as T;
}

/** A message's typed arrays made shared: its own, and those in its lists and records, one level down. */
export function sharedColumns<T extends object>(m: T): T {
  const one = (v: unknown): unknown =>
    isColumn(v)
      ? shared(v)
      : Array.isArray(v)
        ? v.map((x) => (isColumn(x) ? shared(x) : x))
        : v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isColumn(x) ? shared(x) : x]))
          : v;
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, one(v)])) as T;
}
