/**
 * A seeded sample of rows for `--sample N`: the same seed gives the same rows everywhere (browser, CLI, the Python
 * reference in scripts/probe-fixtures.py). mulberry32 drives a partial Fisher–Yates shuffle; rows come back ascending.
 */

/** mulberry32 (Tommy Ettinger): a 32-bit state, uniform floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `size` distinct rows of 0..n−1 (all of them, in order, when size ≥ n), ascending. */
export function sampleRowsSeeded(n: number, size: number, seed: number): Int32Array {
  if (size >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  const rand = mulberry32(seed);
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(rand() * (n - i));
    const t = idx[i];
    idx[i] = idx[j];
    idx[j] = t;
  }
  return idx.slice(0, size).sort();
}
