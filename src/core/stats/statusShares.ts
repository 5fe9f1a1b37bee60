import { RowStatus } from '../reward/contract';

/** Fractions of a run's rows whose reward returned null and that failed (error or timed out); NaN for no rows. */
export function statusShares(status: ArrayLike<number>): { nulls: number; failed: number } {
  let nulls = 0;
  let failed = 0;
  for (let i = 0; i < status.length; i++) {
    if (status[i] === RowStatus.Null) nulls++;
    else if (status[i] === RowStatus.Error || status[i] === RowStatus.TimedOut) failed++;
  }
  const n = status.length;
  return n === 0 ? { nulls: Number.NaN, failed: Number.NaN } : { nulls: nulls / n, failed: failed / n };
}
