/**
 * Dynamic batching for reward-model inference. Rollouts are sorted by token length (longest first) and cut into
 * batches whose padded size — rows × the longest row — stays within a token budget, so short rollouts travel many
 * to a batch and long ones few, and little compute goes to padding. `padBatch` builds the int64 tensors.
 */

/** A batch as the model takes it: row-major [batch, sequence] int64 ids and mask (and segment ids when asked). */
export interface TokenBatch {
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  /** token_type_ids, for models that take them (BERT-style pair encoders). */
  typeIds?: BigInt64Array;
  batch: number;
  sequence: number;
}

export interface BatchLimits {
  /** Most padded tokens (rows × longest row) per batch. */
  maxTokens: number;
  /** Most rows per batch. */
  maxRows: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxTokens: 16_384, maxRows: 64 };

/**
 * Row indexes grouped into batches. Rows are taken longest first (ties by index, so the plan is deterministic); a
 * batch closes when one more row would exceed `maxRows`, or `maxTokens` padded tokens (its first row is its longest,
 * so its padded size is rows × that length). A row longer than `maxTokens` on its own gets a batch to itself.
 * Zero-length rows count as length 1 (the model still gets one position).
 */
export function planBatches(lengths: ArrayLike<number>, limits: BatchLimits = DEFAULT_BATCH_LIMITS): Int32Array[] {
  const order = Int32Array.from({ length: lengths.length }, (_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
  const out: Int32Array[] = [];
  let start = 0;
  while (start < order.length) {
    const longest = Math.max(1, lengths[order[start]]);
    const fit = Math.max(1, Math.min(limits.maxRows, Math.floor(limits.maxTokens / longest)));
    const end = Math.min(order.length, start + fit);
    out.push(order.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * Pad rows on the right with `padId` (mask 0) to the longest row, truncating each to `maxLength` first — what a
 * Hugging Face tokenizer called with `padding=True, truncation=True, max_length` does. Sequence length is at least 1.
 */
export function padBatch(
  rows: readonly (readonly number[])[],
  { padId, maxLength = Infinity, typeIds }: { padId: number; maxLength?: number; typeIds?: readonly (readonly number[])[] },
): TokenBatch {
  const sequence = Math.max(1, ...rows.map((r) => Math.min(r.length, maxLength)));
  const inputIds = new BigInt64Array(rows.length * sequence).fill(BigInt(padId));
  const attentionMask = new BigInt64Array(rows.length * sequence);
  const types = typeIds ? new BigInt64Array(rows.length * sequence) : undefined;
  rows.forEach((r, b) => {
    const n = Math.min(r.length, maxLength);
    for (let s = 0; s < n; s++) {
      inputIds[b * sequence + s] = BigInt(r[s]);
      attentionMask[b * sequence + s] = 1n;
      if (types) types[b * sequence + s] = BigInt(typeIds![b][s] ?? 0);
    }
  });
  return { inputIds, attentionMask, ...(types ? { typeIds: types } : {}), batch: rows.length, sequence };
}
