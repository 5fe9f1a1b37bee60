/**
 * The optional well-known fields of a record: ground truth and training step.
 *
 * Ground truth, first present (not null/undefined) source wins:
 *   `ground_truth` → `gts` (verl dumps) → `reward_model.ground_truth` (verl training data) → `answer` → `solution`.
 * Strings are kept as they are (an empty string counts as absent: an empty CSV cell); numbers, bigints and
 * booleans are stringified; lists and objects become JSON.
 * Step: the `step` column when it is a finite number, a bigint, or a string holding a number (TRL has logged
 * `str(global_step)`, CSV cells are strings).
 */
import { isPlainObject } from './record-error';

const GROUND_TRUTH_COLUMNS = ['ground_truth', 'gts'] as const;
const LATER_GROUND_TRUTH_COLUMNS = ['answer', 'solution'] as const;
/** Every top-level column a ground truth is read from (`reward_model` holds verl's `reward_model.ground_truth`). */
export const GROUND_TRUTH_SOURCES: readonly string[] = [...GROUND_TRUTH_COLUMNS, 'reward_model', ...LATER_GROUND_TRUTH_COLUMNS];

export function groundTruthOf(record: Record<string, unknown>, column?: string): string | undefined {
  if (column !== undefined) return stringify(record[column]);
  for (const c of GROUND_TRUTH_COLUMNS) {
    const v = stringify(record[c]);
    if (v !== undefined) return v;
  }
  const rm = record.reward_model;
  if (isPlainObject(rm)) {
    const v = stringify(rm.ground_truth);
    if (v !== undefined) return v;
  }
  for (const c of LATER_GROUND_TRUTH_COLUMNS) {
    const v = stringify(record[c]);
    if (v !== undefined) return v;
  }
  return undefined;
}

export function stepOf(record: Record<string, unknown>, column = 'step'): number | undefined {
  return stepValue(record[column]);
}

/** A step column's value as a step (see above), undefined when it is none. */
export function stepValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function stringify(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v));
}
