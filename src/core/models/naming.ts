/** How a loaded reward model is named for reward code, the same in the studio and the CLI. */

/** `ctx.models.ensemble`: the models' mean, min and std for the row; no model is ever given this name. */
export const ENSEMBLE_NAME = 'ensemble';

/** `ctx.models.<id>`: a JS identifier from the model's name ("OpenAssistant/reward-model-deberta" → reward_model_deberta). */
export function accessorName(name: string, taken: ReadonlySet<string>): string {
  const last = name.split('/').filter(Boolean).pop() ?? 'model';
  let id = last.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/^_+|_+$/g, '') || 'model';
  if (/^[0-9]/.test(id)) id = `m_${id}`;
  let out = id;
  for (let k = 2; taken.has(out) || out === ENSEMBLE_NAME; k++) out = `${id}_${k}`;
  return out;
}

/** IEEE half → float (fp16 graphs return float16 logits, as raw halves where there is no Float16Array). */
export function halfToFloat(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? Number.NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}
