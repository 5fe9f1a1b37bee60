/**
 * The geometry of a chart over training steps (StepSeriesCanvas): domains, the step nearest a pointer, stacking,
 * stepAfter outlines and the runs a line is drawn in. Pure and DOM-free, so each is unit-tested with exact values.
 */
import { niceTicks } from './axis';

/** A linear map from the domain [d0, d1] onto the range [r0, r1] (a zero-width domain maps to the range's middle). */
export function linear(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  if (!(d1 !== d0)) return () => (r0 + r1) / 2;
  const k = (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** The least and greatest finite values of `arrays` and of `include` (e.g. 0, or a fixed domain); [0, 1] when none. */
export function extentOf(arrays: readonly ArrayLike<number>[], include: readonly number[] = []): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of include) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) {
      const v = a[i];
      // NaN fails both tests: a missing value widens nothing.
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : [0, 1];
}

/**
 * [lo, hi] widened to the round ticks around it (about `n` of them), so the axis starts and ends on a labelled tick;
 * a single value v becomes [v − 1, v + 1] (or [0, 1] for 0) first.
 */
export function niceDomain(lo: number, hi: number, n = 4): [number, number] {
  if (!(hi > lo)) [lo, hi] = lo === 0 ? [0, 1] : [lo - Math.abs(lo), hi + Math.abs(hi)];
  const t = niceTicks(lo, hi, n);
  if (t.length < 2) return [lo, hi];
  const step = t[1] - t[0];
  return [Number((Math.floor(lo / step + 1e-9) * step).toPrecision(12)), Number((Math.ceil(hi / step - 1e-9) * step).toPrecision(12))];
}

/** The index of the value of `sorted` (ascending, non-empty) nearest `v`; the lower one on a tie. −1 when empty. */
export function nearestIndex(sorted: ArrayLike<number>, v: number): number {
  const n = sorted.length;
  if (n === 0) return -1;
  let lo = 0;
  let hi = n - 1;
  // The first index whose value is ≥ v (or n − 1).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && v - sorted[lo - 1] <= sorted[lo] - v) return lo - 1;
  return lo;
}

/**
 * Layers stacked bottom to top: for layer j, the top of its span at each of `n` steps (its base is layer j − 1's top,
 * 0 for the first). A missing value (NaN) adds nothing, so the layers above it keep their place.
 */
export function stackTops(layers: readonly ArrayLike<number>[], n: number): Float64Array[] {
  const out: Float64Array[] = [];
  let below = new Float64Array(n);
  for (const layer of layers) {
    const top = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = layer[i];
      top[i] = below[i] + (Number.isFinite(v) ? v : 0);
    }
    out.push(top);
    below = top;
  }
  return out;
}

/**
 * The outline of a stepAfter line through (xs[i], ys[i]), i from `from` to `to` − 1, as flat x, y pairs: each value
 * holds until the next step, where the line rises or falls straight up or down (Recharts' `type="stepAfter"`).
 */
export function stepAfterPoints(xs: ArrayLike<number>, ys: ArrayLike<number>, from = 0, to = xs.length): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    if (i > from) out.push(xs[i], ys[i - 1]);
    out.push(xs[i], ys[i]);
  }
  return out;
}

/**
 * The closed outline of the area between two stepAfter lines, lo and hi, over indices [from, to): along hi left to
 * right, then back along lo right to left; flat x, y pairs.
 */
export function stepAfterArea(xs: ArrayLike<number>, lo: ArrayLike<number>, hi: ArrayLike<number>, from = 0, to = xs.length): number[] {
  const top = stepAfterPoints(xs, hi, from, to);
  const bottom = stepAfterPoints(xs, lo, from, to);
  for (let p = bottom.length - 2; p >= 0; p -= 2) top.push(bottom[p], bottom[p + 1]);
  return top;
}

/** The runs [start, end) of consecutive indices below `n` where `ok(i)` holds: a line is drawn in each, with gaps between. */
export function runsWhere(n: number, ok: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const good = i < n && ok(i);
    if (good && start < 0) start = i;
    else if (!good && start >= 0) {
      out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/** A bar's width in pixels for bars centred at `xs` (ascending): 80% of the narrowest gap, from 1 to `max` px. */
export function barWidth(xs: ArrayLike<number>, max = 24): number {
  let gap = Infinity;
  for (let i = 1; i < xs.length; i++) gap = Math.min(gap, xs[i] - xs[i - 1]);
  if (!Number.isFinite(gap)) return max;
  return Math.max(1, Math.min(max, gap * 0.8));
}

/** The step a key moves the highlight to (from none: Right/PageDown start at the first, Left/PageUp at the last); null for other keys. */
export function keyTarget(key: string, active: number | null, n: number): number | null {
  const page = Math.max(1, Math.round(n / 10));
  let to: number;
  if (key === 'Home') to = 0;
  else if (key === 'End') to = n - 1;
  else if (active === null) to = key === 'ArrowRight' || key === 'PageDown' ? 0 : key === 'ArrowLeft' || key === 'PageUp' ? n - 1 : NaN;
  else to = key === 'ArrowRight' ? active + 1 : key === 'ArrowLeft' ? active - 1 : key === 'PageDown' ? active + page : key === 'PageUp' ? active - page : NaN;
  return Number.isNaN(to) ? null : Math.max(0, Math.min(n - 1, to));
}
