/**
 * How well a reward ranks responses whose relative quality is known:
 * - `preferenceAccuracy`: preference pairs (TRL / RewardBench v1: one chosen vs one rejected; RewardBench 2: one
 *   chosen vs several rejected under one pair id), with a seeded percentile-bootstrap confidence interval;
 * - `bestOfN`: groups of rollouts with a trusted 0/1 label, the exact expected accuracy of best-of-N selection.
 *
 * A row's score counts only when its status is RowStatus.Ok and the score is finite ("scored"); every other row
 * (pending, null, error, timed out, NaN) is unscored. Columns of different lengths throw a RangeError.
 */
import { RowStatus } from '../reward/contract';
import type { PreferenceSide } from '../trajectory';

const OK = RowStatus.Ok;

// ───────────────────────────── PRNG and percentiles ─────────────────────────────

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator), seeded with `seed | 0`: each call returns the next
 * uint32 / 2^32, in [0, 1). Exactly reproducible in any language with 32-bit wrap-around arithmetic:
 *   a = (a + 0x6D2B79F5) mod 2^32; t = (a ^ a >>> 15) · (a | 1) mod 2^32;
 *   t = ((t + ((t ^ t >>> 7) · (t | 61) mod 2^32)) mod 2^32) ^ t; return ((t ^ t >>> 14) mod 2^32) / 2^32.
 */
export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The p-th percentile (0 ≤ p ≤ 100) of ascending `sorted` values, linear interpolation between order statistics:
 * h = (n − 1)·p/100, result = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]) — numpy's default `np.percentile(x, p)`
 * (method "linear", including its lerp form b − (b − a)(1 − t) for t ≥ 0.5). NaN for no values.
 */
export function percentileLinear(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * (p / 100); // numpy's virtual index for method "linear"
  const lo = Math.max(0, Math.min(n - 1, Math.floor(h)));
  const hi = Math.min(n - 1, lo + 1);
  const t = h - lo;
  const a = sorted[lo];
  const b = sorted[hi];
  const d = b - a;
  return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

// ───────────────────────────── preference accuracy ─────────────────────────────

/** Side codes of the `side` column of PreferencePairs. */
export const PairSide = { None: 0, Chosen: 1, Rejected: 2 } as const;

/**
 * Preference data as aligned per-row columns (like Dataset.groupOf): row i belongs to pair `pairOf[i]` (a dense
 * index in [0, pairCount); any other value = not in a pair) on side `side[i]` (PairSide). A pair may have several
 * rejected rows (RewardBench 2: 1 chosen, 3 rejected) and, in general, several chosen rows.
 */
export interface PreferencePairs {
  pairOf: Int32Array;
  side: Uint8Array;
  pairCount: number;
  /** Optional label per pair (length pairCount), e.g. RewardBench's `subset`, for the per-subset breakdown. */
  subsetOf?: readonly string[];
}

/**
 * Builds PreferencePairs from the per-row `pairId` / `preference` fields of Trajectory (src/core/trajectory.ts).
 * Pair indexes are dense in order of first appearance; `pairIds[k]` is the id of pair k. Rows without a pairId or
 * without a preference side are not in a pair.
 */
export function preferencePairs(rows: ArrayLike<{ pairId?: string; preference?: PreferenceSide }>): {
  pairOf: Int32Array;
  side: Uint8Array;
  pairCount: number;
  pairIds: string[];
} {
  const n = rows.length;
  const pairOf = new Int32Array(n).fill(-1);
  const side = new Uint8Array(n);
  const index = new Map<string, number>();
  const pairIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const { pairId, preference } = rows[i];
    if (pairId === undefined || (preference !== 'chosen' && preference !== 'rejected')) continue;
    let k = index.get(pairId);
    if (k === undefined) {
      k = pairIds.length;
      index.set(pairId, k);
      pairIds.push(pairId);
    }
    pairOf[i] = k;
    side[i] = preference === 'chosen' ? PairSide.Chosen : PairSide.Rejected;
  }
  return { pairOf, side, pairCount: pairIds.length, pairIds };
}

export interface PreferenceCounts {
  /** Pairs considered (all pairs, or the pairs of this subset): used + skipped + incomplete. */
  pairs: number;
  /** Pairs with at least one chosen and one rejected row, every member scored. */
  used: number;
  /** Used pairs where every chosen scores strictly higher than every rejected. */
  correct: number;
  /** Used pairs where the lowest chosen score equals the highest rejected score (not correct, not wrong). */
  ties: number;
  /** Used pairs where some rejected scores strictly higher than some chosen. */
  wrong: number;
  /** Pairs with both sides present but some member unscored (status not Ok, or a non-finite score). */
  skipped: number;
  /** Pairs lacking a chosen or a rejected row altogether. */
  incomplete: number;
  /** correct / used; NaN when used = 0. */
  accuracy: number;
  /** Percentile-bootstrap confidence interval of `accuracy` (see preferenceAccuracy); NaN when used = 0. */
  ciLow: number;
  ciHigh: number;
}

export interface PreferenceAccuracy extends PreferenceCounts {
  /** The same per distinct `subsetOf` value, in order of first appearance over the pairs; [] without subsetOf. */
  bySubset: (PreferenceCounts & { subset: string })[];
  /** Bootstrap settings used. */
  resamples: number;
  seed: number;
}

export interface BootstrapOptions {
  /** Bootstrap resamples B (default 2000; 0 gives a NaN interval). */
  resamples?: number;
  /** mulberry32 seed (default 1). */
  seed?: number;
}

/** Per-pair outcome codes (see preferenceAccuracy for the rules). */
export const Outcome = { Incomplete: 0, Skipped: 1, Correct: 2, Tie: 3, Wrong: 4 } as const;

/** Each pair's outcome, with its lowest chosen and highest rejected score (±Infinity where the side has no score). */
export interface PairOutcomes {
  outcome: Uint8Array;
  minChosen: Float64Array;
  maxRejected: Float64Array;
}

/** The outcome of every pair (an Outcome code), by the rules of preferenceAccuracy. O(rows + pairs). */
export function pairOutcomes(scores: Float64Array, status: Uint8Array, pairs: PreferencePairs): PairOutcomes {
  const { pairOf, side, pairCount } = pairs;
  const n = scores.length;
  if (status.length !== n || pairOf.length !== n || side.length !== n) {
    throw new RangeError('preferenceAccuracy: columns differ in length');
  }
  const minChosen = new Float64Array(pairCount).fill(Infinity);
  const maxRejected = new Float64Array(pairCount).fill(-Infinity);
  const has = new Uint8Array(pairCount); // bit 1: a chosen row, bit 2: a rejected row, bit 4: an unscored member
  for (let i = 0; i < n; i++) {
    const p = pairOf[i];
    const s = side[i];
    if (p < 0 || p >= pairCount || (s !== PairSide.Chosen && s !== PairSide.Rejected)) continue;
    has[p] |= s;
    const v = scores[i];
    if (status[i] !== OK || !Number.isFinite(v)) {
      has[p] |= 4;
      continue;
    }
    if (s === PairSide.Chosen) {
      if (v < minChosen[p]) minChosen[p] = v;
    } else if (v > maxRejected[p]) maxRejected[p] = v;
  }
  const outcome = new Uint8Array(pairCount);
  for (let p = 0; p < pairCount; p++) {
    const h = has[p];
    if ((h & 3) !== 3) outcome[p] = Outcome.Incomplete;
    else if (h & 4) outcome[p] = Outcome.Skipped;
    else if (minChosen[p] > maxRejected[p]) outcome[p] = Outcome.Correct;
    else if (minChosen[p] === maxRejected[p]) outcome[p] = Outcome.Tie;
    else outcome[p] = Outcome.Wrong;
  }
  return { outcome, minChosen, maxRejected };
}

/**
 * Preference accuracy, RewardBench style. Each pair's chosen rows are compared with its rejected rows:
 * - correct: min(chosen scores) > max(rejected scores), i.e. the chosen scores strictly higher than every rejected.
 *   With one chosen and several rejected (RewardBench 2) this is RewardBench 2's rule: a prompt counts as correct only
 *   when the chosen beats all of its rejected completions; with several chosen it is RewardBench 2's Ties-subset
 *   "accurate" (every correct answer outscores the best wrong one).
 * - tie: min(chosen) = max(rejected) (the chosen equals the best rejected): counted apart, NOT correct. (RewardBench
 *   2's official script, rewardbench/utils.py `reroll_and_score_dataset`, instead credits a chosen tied at the top
 *   1/k, k = completions sharing the top score; not done here: `ties` reports those pairs.)
 * - wrong: min(chosen) < max(rejected).
 * Pairs with an unscored member are `skipped`, pairs lacking a side are `incomplete`; neither enters accuracy.
 * accuracy = correct / used (ties in the denominator).
 *
 * Confidence interval: percentile bootstrap. The used pairs, in ascending pair index, form a 0/1 vector (1 = correct;
 * ties and wrong are 0). One mulberry32(seed) stream is drawn B times × used: resample b takes, for k = 0 … used−1,
 * the pair at position ⌊u·used⌋ of that vector (u = next draw), and its accuracy is (correct drawn) / used.
 * [ciLow, ciHigh] = the 2.5th and 97.5th percentiles (percentileLinear, numpy's default method) of the B accuracies.
 * Each subset's interval is bootstrapped the same way over that subset's used pairs with its own fresh
 * mulberry32(seed) stream. O(rows + B·used) per interval.
 */
export function preferenceAccuracy(scores: Float64Array, status: Uint8Array, pairs: PreferencePairs, options: BootstrapOptions = {}): PreferenceAccuracy {
  const { pairCount, subsetOf } = pairs;
  if (subsetOf && subsetOf.length !== pairCount) {
    throw new RangeError(`preferenceAccuracy: subsetOf has ${subsetOf.length} labels for ${pairCount} pairs`);
  }
  const resamples = options.resamples ?? 2000;
  const seed = options.seed ?? 1;
  const { outcome } = pairOutcomes(scores, status, pairs);
  const all = new Int32Array(pairCount);
  for (let p = 0; p < pairCount; p++) all[p] = p;
  const overall = counts(outcome, all, resamples, seed);
  const bySubset: (PreferenceCounts & { subset: string })[] = [];
  if (subsetOf) {
    const members = new Map<string, number[]>();
    for (let p = 0; p < pairCount; p++) {
      const key = subsetOf[p];
      let list = members.get(key);
      if (!list) members.set(key, (list = []));
      list.push(p);
    }
    for (const [subset, list] of members) {
      bySubset.push({ subset, ...counts(outcome, Int32Array.from(list), resamples, seed) });
    }
  }
  return { ...overall, bySubset, resamples, seed };
}

function counts(outcome: Uint8Array, pairs: Int32Array, resamples: number, seed: number): PreferenceCounts {
  let correct = 0;
  let ties = 0;
  let wrong = 0;
  let skipped = 0;
  let incomplete = 0;
  const hits = new Uint8Array(pairs.length); // 0/1 per used pair, in pair order
  let used = 0;
  for (const p of pairs) {
    const o = outcome[p];
    if (o === Outcome.Incomplete) incomplete++;
    else if (o === Outcome.Skipped) skipped++;
    else {
      if (o === Outcome.Correct) correct++;
      else if (o === Outcome.Tie) ties++;
      else wrong++;
      hits[used++] = o === Outcome.Correct ? 1 : 0;
    }
  }
  const [ciLow, ciHigh] = bootstrapCI(hits.subarray(0, used), resamples, seed);
  return {
    pairs: pairs.length,
    used,
    correct,
    ties,
    wrong,
    skipped,
    incomplete,
    accuracy: used ? correct / used : NaN,
    ciLow,
    ciHigh,
  };
}

/** 2.5th / 97.5th percentiles of B resampled means of a 0/1 vector (see preferenceAccuracy). */
function bootstrapCI(hits: Uint8Array, resamples: number, seed: number): [number, number] {
  const m = hits.length;
  if (m === 0 || resamples < 1) return [NaN, NaN];
  const rnd = mulberry32(seed);
  const acc = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let c = 0;
    for (let k = 0; k < m; k++) c += hits[Math.floor(rnd() * m)];
    acc[b] = c / m;
  }
  acc.sort();
  return [percentileLinear(acc, 2.5), percentileLinear(acc, 97.5)];
}

// ───────────────────────────── best-of-N ─────────────────────────────

export interface BestOfNPoint {
  /** N: rollouts drawn per group. */
  n: number;
  /** Groups with at least N kept rows (the groups averaged at this N). */
  groups: number;
  /** Mean over those groups of the exact expected label of the reward's pick among N random rollouts. */
  accuracy: number;
  /** Mean over the same groups of the group's mean label (a uniformly random pick among the N). */
  baseline: number;
}

export interface BestOfN {
  /** Kept rows: status Ok, finite score, finite label, group index in [0, groupCount). */
  rows: number;
  /** Groups with at least one kept row. */
  groups: number;
  /** One point per N = 1 … the largest kept group size ([] when no row is kept). */
  byN: BestOfNPoint[];
}

/**
 * Best-of-N accuracy with a trusted label (1 = correct, 0 = wrong, NaN = no label; other finite labels are used
 * as-is, giving the expected label of the pick). Rows whose status is not Ok, whose score is not finite, whose label
 * is not finite or whose group is outside [0, groupCount) are removed from their group before anything else: G below
 * is the number of kept rows of a group.
 *
 * For N = 1 … max G, over the groups with G ≥ N (smaller groups are left out at that N): draw N of the G rows
 * uniformly without replacement, pick the top-scored one (ties broken uniformly at random); `accuracy` = mean over
 * those groups of E[label of the pick]; `baseline` = mean over the same groups of the group's mean label (a uniformly
 * random pick among the N, whatever N). Computed exactly, no sampling: for row i with a = rows scoring strictly
 * higher and b = rows scoring equal (i included),
 *   P(i is picked) = Σ_{j=1..min(b,N)} C(b−1, j−1)·C(G−a−b, N−j) / C(G, N) · 1/j
 *                  = [C(G−a, N) − C(G−a−b, N)] / (b·C(G, N))
 * (the pick falls in i's tie class iff no higher row is drawn and at least one of the class is; each of the b is then
 * equally likely). Evaluated as Q·(1 − R)/b with Q = C(G−a, N)/C(G, N) = Π_{k<N} (G−a−k)/(G−k) built up one factor
 * per N, and 1 − R = −expm1(Σ_{k<N} log1p(−b/(G−a−k))) so that no difference of nearly equal numbers is formed:
 * relative error about N·2⁻⁵² (≤ 1e-12 for groups up to thousands). O(rows log rows + Σ_groups G·(distinct scores)).
 */
export function bestOfN(scores: Float64Array, status: Uint8Array, groupOf: Int32Array, groupCount: number, labels: Float64Array): BestOfN {
  const n = scores.length;
  if (status.length !== n || groupOf.length !== n || labels.length !== n) {
    throw new RangeError('bestOfN: columns differ in length');
  }
  // Kept rows bucketed by group (counting sort).
  const start = new Int32Array(groupCount + 1);
  const kept = (i: number) => {
    const g = groupOf[i];
    return g >= 0 && g < groupCount && status[i] === OK && Number.isFinite(scores[i]) && Number.isFinite(labels[i]);
  };
  let rows = 0;
  for (let i = 0; i < n; i++) {
    if (!kept(i)) continue;
    start[groupOf[i] + 1]++;
    rows++;
  }
  let maxG = 0;
  let groups = 0;
  for (let g = 0; g < groupCount; g++) {
    const c = start[g + 1];
    if (c > maxG) maxG = c;
    if (c > 0) groups++;
    start[g + 1] += start[g];
  }
  const order = new Int32Array(rows);
  const fill = start.slice(0, groupCount);
  for (let i = 0; i < n; i++) if (kept(i)) order[fill[groupOf[i]]++] = i;

  const accSum = new Float64Array(maxG + 1);
  const baseSum = new Float64Array(maxG + 1);
  const cnt = new Int32Array(maxG + 1);
  // Per tie class of the current group with a non-zero label sum, in descending score order.
  const above = new Float64Array(maxG); // a
  const size = new Float64Array(maxG); // b
  const labelSum = new Float64Array(maxG);
  const q = new Float64Array(maxG); // C(G−a, N) / C(G, N)
  const logR = new Float64Array(maxG); // log(C(G−a−b, N) / C(G−a, N))
  for (let g = 0; g < groupCount; g++) {
    const G = start[g + 1] - start[g];
    if (G === 0) continue;
    const members = order.subarray(start[g], start[g + 1]).sort((x, y) => scores[y] - scores[x]);
    let classes = 0;
    let total = 0;
    for (let k = 0; k < G;) {
      const v = scores[members[k]];
      let s = 0;
      const k0 = k;
      while (k < G && scores[members[k]] === v) s += labels[members[k++]];
      above[classes] = k0;
      size[classes] = k - k0;
      total += s;
      if (s === 0) continue; // contributes nothing at any N: not tracked
      labelSum[classes] = s;
      q[classes] = 1;
      logR[classes] = 0;
      classes++;
    }
    const share = total / G;
    for (let N = 1; N <= G; N++) {
      const k = N - 1; // the factor added at this N
      let e = 0;
      for (let c = 0; c < classes; c++) {
        // q = 0: a higher row is always drawn, now and for every larger N, and the same for every later class
        // (larger a, smaller q).
        if (q[c] === 0) break;
        const rest = G - above[c] - k; // ≥ 0: it was > 0 at N − 1
        q[c] *= rest / (G - k);
        if (q[c] === 0) break;
        if (logR[c] !== -Infinity) logR[c] = size[c] >= rest ? -Infinity : logR[c] + Math.log1p(-size[c] / rest);
        e += (labelSum[c] * q[c] * -Math.expm1(logR[c])) / size[c];
      }
      accSum[N] += e;
      baseSum[N] += share;
      cnt[N]++;
    }
  }
  const byN: BestOfNPoint[] = [];
  for (let N = 1; N <= maxG; N++) {
    byN.push({ n: N, groups: cnt[N], accuracy: accSum[N] / cnt[N], baseline: baseSum[N] / cnt[N] });
  }
  return { rows, groups, byN };
}
