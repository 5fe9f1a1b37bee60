import { RowStatus } from '../reward/contract';

/**
 * The one score every scored row got, or null when two scored rows differ or none was scored. A constant reward
 * gives every group zero std, so no rollout carries a learning signal: worth saying next to the chart.
 * Scores compare with ===, so 0 and −0 are one score.
 */
export function constantScore(scores: ArrayLike<number>, status: ArrayLike<number>): { value: number; rows: number } | null {
  let value = Number.NaN;
  let rows = 0;
  for (let i = 0; i < scores.length; i++) {
    if (status[i] !== RowStatus.Ok) continue;
    if (rows > 0 && scores[i] !== value) return null;
    value = scores[i];
    rows++;
  }
  return rows > 0 ? { value: value === 0 ? 0 : value, rows } : null;
}
