/**
 * Which rollouts were cut at the generation length limit. A trainer's dump says so through a finish reason (vLLM and
 * OpenAI write "length", Anthropic "max_tokens") or a boolean; without one, a rollout whose length reached a
 * maximum the user gives counts as truncated.
 */

/** Fields that carry a finish reason, in the order they are read. */
export const FINISH_REASON_FIELDS = ['finish_reason', 'stop_reason'] as const;
/** Boolean fields that say the completion was truncated. */
export const TRUNCATED_FIELDS = ['truncated', 'is_truncated'] as const;
/** Finish reasons that mean "cut at the length limit". */
const LENGTH_REASONS = new Set(['length', 'max_tokens', 'max_length']);

/**
 * 1 when the row's fields say it was cut at the length limit, 0 when they say it was not, NaN when they say nothing.
 * A boolean field wins over a finish reason; a reason is compared trimmed and lower-cased.
 */
export function truncatedFromFields(fields: Readonly<Record<string, unknown>>): number {
  for (const k of TRUNCATED_FIELDS) {
    if (!Object.hasOwn(fields, k)) continue;
    const v = fields[k];
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (v === 0 || v === 1) return v;
  }
  for (const k of FINISH_REASON_FIELDS) {
    if (!Object.hasOwn(fields, k)) continue;
    const v = fields[k];
    if (typeof v === 'string' && v.trim() !== '') return LENGTH_REASONS.has(v.trim().toLowerCase()) ? 1 : 0;
  }
  return Number.NaN;
}

/**
 * Per row 1 (truncated) or 0: the fields' word where they have one (`fromFields`: 1, 0 or NaN per row), else
 * length ≥ maxLength when a maximum is given, else 0. Null when neither source says anything about any row, so a
 * caller can show "unknown" rather than "none truncated".
 */
export function truncatedRows(fromFields: ArrayLike<number> | null, lengths: ArrayLike<number>, maxLength: number | null): Uint8Array | null {
  const n = lengths.length;
  if (fromFields && fromFields.length !== n) throw new RangeError(`truncatedRows: columns differ in length (${fromFields.length} vs ${n})`);
  if (maxLength !== null && !(maxLength > 0)) throw new RangeError(`invalid maxLength: ${maxLength}`);
  const out = new Uint8Array(n);
  let known = maxLength !== null;
  for (let i = 0; i < n; i++) {
    const f = fromFields ? fromFields[i] : Number.NaN;
    if (f === 0 || f === 1) {
      out[i] = f;
      known = true;
    } else if (maxLength !== null && lengths[i] >= maxLength) out[i] = 1;
  }
  return known ? out : null;
}

/** Truncated rows / rows (NaN for no rows). */
export function truncatedShare(truncated: Uint8Array): number {
  let k = 0;
  for (let i = 0; i < truncated.length; i++) k += truncated[i];
  return truncated.length ? k / truncated.length : Number.NaN;
}
