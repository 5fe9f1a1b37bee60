/**
 * Applying a shaping list (spec.ts) to a run's rewards: each transform, looked up by name, maps the column of rewards
 * entering it to a new column; unscored rows (NaN, or outside [0, groupCount)) stay NaN throughout and are left out of
 * every group statistic (as core/stats does). Step transforms rewrite a copy of the rows' step rewards, which
 * `step-sum` adds to the reward. Pure and O(n) per transform (the group median: O(n log n)).
 */
import { normaliseShapes, type LengthUnit, type ShapeName, type ShapeSpec } from './spec';

/** Ragged per-row step rewards (RewardResult.steps): row i's steps are values[offsets[i] .. offsets[i + 1]). */
export interface StepColumn {
  offsets: Int32Array;
  values: Float64Array;
}

export interface ShapeInput {
  groupOf: Int32Array;
  groupCount: number;
  /** Completion lengths per unit; a transform in that unit needs its column. */
  lengths?: Partial<Record<LengthUnit, ArrayLike<number>>>;
  /** Numeric dataset columns by name (par:ref=column); a missing cell is NaN. */
  columns?: Readonly<Record<string, ArrayLike<number>>>;
  steps?: StepColumn | null;
}

interface State {
  r: Float64Array;
  steps: StepColumn | null;
  scored: (i: number) => boolean;
  input: ShapeInput;
}

type Transform<S extends ShapeSpec = ShapeSpec> = (s: S, st: State) => void;

/** DAPO soft overlong punishment: added to the reward, by the row's length. */
export function dapoPenalty(len: number, max: number, cache: number): number {
  if (len <= max - cache) return 0;
  if (len <= max) return (max - cache - len) / cache;
  return -1;
}

/** Kimi k1.5's λ for a length among the group's [min, max]. */
export function kimiLambda(len: number, min: number, max: number): number {
  return max === min ? 0 : 0.5 - (len - min) / (max - min);
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function lengthsOf(st: State, unit: LengthUnit, name: string): ArrayLike<number> {
  const l = st.input.lengths?.[unit];
  if (!l) throw new Error(`${name} needs the completions' lengths in ${unit}`);
  if (l.length !== st.r.length) throw new RangeError(`${name}: lengths differ in length from the rewards (${l.length} vs ${st.r.length})`);
  return l;
}

/** Per group over its scored rows with a finite value: min, max, sum, count, first (in row order). O(n), typed arrays. */
function groupFolds(st: State, values: ArrayLike<number>) {
  const { groupOf, groupCount } = st.input;
  const lo = new Float64Array(groupCount).fill(Infinity);
  const hi = new Float64Array(groupCount).fill(-Infinity);
  const sum = new Float64Array(groupCount);
  const count = new Int32Array(groupCount);
  const first = new Float64Array(groupCount).fill(NaN);
  for (let i = 0; i < st.r.length; i++) {
    const v = values[i];
    if (!st.scored(i) || !Number.isFinite(v)) continue;
    const g = groupOf[i];
    if (count[g]++ === 0) first[g] = v;
    if (v < lo[g]) lo[g] = v;
    if (v > hi[g]) hi[g] = v;
    sum[g] += v;
  }
  return { lo, hi, sum, count, first };
}

/** Per group: the median of the scored rewards (even count: the mean of the two middle ones), NaN for none. O(n log n). */
function groupMedians(st: State): Float64Array {
  const { groupOf, groupCount } = st.input;
  const start = new Int32Array(groupCount + 1);
  for (let i = 0; i < st.r.length; i++) if (st.scored(i)) start[groupOf[i] + 1]++;
  for (let g = 0; g < groupCount; g++) start[g + 1] += start[g];
  // Counting sort by group, then each group's slice sorted in place.
  const buf = new Float64Array(start[groupCount]);
  const fill = start.slice(0, groupCount);
  for (let i = 0; i < st.r.length; i++) if (st.scored(i)) buf[fill[groupOf[i]]++] = st.r[i];
  const out = new Float64Array(groupCount).fill(NaN);
  for (let g = 0; g < groupCount; g++) {
    const n = start[g + 1] - start[g];
    if (n === 0) continue;
    const xs = buf.subarray(start[g], start[g + 1]).sort();
    const m = n >> 1;
    out[g] = n % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2;
  }
  return out;
}

const TRANSFORMS: { [K in ShapeName]: Transform<Extract<ShapeSpec, { name: K }>> } = {
  'dapo-overlong': (s, st) => {
    const len = lengthsOf(st, s.unit, s.name);
    for (let i = 0; i < st.r.length; i++) if (st.scored(i)) st.r[i] += dapoPenalty(len[i], s.max, s.cache);
  },
  'kimi-length': (s, st) => {
    const len = lengthsOf(st, s.unit, s.name);
    const { lo, hi } = groupFolds(st, len);
    // λ from the lengths the rewards entering this transform were given: a row's own correctness decides its branch.
    const lam = new Float64Array(st.r.length);
    for (let i = 0; i < st.r.length; i++) if (st.scored(i)) lam[i] = kimiLambda(len[i], lo[st.input.groupOf[i]], hi[st.input.groupOf[i]]);
    for (let i = 0; i < st.r.length; i++) if (st.scored(i)) st.r[i] += st.r[i] > 0 ? lam[i] : Math.min(0, lam[i]);
  },
  par: (s, st) => {
    const { groupOf } = st.input;
    let ref: (i: number) => number;
    if (s.ref === 'column') {
      const col = st.input.columns?.[s.column ?? ''];
      if (!col) throw new Error(`par needs the column ${JSON.stringify(s.column)}`);
      ref = (i) => col[i];
    } else {
      const byGroup = s.ref === 'median' ? groupMedians(st) : groupFolds(st, st.r).first;
      ref = (i) => byGroup[groupOf[i]];
    }
    const out = new Float64Array(st.r.length).fill(NaN);
    for (let i = 0; i < st.r.length; i++) if (st.scored(i)) out[i] = sigmoid(st.r[i] - ref(i));
    // A row without a finite reference has no PAR reward: it becomes unscored (NaN).
    st.r.set(out);
  },
  clip: (s, st) => {
    for (let i = 0; i < st.r.length; i++) {
      if (!st.scored(i)) continue;
      if (s.min !== null && st.r[i] < s.min) st.r[i] = s.min;
      if (s.max !== null && st.r[i] > s.max) st.r[i] = s.max;
    }
  },
  scale: (s, st) => {
    for (let i = 0; i < st.r.length; i++) if (st.scored(i)) st.r[i] *= s.by;
  },
  center: (s, st) => {
    const { groupOf } = st.input;
    if (s.over === 'group') {
      const { sum, count } = groupFolds(st, st.r);
      for (let i = 0; i < st.r.length; i++) if (st.scored(i)) st.r[i] -= sum[groupOf[i]] / count[groupOf[i]];
      return;
    }
    let sum = 0;
    let c = 0;
    for (let i = 0; i < st.r.length; i++) {
      if (!st.scored(i)) continue;
      sum += st.r[i];
      c++;
    }
    const m = sum / c;
    for (let i = 0; i < st.r.length; i++) if (st.scored(i)) st.r[i] -= m;
  },
  'step-clip': (s, st) => {
    const v = stepsOf(st, s.name).values;
    for (let j = 0; j < v.length; j++) v[j] = Math.min(v[j] - s.eta, 0);
  },
  'step-delta': (s, st) => {
    const { offsets, values: v } = stepsOf(st, s.name);
    // In place, front to back: r_k − r_{k+1} reads r_{k+1} before it is rewritten; then the last step kept or dropped.
    for (let i = 0; i + 1 < offsets.length; i++) {
      const end = offsets[i + 1];
      for (let j = offsets[i]; j < end - 1; j++) v[j] = v[j] - v[j + 1];
      if (s.last === 'drop' && end > offsets[i]) v[end - 1] = 0;
    }
  },
  'step-sum': (s, st) => {
    const { offsets, values: v } = stepsOf(st, s.name);
    for (let i = 0; i < st.r.length; i++) {
      if (!st.scored(i)) continue;
      let sum = 0;
      for (let j = offsets[i]; j < offsets[i + 1]; j++) sum += v[j];
      st.r[i] += s.weight * sum;
    }
  },
};

function stepsOf(st: State, name: string): StepColumn {
  if (!st.steps) throw new Error(`${name} needs step rewards (RewardResult.steps)`);
  return st.steps;
}

/**
 * The shaped rewards: `rewards` (not modified) through each transform of `specs` in order. `specs` must be
 * normalised (normaliseShapes); a transform whose input is missing (lengths in its unit, a column, step rewards)
 * throws an Error that names it.
 */
export function applyShaping(rewards: ArrayLike<number>, specs: readonly ShapeSpec[], input: ShapeInput): Float64Array {
  const n = rewards.length;
  if (input.groupOf.length !== n) throw new RangeError(`applyShaping: columns differ in length (${n} vs ${input.groupOf.length})`);
  const checked = normaliseShapes(specs);
  if (!checked.ok) throw new RangeError(checked.message);
  let steps: StepColumn | null = null;
  if (input.steps) {
    if (input.steps.offsets.length !== n + 1) throw new RangeError(`applyShaping: step offsets hold ${input.steps.offsets.length} entries, expected ${n + 1}`);
    steps = { offsets: input.steps.offsets, values: Float64Array.from(input.steps.values) };
  }
  const r = new Float64Array(n);
  const { groupOf, groupCount } = input;
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    r[i] = g >= 0 && g < groupCount && Number.isFinite(rewards[i]) ? rewards[i] : NaN;
  }
  // Scored = finite after the transforms so far (par may unscore a row whose reference is missing).
  const st: State = { r, steps, input, scored: (i) => Number.isFinite(r[i]) };
  for (const s of checked.value) (TRANSFORMS[s.name] as Transform)(s, st);
  for (let i = 0; i < n; i++) if (!Number.isFinite(r[i])) r[i] = NaN;
  return r;
}
