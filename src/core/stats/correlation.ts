/**
 * Correlations between two aligned columns. Every function ignores the rows where either value is not finite
 * (NaN = not scored) and returns NaN when fewer than 2 pairs remain or either side is constant over them.
 * Columns of different lengths throw a RangeError (a programming error).
 */
import { averageRanks, checkSameLength, finitePairs, isConstant, rank, type Ranking } from './ranks';

/** Pearson r of already-finite pairs; NaN for n < 2 or a constant side. Clipped to [−1, 1]. */
export function pearsonFinite(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  if (n < 2 || isConstant(x) || isConstant(y)) return NaN;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += x[i];
    sy += y[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  return clampR(sxy / denominator(sxx, syy));
}

/** √(sxx·syy) with one rounding; √sxx·√syy when the product would overflow or underflow. */
function denominator(sxx: number, syy: number): number {
  const p = sxx * syy;
  return p > 0 && Number.isFinite(p) ? Math.sqrt(p) : Math.sqrt(sxx) * Math.sqrt(syy);
}

function clampR(r: number): number {
  return Math.max(-1, Math.min(1, r));
}

/**
 * Pearson product-moment correlation r = Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²) over finite pairs, clipped to [−1, 1];
 * equals `scipy.stats.pearsonr(x, y).statistic`. O(n).
 */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const p = finitePairs(x, y, 'pearson');
  return pearsonFinite(p.x, p.y);
}

/** Spearman ρ of already-finite pairs (pass their rankings when already computed). */
export function spearmanFinite(x: Float64Array, y: Float64Array, rx?: Ranking, ry?: Ranking): number {
  if (x.length < 2 || isConstant(x) || isConstant(y)) return NaN;
  return pearsonFinite(rx?.average ?? averageRanks(x), ry?.average ?? averageRanks(y));
}

/**
 * Spearman rank correlation: the Pearson r of the ranks, ties given their average rank; over finite pairs.
 * Equals `scipy.stats.spearmanr(x, y).statistic`. O(n log n).
 */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const p = finitePairs(x, y, 'spearman');
  return spearmanFinite(p.x, p.y);
}

/** Kendall τ-b of already-finite pairs (Knight's algorithm; pass their rankings when already computed). */
export function kendallFinite(x: Float64Array, y: Float64Array, rx: Ranking = rank(x), ry: Ranking = rank(y)): number {
  const n = x.length;
  if (n < 2) return NaN;
  const mx = rx.distinct;
  const my = ry.distinct;
  const tot = (n * (n - 1)) / 2;
  let xtie = 0;
  let ytie = 0;
  // Order the pairs by (x, y): a stable counting sort by x rank of the y-sorted order.
  const start = new Int32Array(mx + 1);
  const cy = new Float64Array(my);
  for (let i = 0; i < n; i++) {
    start[rx.dense[i] + 1]++;
    cy[ry.dense[i]]++;
  }
  for (let r = 0; r < mx; r++) {
    const c = start[r + 1];
    xtie += (c * (c - 1)) / 2;
    start[r + 1] += start[r];
  }
  for (let r = 0; r < my; r++) ytie += (cy[r] * (cy[r] - 1)) / 2;
  if (xtie === tot || ytie === tot) return NaN;
  const byXY = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const i = ry.order[k];
    byXY[start[rx.dense[i]]++] = i;
  }
  // Joint ties: runs with equal (x, y). Discordant pairs: for each pair in (x, y) order, the earlier pairs with a
  // strictly larger y (pairs tied in x come in ascending y, so they never count). Fenwick tree over y ranks.
  const tree = new Int32Array(my + 1);
  let ntie = 0;
  let run = 0;
  let dis = 0;
  let px = -1;
  let py = -1;
  for (let k = 0; k < n; k++) {
    const i = byXY[k];
    const xr = rx.dense[i];
    const yr = ry.dense[i];
    if (xr === px && yr === py) run++;
    else {
      ntie += (run * (run + 1)) / 2;
      run = 0;
      px = xr;
      py = yr;
    }
    let le = 0; // earlier pairs with y rank ≤ yr
    for (let j = yr + 1; j > 0; j -= j & -j) le += tree[j];
    dis += k - le;
    for (let j = yr + 1; j <= my; j += j & -j) tree[j]++;
  }
  ntie += (run * (run + 1)) / 2;
  // scipy.stats._stats_py.kendalltau, variant 'b':
  const conMinusDis = tot - xtie - ytie + ntie - 2 * dis;
  return clampR(conMinusDis / Math.sqrt(tot - xtie) / Math.sqrt(tot - ytie));
}

/**
 * Kendall rank correlation τ-b = (C − D) / √((P − Tx)(P − Ty)) over finite pairs, where P = n(n−1)/2, C / D the
 * concordant / discordant pairs and Tx / Ty the pairs tied in x / in y. Equals `scipy.stats.kendalltau(x, y)`
 * (default variant 'b'). O(n log n) (Knight's algorithm with a Fenwick tree); 100,000 pairs take a few ms.
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const p = finitePairs(x, y, 'kendallTauB');
  return kendallFinite(p.x, p.y);
}

/**
 * Length bias inside groups: the Pearson r of x and y computed separately within each group (finite pairs of rows with
 * `groupOf[row]` in [0, groupCount); other rows are ignored), then the plain mean over the groups where r is defined
 * (≥ 2 pairs, neither side constant). `groups` = how many groups had a defined r; `mean` is NaN when none did. O(n).
 */
export function withinGroupPearson(x: ArrayLike<number>, y: ArrayLike<number>, groupOf: Int32Array, groupCount: number): { mean: number; groups: number } {
  checkSameLength('withinGroupPearson', x, y);
  checkSameLength('withinGroupPearson (groupOf)', x, groupOf);
  const cnt = new Int32Array(groupCount);
  const sx = new Float64Array(groupCount);
  const sy = new Float64Array(groupCount);
  const fx = new Float64Array(groupCount);
  const fy = new Float64Array(groupCount);
  const varies = new Uint8Array(groupCount); // bit 1: x varies, bit 2: y varies
  const n = x.length;
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    const a = x[i];
    const b = y[i];
    if (g < 0 || g >= groupCount || !Number.isFinite(a) || !Number.isFinite(b)) continue;
    if (cnt[g] === 0) {
      fx[g] = a;
      fy[g] = b;
    } else {
      if (a !== fx[g]) varies[g] |= 1;
      if (b !== fy[g]) varies[g] |= 2;
    }
    cnt[g]++;
    sx[g] += a;
    sy[g] += b;
  }
  for (let g = 0; g < groupCount; g++) {
    sx[g] /= cnt[g];
    sy[g] /= cnt[g];
  }
  const sxx = new Float64Array(groupCount);
  const syy = new Float64Array(groupCount);
  const sxy = new Float64Array(groupCount);
  for (let i = 0; i < n; i++) {
    const g = groupOf[i];
    const a = x[i];
    const b = y[i];
    if (g < 0 || g >= groupCount || varies[g] !== 3 || !Number.isFinite(a) || !Number.isFinite(b)) continue;
    const dx = a - sx[g];
    const dy = b - sy[g];
    sxx[g] += dx * dx;
    syy[g] += dy * dy;
    sxy[g] += dx * dy;
  }
  let total = 0;
  let groups = 0;
  for (let g = 0; g < groupCount; g++) {
    if (varies[g] !== 3) continue; // implies ≥ 2 pairs
    total += clampR(sxy[g] / denominator(sxx[g], syy[g]));
    groups++;
  }
  return { mean: groups ? total / groups : NaN, groups };
}
