/**
 * Several reward functions with weights, as TRL's `GRPOTrainer(reward_funcs=[...], args=GRPOConfig(reward_weights=[...]))`
 * combines them (trl/trainer/grpo_trainer.py, `_generate_and_score_completions`): a function's None is NaN, and
 * `rewards = (rewards_per_func * reward_weights).nansum(dim=1)`; a row where every function returned None is 0 (TRL
 * warns "All reward functions returned None"). TRL logs each function's `rewards/<name>/mean` (torch.nanmean) and
 * `rewards/<name>/std` (trl/trainer/utils.py `nanstd`: Bessel-corrected, NaNs left out).
 * TRL stops training on an exception; here a row where a function fails has no total: it fails, naming the function.
 */
import { COMPONENT_LIMIT, RowStatus, setOwn } from './contract';
import type { RangeResult, RowError } from './runRows';

/** One function of a weighted reward: its name (TRL: `__name__`) and weight. */
export interface WeightedFunction {
  name: string;
  weight: number;
}

/** Function names as given, a repeated one numbered (`reward`, `reward_2`). */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return k === 1 ? n : `${n}_${k}`;
  });
}

/** What the run of one function gave on a range of rows. */
export interface FunctionPart extends WeightedFunction {
  result: RangeResult;
}

/** A row's error message when functions fail: each failing function as `name(): message`, joined by FAILURE_SEP. */
const FAILURE_SEP = ' | ';
const failure = (name: string, message: string) => `${name}(): ${message}`;

/** The note a row gets when every function returned None (TRL's nansum makes it 0). */
export const ALL_NONE_NOTE = 'every reward function returned None: the total is 0 (TRL: nansum)';

/**
 * The weighted total of the functions' results on one range: each function's value becomes the component named after
 * it (NaN where it returned None or failed); its own components become `name.component`, its notes `name: note`.
 */
export function combineFunctions(parts: readonly FunctionPart[]): RangeResult {
  if (parts.length === 0) throw new Error('combineFunctions: no functions');
  const { start } = parts[0].result;
  const n = parts[0].result.scores.length;
  for (const p of parts) {
    if (p.result.start !== start || p.result.scores.length !== n) throw new Error(`combineFunctions: ${p.name} covers other rows`);
  }
  const scores = new Float64Array(n).fill(Number.NaN);
  const status = new Uint8Array(n);
  const components: Record<string, Float64Array> = {};
  const add = (name: string, values: Float64Array) => {
    if (Object.hasOwn(components, name) || Object.keys(components).length < COMPONENT_LIMIT) setOwn(components, name, values);
  };
  const failures = new Map<number, { messages: string[]; line?: number; timedOut: boolean }>();
  const notes = new Map<number, string[]>();
  for (const p of parts) {
    const values = new Float64Array(n).fill(Number.NaN);
    for (let i = 0; i < n; i++) if (p.result.status[i] === RowStatus.Ok) values[i] = p.result.scores[i];
    add(p.name, values);
    for (const [k, col] of Object.entries(p.result.components)) add(`${p.name}.${k}`, col);
    const byRow = new Map(p.result.errors.map((e) => [e.row, e]));
    for (let i = 0; i < n; i++) {
      const st = p.result.status[i];
      if (st !== RowStatus.Error && st !== RowStatus.TimedOut && st !== RowStatus.Pending) continue;
      const e = byRow.get(start + i);
      const f = failures.get(i) ?? { messages: [], timedOut: false };
      f.messages.push(failure(p.name, e?.message ?? (st === RowStatus.Pending ? 'not run' : 'failed')));
      if (f.line === undefined && e?.line !== undefined) f.line = e.line;
      f.timedOut ||= st === RowStatus.TimedOut;
      failures.set(i, f);
    }
    for (const { row, note } of p.result.notes) {
      const list = notes.get(row - start) ?? [];
      list.push(`${p.name}: ${note}`);
      notes.set(row - start, list);
    }
  }
  const errors: RowError[] = [];
  for (let i = 0; i < n; i++) {
    const f = failures.get(i);
    if (f) {
      status[i] = f.timedOut && f.messages.length === 1 ? RowStatus.TimedOut : RowStatus.Error;
      const e: RowError = { row: start + i, message: f.messages.join(FAILURE_SEP) };
      if (f.line !== undefined) e.line = f.line;
      errors.push(e);
      continue;
    }
    let total = 0;
    let any = false;
    for (const p of parts) {
      if (p.result.status[i] !== RowStatus.Ok) continue; // None → NaN, left out by nansum
      total += p.weight * p.result.scores[i];
      any = true;
    }
    status[i] = RowStatus.Ok;
    scores[i] = total;
    if (!any) {
      const list = notes.get(i) ?? [];
      list.unshift(ALL_NONE_NOTE);
      notes.set(i, list);
    }
  }
  const noteList = [...notes.entries()].sort((a, b) => a[0] - b[0]).map(([i, l]) => ({ row: start + i, note: l.join('; ') }));
  return { start, scores, status, errors, components, notes: noteList };
}

/** Whether a row's error message (from combineFunctions) says that function `name` failed there. */
export function functionFailed(message: string, name: string): boolean {
  const head = `${name}(): `;
  return message.startsWith(head) || message.includes(FAILURE_SEP + head);
}

/** TRL's logged statistics of one function's values (NaN = None): torch.nanmean and trl's nanstd (Bessel). */
export function functionStats(values: ArrayLike<number>): { mean: number; std: number } {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    count++;
    sum += v;
  }
  if (count === 0) return { mean: Number.NaN, std: Number.NaN };
  const mean = sum / count;
  let sq = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isNaN(v)) sq += (v - mean) * (v - mean);
  }
  // variance *= count / (count - 1): one value gives 0 · ∞ = NaN in torch, as here.
  const std = count > 1 ? Math.sqrt((sq / count) * (count / (count - 1))) : Number.NaN;
  return { mean, std };
}

/** One function's line in the summaries (the CLI's `functions`, the Distribution tab's table). */
export interface FunctionSummary extends WeightedFunction {
  mean: number;
  std: number;
  /** Rows where the function failed (raised, returned a bad value, timed out). */
  errors: number;
}

/** Each function's summary over a whole run combined by combineFunctions. */
export function summarizeFunctions(
  functions: readonly WeightedFunction[],
  components: Readonly<Record<string, Float64Array>>,
  errors: Iterable<RowError>,
): FunctionSummary[] {
  const messages = [...errors].map((e) => e.message);
  return functions.map((f) => {
    const col = Object.hasOwn(components, f.name) ? components[f.name] : new Float64Array(0);
    return { ...f, ...functionStats(col), errors: messages.filter((m) => functionFailed(m, f.name)).length };
  });
}

/** `--reward-weights 1,0.5`: one finite number per function, or why not. */
export function parseWeights(text: string, count: number): { ok: true; weights: number[] } | { ok: false; message: string } {
  const parts = text.split(',').map((s) => s.trim());
  const weights = parts.map(Number);
  const badAt = parts.findIndex((s, i) => s === '' || !Number.isFinite(weights[i]));
  if (badAt >= 0) return { ok: false, message: `invalid --reward-weights: ${JSON.stringify(parts[badAt])} is not a number` };
  // TRL's check: "Number of reward weights (n) must match number of reward functions (m)".
  if (weights.length !== count) return { ok: false, message: `invalid --reward-weights: ${weights.length} weights for ${count} reward functions` };
  return { ok: true, weights };
}
