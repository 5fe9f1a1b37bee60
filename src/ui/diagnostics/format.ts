/** Numbers as the diagnostics panels show them: '—' for undefined values, 4 decimals for statistics. */
export const fmt = (v: number | null | undefined, digits = 4): string =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(digits);
export const pct = (v: number | null | undefined): string => (v === null || v === undefined || Number.isNaN(v) ? '—' : `${(v * 100).toFixed(1)}%`);
export const fmtTick = (v: number): string => (Number.isInteger(v) ? String(v) : Math.abs(v) >= 100 ? v.toFixed(0) : String(Number(v.toPrecision(3))));
