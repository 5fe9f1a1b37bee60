/**
 * Axis ticks and the way chart numbers are written: a true minus sign ("−2", so "−2 to −1.75" reads as a range, never
 * "-2--1.75"), and compact large numbers ("250k", "1.2M") that fit an axis 44 px wide at a million rows.
 */

const MINUS = '\u2212';
const UNITS: [number, string][] = [
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** `|v|` with at most three significant digits, without trailing zeros (0.333, 1.5, 250). */
function sig3(v: number): string {
  return String(Number(v.toPrecision(3)));
}

/** A number written compactly with k / M / B from `from` up (three significant digits), with a true minus sign. */
function compact(v: number, from: number): string {
  const sign = v < 0 ? MINUS : '';
  const a = Math.abs(v);
  if (a >= from) {
    // Largest unit first: the first one that fits is the one to write in.
    for (let u = 0; u < UNITS.length; u++) {
      const [size, suffix] = UNITS[u];
      if (a < size) continue;
      const digits = Number((a / size).toPrecision(3));
      // 999,999 rounds to 1000k: written in the next unit up (1M) instead.
      if (digits >= 1000 && u > 0) return sign + sig3(a / UNITS[u - 1][0]) + UNITS[u - 1][1];
      return sign + sig3(digits) + suffix;
    }
  }
  if (Number.isInteger(a)) return sign + String(a);
  return sign + (a >= 100 ? a.toFixed(0) : sig3(a));
}

/** A count on an axis or in a legend: exact below 1,000, compact above (1k, 1.5k, 250k, 1M). */
export function countLabel(n: number): string {
  return compact(n, 1000);
}

/** A value on an axis (reward, length, advantage): compact from 10,000 up, three significant digits below 100. */
export function tickLabel(v: number): string {
  return compact(v, 10_000);
}

/** A bin from x0 to x1, as "−2 to −1.75". */
export function rangeLabel(x0: number, x1: number): string {
  return `${tickLabel(x0)} to ${tickLabel(x1)}`;
}

/** About `n` round tick values (steps of 1, 2, 2.5 or 5 × 10^k) covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, n = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

/**
 * Ticks of a count axis from 0: whole steps of 1, 2 or 5 × 10^k, about `n` of them, the last at or above `max`
 * (so the tallest bar stays under the top tick).
 */
export function countTicks(max: number, n = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag);
  const out: number[] = [];
  for (let t = 0; t < max + step; t += step) out.push(t);
  return out;
}
