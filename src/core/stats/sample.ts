/** Up to `max` row indexes spread evenly over the rows where `keep` holds: the k-th of max is row ⌊k·m/max⌋ of the m kept (deterministic, so charts do not jump). */
export function sampleRows(n: number, keep: (i: number) => boolean, max: number): number[] {
  const rows: number[] = [];
  for (let i = 0; i < n; i++) if (keep(i)) rows.push(i);
  if (rows.length <= max) return rows;
  const step = rows.length / max;
  return Array.from({ length: max }, (_, k) => rows[Math.floor(k * step)]);
}

/**
 * Rows in `pinned` first (at most half of `max`, so the sample still covers the rest), then `sampleRows` of the rows
 * where `keep` holds for the remaining room; a row in both is listed once, where it is pinned.
 */
export function sampleRowsPinned(pinned: ArrayLike<number>, n: number, keep: (i: number) => boolean, max: number): number[] {
  const first = Array.from({ length: Math.min(pinned.length, Math.floor(max / 2)) }, (_, k) => pinned[k]);
  return [...new Set([...first, ...sampleRows(n, keep, max - first.length)])];
}
