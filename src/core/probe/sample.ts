/**
 * A seeded sample of rows for `--sample N`: the same seed gives the same rows everywhere (browser, CLI, the Python
 * reference in scripts/probe-fixtures.py). mulberry32 drives a partial Fisher–Yates shuffle; rows come back ascending.
 */
import { mulberry32 } from '../stats/preference';

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
