/**
 * One prompt across training steps, and two steps side by side. A prompt is its group key string (the group column's
 * value, else the prompt text: Trajectory.group), never a group index: once groups are per (step, key) one prompt has
 * a group per step, and group indexes with equal key strings are the same prompt here.
 */
import { compareRuns, type RunComparison } from '../stats/compare';
import { describe, type Description } from '../stats/describe';
import { stepRows } from './overSteps';

export interface PromptIndex {
  /** Distinct prompt keys, first-seen order of their groups. */
  keys: string[];
  /** Row → prompt index (−1 when its group index is out of range). */
  promptOf: Int32Array;
}

/** Prompt index per row from the group keys (equal key strings are one prompt). O(n + groups). */
export function promptIndex(groupKeys: readonly string[], groupOf: Int32Array): PromptIndex {
  const at = new Map<string, number>();
  const keys: string[] = [];
  const ofGroup = Int32Array.from(groupKeys, (k) => {
    let p = at.get(k);
    if (p === undefined) {
      p = keys.length;
      at.set(k, p);
      keys.push(k);
    }
    return p;
  });
  const promptOf = Int32Array.from(groupOf, (g) => (g >= 0 && g < ofGroup.length ? ofGroup[g] : -1));
  return { keys, promptOf };
}

export interface PromptSteps {
  prompt: number;
  key: string;
  /** Distinct finite steps with a row of this prompt. */
  steps: number;
  rows: number;
}

/** Prompts that occur at two or more steps, most steps first (then more rows, then first seen). O(n). */
export function promptsAcrossSteps(p: PromptIndex, steps: ArrayLike<number>): PromptSteps[] {
  const { values, start, order } = stepRows(steps);
  const last = new Int32Array(p.keys.length).fill(-1);
  const count = new Int32Array(p.keys.length);
  const rows = new Int32Array(p.keys.length);
  for (let s = 0; s < values.length; s++) {
    for (let j = start[s]; j < start[s + 1]; j++) {
      const q = p.promptOf[order[j]];
      if (q < 0) continue;
      rows[q]++;
      if (last[q] !== s) {
        last[q] = s;
        count[q]++;
      }
    }
  }
  const out: PromptSteps[] = [];
  for (let q = 0; q < p.keys.length; q++) if (count[q] >= 2) out.push({ prompt: q, key: p.keys[q], steps: count[q], rows: rows[q] });
  return out.sort((a, b) => b.steps - a.steps || b.rows - a.rows || a.prompt - b.prompt);
}

export interface PromptOverSteps {
  /** Per step where the prompt has rows, ascending: rows, and mean of the finite rewards (NaN when none). */
  perStep: { step: number; rows: number; scored: number; mean: number }[];
  /** The prompt's rows with a finite step, in step order then row order. */
  rows: Int32Array;
}

/** One prompt's rewards per step (see PromptOverSteps). O(n). */
export function promptOverSteps(p: PromptIndex, prompt: number, scores: ArrayLike<number>, steps: ArrayLike<number>): PromptOverSteps {
  const { values, start, order } = stepRows(steps);
  const perStep: PromptOverSteps['perStep'] = [];
  const rows: number[] = [];
  for (let s = 0; s < values.length; s++) {
    let k = 0;
    let scored = 0;
    let sum = 0;
    for (let j = start[s]; j < start[s + 1]; j++) {
      const i = order[j];
      if (p.promptOf[i] !== prompt) continue;
      k++;
      rows.push(i);
      if (Number.isFinite(scores[i])) {
        scored++;
        sum += scores[i];
      }
    }
    if (k > 0) perStep.push({ step: values[s], rows: k, scored, mean: scored ? sum / scored : NaN });
  }
  return { perStep, rows: Int32Array.from(rows) };
}

export interface StepComparison {
  a: Description;
  b: Description;
  /** b.mean − a.mean. */
  meanChange: number;
  /** Prompts with a finite mean reward at both steps. */
  prompts: number;
  /** Prompt indexes of those prompts, in prompt order (compareRuns' row indexes point into this). */
  promptIds: Int32Array;
  /** Per shared prompt: its mean reward at step a and at step b. */
  meansA: Float64Array;
  meansB: Float64Array;
  /** Mean over shared prompts of (mean at b − mean at a); NaN without any. */
  meanPromptChange: number;
  /** compareRuns(meansA, meansB): how the per-prompt means agree, and the prompts that changed most. */
  byPrompt: RunComparison;
}

/**
 * Two steps compared as two runs are, except that their rows are different rollouts: the reward distributions
 * (describe of each step's finite rewards), and the per-prompt mean rewards of the prompts present at both.
 */
export function compareSteps(p: PromptIndex, scores: ArrayLike<number>, steps: ArrayLike<number>, stepA: number, stepB: number): StepComparison {
  const nP = p.keys.length;
  const sumA = new Float64Array(nP);
  const sumB = new Float64Array(nP);
  const nA = new Int32Array(nP);
  const nB = new Int32Array(nP);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const x = scores[i];
    if (!Number.isFinite(x)) continue;
    const q = p.promptOf[i];
    if (steps[i] === stepA) {
      a.push(x);
      if (q >= 0) {
        sumA[q] += x;
        nA[q]++;
      }
    }
    if (steps[i] === stepB) {
      b.push(x);
      if (q >= 0) {
        sumB[q] += x;
        nB[q]++;
      }
    }
  }
  const ids: number[] = [];
  for (let q = 0; q < nP; q++) if (nA[q] > 0 && nB[q] > 0) ids.push(q);
  const meansA = Float64Array.from(ids, (q) => sumA[q] / nA[q]);
  const meansB = Float64Array.from(ids, (q) => sumB[q] / nB[q]);
  let change = 0;
  for (let k = 0; k < ids.length; k++) change += meansB[k] - meansA[k];
  const da = describe(a);
  const db = describe(b);
  return {
    a: da,
    b: db,
    meanChange: db.mean - da.mean,
    prompts: ids.length,
    promptIds: Int32Array.from(ids),
    meansA,
    meansB,
    meanPromptChange: ids.length ? change / ids.length : NaN,
    byPrompt: compareRuns(meansA, meansB),
  };
}
