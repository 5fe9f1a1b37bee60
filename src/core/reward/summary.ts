import { RowStatus } from './contract';

/** Counts and mean of one run, kept in the run history. */
export interface RunSummary {
  rows: number;
  ok: number;
  nulls: number;
  errors: number;
  timedOut: number;
  pending: number;
  /** Mean of the scores of ok rows (NaN when none). */
  mean: number;
}

export function summarizeRun(scores: Float64Array, status: Uint8Array): RunSummary {
  const s: RunSummary = { rows: status.length, ok: 0, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: Number.NaN };
  let sum = 0;
  for (let i = 0; i < status.length; i++) {
    switch (status[i]) {
      case RowStatus.Ok:
        s.ok++;
        sum += scores[i];
        break;
      case RowStatus.Null:
        s.nulls++;
        break;
      case RowStatus.Error:
        s.errors++;
        break;
      case RowStatus.TimedOut:
        s.timedOut++;
        break;
      default:
        s.pending++;
    }
  }
  if (s.ok > 0) s.mean = sum / s.ok;
  return s;
}
