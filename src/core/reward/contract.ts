/**
 * The reward contract (DESIGN.md, "The reward contract"):
 *   export default function reward(t: Trajectory, ctx: RewardContext): number | RewardResult | null
 * `null` means "this reward does not apply here" and is counted apart, never as 0.
 */

export interface RewardResult {
  score: number;
  /** Numbers are components; a string value is a text column of the run (as a verl dict's `"pred": "72"`). */
  components?: Record<string, number | string>;
  steps?: number[];
  note?: string;
}

/** Per-row outcome codes, stored in a Uint8Array next to the Float64Array of scores. */
export const RowStatus = {
  Pending: 0,
  Ok: 1,
  Null: 2,
  Error: 3,
  TimedOut: 4,
} as const;

export type ValidatedResult =
  | { kind: 'ok'; score: number; components?: Record<string, number>; strings?: Record<string, string>; steps?: number[]; note?: string }
  | { kind: 'null' }
  | { kind: 'error'; reason: string };

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)})`;
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A note longer than this is cut (with a word that it was); a row's components are at most COMPONENT_LIMIT names. */
export const NOTE_LIMIT = 2000;
export const COMPONENT_LIMIT = 64;
export const COMPONENT_NAME_LIMIT = 100;
/** Step rewards (RewardResult.steps) a row may return: the Shaping step transforms read them. */
export const STEP_LIMIT = 4096;

/** Step rewards of n rows, ragged: row i has values[offsets[i] .. offsets[i + 1]). */
export interface RaggedSteps {
  offsets: Int32Array;
  values: Float64Array;
}

/**
 * What is wrong with step rewards for n rows (offsets: n + 1 of them from 0, each row at most STEP_LIMIT steps, in
 * order; values: as many as the last offset, all finite), as a path and what was expected there; null when nothing.
 */
export function stepsProblem(s: RaggedSteps, n: number): { at: string; expected: string } | null {
  const { offsets, values } = s;
  if (offsets.length !== n + 1 || offsets[0] !== 0) return { at: 'offsets', expected: `an Int32Array of ${n + 1} from 0` };
  for (let i = 0; i < n; i++) {
    const k = offsets[i + 1] - offsets[i];
    if (!(k >= 0 && k <= STEP_LIMIT)) return { at: `offsets.${i + 1}`, expected: `at most ${STEP_LIMIT} steps per row, in order` };
  }
  if (values.length !== offsets[n]) return { at: 'values', expected: `a Float64Array of ${offsets[n]}` };
  for (let j = 0; j < values.length; j++) if (!Number.isFinite(values[j])) return { at: `values.${j}`, expected: 'a finite number' };
  return null;
}
/**
 * Text values of a result (verl's `{"score": 1.0, "pred": "72"}`): a run keeps the first STRING_COLUMN_LIMIT names
 * and each value's first STRING_VALUE_LIMIT characters (an answer, not a transcript: 100k rows stay small).
 */
export const STRING_COLUMN_LIMIT = 16;
export const STRING_VALUE_LIMIT = 200;

/** A text value as a run keeps it: cut at STRING_VALUE_LIMIT characters, with an ellipsis when it was. */
export function cutString(s: string): string {
  return s.length > STRING_VALUE_LIMIT ? `${s.slice(0, STRING_VALUE_LIMIT)}…` : s;
}

/** Set an own property, whatever its name (`__proto__` included). */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Check what reward code returned. A non-finite or non-number result is an error with a clear reason. */
export function validateResult(value: unknown): ValidatedResult {
  if (value === null) return { kind: 'null' };
  if (typeof value === 'number') {
    return Number.isFinite(value) ? { kind: 'ok', score: value } : { kind: 'error', reason: `reward returned ${describe(value)}, expected a finite number` };
  }
  if (typeof value === 'boolean') return { kind: 'error', reason: 'reward returned a boolean, expected a finite number (use Number(x) or x ? 1 : 0)' };
  if (typeof value === 'object' && value !== undefined && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    if (!('score' in obj)) return { kind: 'error', reason: 'reward returned an object without a `score` field' };
    const score = obj.score;
    if (score === null) return { kind: 'null' };
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      return { kind: 'error', reason: `reward returned score ${describe(score)}, expected a finite number` };
    }
    const out: Extract<ValidatedResult, { kind: 'ok' }> = { kind: 'ok', score };
    if (obj.components !== undefined) {
      if (typeof obj.components !== 'object' || obj.components === null || Array.isArray(obj.components)) {
        return { kind: 'error', reason: 'reward returned `components` that is not an object of numbers' };
      }
      const comps: Record<string, number> = {};
      const strings: Record<string, string> = {};
      const entries = Object.entries(obj.components as Record<string, unknown>);
      if (entries.length > COMPONENT_LIMIT)
        return { kind: 'error', reason: `reward returned ${entries.length} components, at most ${COMPONENT_LIMIT} are allowed` };
      for (const [k, v] of entries) {
        if (k.length > COMPONENT_NAME_LIMIT)
          return { kind: 'error', reason: `a component name is ${k.length} characters long, at most ${COMPONENT_NAME_LIMIT} are allowed` };
        if (typeof v === 'string') {
          setOwn(strings, k, cutString(v));
          continue;
        }
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          return { kind: 'error', reason: `component "${k}" is ${describe(v)}, expected a finite number or a string` };
        }
        setOwn(comps, k, v);
      }
      out.components = comps;
      if (Object.keys(strings).length > 0) out.strings = strings;
    }
    if (obj.steps !== undefined) {
      const st = obj.steps;
      if (!Array.isArray(st) || !st.every((x) => typeof x === 'number' && Number.isFinite(x)))
        return { kind: 'error', reason: 'reward returned `steps` that is not an array of finite numbers' };
      if (st.length > STEP_LIMIT) return { kind: 'error', reason: `reward returned ${st.length} steps, at most ${STEP_LIMIT} are allowed` };
      out.steps = st as number[];
    }
    if (typeof obj.note === 'string')
      out.note = obj.note.length > NOTE_LIMIT ? `${obj.note.slice(0, NOTE_LIMIT)}… (note cut at ${NOTE_LIMIT.toLocaleString('en-US')} characters)` : obj.note;
    return out;
  }
  return { kind: 'error', reason: `reward returned ${describe(value)}, expected a finite number, {score} or null` };
}
