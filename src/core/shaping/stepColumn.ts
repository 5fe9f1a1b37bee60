/** Step rewards of a whole run, put together from the ranges the workers scored (each ragged: offsets + values). */
import type { StepColumn } from './shape';

export interface StepPiece extends StepColumn {
  /** First row of the range. */
  start: number;
}

/**
 * One ragged column over rows [0, rows): row r's steps are those of the last piece (in the order given) that covers
 * it; rows no piece covers have none. O(rows + values).
 */
export function assembleSteps(pieces: readonly StepPiece[], rows: number): StepColumn {
  const from = new Int32Array(rows).fill(-1);
  pieces.forEach((p, k) => {
    const n = p.offsets.length - 1;
    if (p.start < 0 || p.start + n > rows) throw new RangeError(`assembleSteps: rows ${p.start}–${p.start + n} outside [0, ${rows})`);
    from.fill(k, p.start, p.start + n);
  });
  const offsets = new Int32Array(rows + 1);
  for (let r = 0; r < rows; r++) {
    const k = from[r];
    const p = k >= 0 ? pieces[k] : null;
    offsets[r + 1] = offsets[r] + (p ? p.offsets[r - p.start + 1] - p.offsets[r - p.start] : 0);
  }
  const values = new Float64Array(offsets[rows]);
  for (let r = 0; r < rows; r++) {
    const k = from[r];
    if (k < 0) continue;
    const p = pieces[k];
    values.set(p.values.subarray(p.offsets[r - p.start], p.offsets[r - p.start + 1]), offsets[r]);
  }
  return { offsets, values };
}
