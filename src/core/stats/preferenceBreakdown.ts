/**
 * Preference accuracy broken down by a per-pair column (RewardBench's `subset`, a `model` column…) with Wilson score
 * intervals, and the pairs a reward orders wrongly, worst first. Both start from pairOutcomes (stats/preference).
 */
import { Outcome, type PairOutcomes } from './preference';

/** z of a two-sided 95 % interval: the 97.5th percentile of the standard normal. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval for k successes in n trials:
 *   centre = (p + z²/2n) / (1 + z²/n),  half = z / (1 + z²/n) · √(p(1 − p)/n + z²/4n²),  p = k/n,
 * clamped to [0, 1] against rounding. [NaN, NaN] for n = 0.
 */
export function wilsonInterval(k: number, n: number, z = Z95): [number, number] {
  if (!(n > 0) || !(k >= 0) || k > n) return [NaN, NaN];
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At k = 0 (k = n) the exact bound is 0 (1); the formula gives it only up to rounding (4e-19 at n = 800).
  return [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)];
}

export interface KeyAccuracy {
  key: string;
  /** Pairs with this key: used + skipped + incomplete. */
  pairs: number;
  /** Pairs with every member scored (the denominator: ties count in it, as not correct). */
  used: number;
  correct: number;
  ties: number;
  wrong: number;
  /** Pairs with an unscored member, or lacking a side: not in the accuracy. */
  unscored: number;
  /** correct / used; NaN when used = 0. */
  accuracy: number;
  /** 95 % Wilson interval of `accuracy` (k = correct, n = used). */
  low: number;
  high: number;
}

/**
 * Accuracy per key: pair p has key `keys[keyOf[p]]` (keyOf[p] outside [0, keys.length): left out). One row per key
 * that has a pair, in the order of `keys`. Ties stay in the denominator and are not correct, as in preferenceAccuracy.
 */
export function accuracyByKey(outcome: Uint8Array, keyOf: Int32Array, keys: readonly string[]): KeyAccuracy[] {
  if (keyOf.length !== outcome.length) throw new RangeError(`accuracyByKey: ${keyOf.length} keys for ${outcome.length} pairs`);
  const k = keys.length;
  const count = new Int32Array(k * 5); // per key: Outcome codes 0 … 4
  for (let p = 0; p < outcome.length; p++) {
    const g = keyOf[p];
    if (g >= 0 && g < k) count[g * 5 + outcome[p]]++;
  }
  const rows: KeyAccuracy[] = [];
  for (let g = 0; g < k; g++) {
    const at = (o: number) => count[g * 5 + o];
    const correct = at(Outcome.Correct);
    const ties = at(Outcome.Tie);
    const wrong = at(Outcome.Wrong);
    const unscored = at(Outcome.Skipped) + at(Outcome.Incomplete);
    const used = correct + ties + wrong;
    if (used + unscored === 0) continue;
    const [low, high] = wilsonInterval(correct, used);
    rows.push({ key: keys[g], pairs: used + unscored, used, correct, ties, wrong, unscored, accuracy: used ? correct / used : NaN, low, high });
  }
  return rows;
}

/**
 * The pairs ordered wrongly (some rejected scores strictly above some chosen), worst first: by margin = highest
 * rejected − lowest chosen score, descending; equal margins in pair order.
 */
export function wrongPairs({ outcome, minChosen, maxRejected }: PairOutcomes): Int32Array {
  const list: number[] = [];
  for (let p = 0; p < outcome.length; p++) if (outcome[p] === Outcome.Wrong) list.push(p);
  const margin = (p: number) => maxRejected[p] - minChosen[p];
  list.sort((a, b) => margin(b) - margin(a) || a - b);
  return Int32Array.from(list);
}
