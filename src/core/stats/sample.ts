/** Up to `max` row indexes spread evenly over the rows where `keep` holds: the k-th of max is row ⌊k·m/max⌋ of the m kept (deterministic, so charts do not jump). */
export function sampleRows(n: number, keep: (i: number) => boolean, max: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) rows.push(i);
  if (rows.length <= max) return rows;
  const step = rows.length / max;
  return Array.from({ length: max }, (_, k) => rows[Math.floor(k * step)]);
}
