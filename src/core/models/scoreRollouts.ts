/**
 * Scoring every rollout with a reward model: build each rollout's input text, look its scores up in a cache keyed
 * by (model, SHA-256 of that text), tokenize the misses, run them in dynamic batches, store what was computed.
 * The inference itself is a callback (onnxruntime-web in the model worker, onnxruntime-node in tests and benches),
 * so this file is the same everywhere and knows nothing of execution providers.
 */
import { sha256HexOf } from '../digest';
import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';
import { DEFAULT_BATCH_LIMITS, padBatch, planBatches, type BatchLimits, type TokenBatch } from './batching';
import type { RolloutEncoder } from './encode';

/** All of the head's outputs for one rollout, and whether its input was truncated. */
export interface CachedScore {
  logits: Float32Array;
  truncated: boolean;
}

export interface ScoreCache {
  /** One entry per key, undefined where there is none. */
  getMany(keys: readonly string[]): Promise<(CachedScore | undefined)[]>;
  putMany(entries: readonly (readonly [string, CachedScore])[]): Promise<void>;
}

export interface ScoreProgress {
  done: number;
  total: number;
  /** Rows answered by the cache so far. */
  cached: number;
}

export interface ScoreOptions {
  numLabels: number;
  limits?: BatchLimits;
  cache?: ScoreCache;
  /** Part of every cache key: the model's identity (its weights' hash) and anything else that changes its scores. */
  modelKey: string;
  onProgress?: (p: ScoreProgress) => void;
  /** Polled between batches. */
  cancelled?: () => boolean;
}

export interface ModelScores {
  /** Row-major [rows, numLabels]; NaN where the row has no score. */
  logits: Float32Array;
  numLabels: number;
  /** Per row: RowStatus.Ok, RowStatus.Error (see `errors`), or RowStatus.Pending when cancelled before it ran. */
  status: Uint8Array;
  errors: Map<number, string>;
  /** Per row: 1 when its input was cut to the model's max length. */
  truncated: Uint8Array;
  truncatedCount: number;
  cachedCount: number;
  /** Rows that went through the model in this call, and in how many batches. */
  inferredCount: number;
  batches: number;
  cancelled: boolean;
}

export type InferFn = (batch: TokenBatch) => Promise<Float32Array>;

/** Hex SHA-256 of `modelKey + '\n' + text`. */
export function cacheKey(modelKey: string, text: string): Promise<string> {
  return sha256HexOf(`${modelKey}\n${text}`);
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function scoreRollouts(rows: readonly Trajectory[], encoder: RolloutEncoder, infer: InferFn, opts: ScoreOptions): Promise<ModelScores> {
  const n = rows.length;
  const L = opts.numLabels;
  const logits = new Float32Array(n * L).fill(Number.NaN);
  const status = new Uint8Array(n);
  const truncated = new Uint8Array(n);
  const errors = new Map<number, string>();
  const cancelled = opts.cancelled ?? (() => false);
  let done = 0;
  let cachedCount = 0;
  const progress = () => opts.onProgress?.({ done, total: n, cached: cachedCount });
  const fail = (i: number, why: string) => {
    status[i] = RowStatus.Error;
    errors.set(i, why);
    done++;
  };

  // 1. Input text and cache key of every row.
  // Digests are awaited a chunk at a time: one await per row would cost a round trip each.
  const keys = new Array<string | null>(n).fill(null);
  for (let start = 0; start < n; start += 1024) {
    const pending: Promise<void>[] = [];
    for (let i = start; i < Math.min(n, start + 1024); i++) {
      let text: string;
      try {
        text = encoder.text(rows[i]);
      } catch (e) {
        fail(i, `building the model input failed: ${errorText(e)}`);
        continue;
      }
      pending.push(cacheKey(opts.modelKey, text).then((k) => void (keys[i] = k)));
    }
    await Promise.all(pending);
  }

  // 2. Cache hits.
  const todo: number[] = [];
  if (opts.cache) {
    const want = keys.flatMap((k, i) => (k === null ? [] : [i]));
    const hits = await opts.cache.getMany(want.map((i) => keys[i]!));
    want.forEach((i, j) => {
      const hit = hits[j];
      if (hit && hit.logits.length === L) {
        logits.set(hit.logits, i * L);
        truncated[i] = hit.truncated ? 1 : 0;
        status[i] = RowStatus.Ok;
        cachedCount++;
        done++;
      } else todo.push(i);
    });
  } else {
    for (let i = 0; i < n; i++) if (keys[i] !== null) todo.push(i);
  }
  progress();

  // 3. Tokenize the misses.
  const ids: number[][] = [];
  const typeIds: number[][] = [];
  const rowOf: number[] = [];
  for (const i of todo) {
    try {
      const e = encoder.encode(rows[i]);
      ids.push(e.ids);
      typeIds.push(e.typeIds);
      rowOf.push(i);
      truncated[i] = e.truncated ? 1 : 0;
    } catch (e) {
      fail(i, `tokenizing failed: ${errorText(e)}`);
    }
  }

  // 4. Inference in dynamic batches, longest first.
  const plan = planBatches(
    ids.map((r) => r.length),
    opts.limits ?? DEFAULT_BATCH_LIMITS,
  );
  let inferredCount = 0;
  let batches = 0;
  let wasCancelled = false;
  for (const batch of plan) {
    if (cancelled()) {
      wasCancelled = true;
      break;
    }
    const x = padBatch(
      Array.from(batch, (j) => ids[j]),
      { padId: encoder.padId, typeIds: Array.from(batch, (j) => typeIds[j]) },
    );
    let out: Float32Array;
    try {
      out = await infer(x);
      if (out.length !== batch.length * L) throw new Error(`the model returned ${out.length} values for ${batch.length} rollouts × ${L} labels`);
    } catch (e) {
      for (const j of batch) fail(rowOf[j], `the model failed on this batch: ${errorText(e)}`);
      progress();
      continue;
    }
    const fresh: [string, CachedScore][] = [];
    batch.forEach((j, b) => {
      const i = rowOf[j];
      const row = out.slice(b * L, (b + 1) * L);
      logits.set(row, i * L);
      status[i] = RowStatus.Ok;
      fresh.push([keys[i]!, { logits: row, truncated: truncated[i] === 1 }]);
    });
    done += batch.length;
    inferredCount += batch.length;
    batches++;
    if (opts.cache) {
      try {
        await opts.cache.putMany(fresh);
      } catch {
        // A full or unavailable cache costs a re-run later, never this run's scores.
      }
    }
    progress();
  }
  let truncatedCount = 0;
  for (let i = 0; i < n; i++) if (truncated[i] && status[i] === RowStatus.Ok) truncatedCount++;
  return { logits, numLabels: L, status, errors, truncated, truncatedCount, cachedCount, inferredCount, batches, cancelled: wasCancelled };
}

/** Column `label` of row-major logits, as float64 (NaN where a row has no score). */
export function labelColumn(logits: Float32Array, numLabels: number, label: number): Float64Array {
  const n = Math.floor(logits.length / numLabels);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = logits[i * numLabels + label];
  return out;
}
