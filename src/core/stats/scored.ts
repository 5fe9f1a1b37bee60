import { RowStatus } from '../reward/contract';

/** A run's scores with every row that is not OK set to NaN (null, error, timed out, pending), as every diagnostic wants them. */
export function scoredValues(scores: ArrayLike<number>, status: ArrayLike<number>): Float64Array {
  const out = new Float64Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = status[i] === RowStatus.Ok ? scores[i] : Number.NaN;
  return out;
}
