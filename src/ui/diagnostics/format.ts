/** Numbers as the diagnostics panels show them: '—' for undefined values, 4 decimals for statistics. */
export const fmt = (v: number | null | undefined, digits = 4): string =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(digits);
export const pct = (v: number | null | undefined): string => (v === null || v === undefined || Number.isNaN(v) ? '—' : `${(v * 100).toFixed(1)}%`);
export const fmtTick = (v: number): string => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : String(Number(v.toPrecision(3))));

/** Scores of a run with every row that is not OK set to NaN (null, error, timed out, pending). */
export function scoredValues(scores: Float64Array, status: Uint8Array): Float64Array {
  const out = new Float64Array(scores.length);
  for (let i = 0; i < scores.length; i++) out[i] = status[i] === 1 ? scores[i] : Number.NaN;
  return out;
}

/** Up to `max` row indexes spread evenly over the rows where `keep` holds (deterministic, so charts do not jump). */
export function sampleRows(n: number, keep: (i: number) => boolean, max: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) rows.push(i);
  if (rows.length <= max) return rows;
  const step = rows.length / max;
  return Array.from({ length: max }, (_, k) => rows[Math.floor(k * step)]);
}
