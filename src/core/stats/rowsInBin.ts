import { binOf, type Histogram } from './histogram';

/** Indices of the rows whose value falls in bin `b` of `h` (the rollouts behind a bar). */
export function rowsInBin(values: ArrayLike<number>, h: Histogram, b: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) if (binOf(h, values[i]) === b) out.push(i);
  return Int32Array.from(out);
}
