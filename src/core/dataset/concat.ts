/** Typed arrays one after the other in one array of `Make`'s type (an Int32Array's values fit a Float64Array). */
export function concat<A extends Float64Array | Int32Array>(parts: readonly ArrayLike<number>[], Make: { new (n: number): A }): A {
  const out = new Make(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
