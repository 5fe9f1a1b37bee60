import type { Trajectory } from '../trajectory';

/** A column of the source records that can serve as a trusted label: booleans as 1/0, numbers as they are. */
export interface LabelColumn {
  name: string;
  /** One value per trajectory; NaN where the record has no usable value. */
  values: Float64Array;
  /** Every present value is a boolean or 0/1. */
  binary: boolean;
}

/** Fields that describe where a row sits, not how good it is. */
const STRUCTURAL = new Set(['step', 'index', 'idx', 'id', 'uid', 'group', 'group_id', 'prompt_id', 'line', 'epoch', 'seed']);

function toNumber(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? v : Number.NaN;
  return Number.NaN;
}

/**
 * Top-level fields of the source records whose present values are all booleans or finite numbers (at least one
 * row has one, at most `max` columns, in first-seen order), e.g. `is_correct_openai` in the GSM8K demo or verl's `score`.
 * Structural fields (step, ids) are left out.
 */
export function labelColumns(rows: readonly Trajectory[], max = 12): LabelColumn[] {
  const ok = new Map<string, boolean>();
  for (const t of rows) {
    for (const [k, v] of Object.entries(t.fields)) {
      if (v === null || v === undefined || ok.get(k) === false) continue;
      ok.set(k, typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)));
    }
  }
  const names = [...ok].filter(([k, good]) => good && !STRUCTURAL.has(k.toLowerCase())).map(([k]) => k).slice(0, max);
  return names.map((name) => {
    const values = new Float64Array(rows.length);
    let binary = true;
    for (let i = 0; i < rows.length; i++) {
      const x = toNumber(rows[i].fields[name]);
      values[i] = x;
      if (!Number.isNaN(x) && x !== 0 && x !== 1) binary = false;
    }
    return { name, values, binary };
  });
}
