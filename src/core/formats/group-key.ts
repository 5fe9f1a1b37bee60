/**
 * GRPO group key (DESIGN.md, "Data model"): an explicit column, checked in the order `group`, `uid`, `group_id`,
 * `prompt_id`, else the prompt (its text, or the flattened prompt messages: see conversation.ts).
 *
 * A column counts when its value is a non-empty string, a finite number, a bigint or a boolean (numbers and
 * the rest are stringified: 7 → "7"); null, "", objects and lists are skipped and the next rule applies.
 */

export const GROUP_COLUMNS = ['group', 'uid', 'group_id', 'prompt_id'] as const;

/**
 * @param record the original record
 * @param promptKey the fallback: prompt text or flattened prompt messages
 * @param column when given (a user's column mapping), the only column consulted before the fallback
 */
export function groupKeyOf(record: Record<string, unknown>, promptKey: string, column?: string): string {
  if (column !== undefined) return keyOfValue(record[column]) ?? promptKey;
  for (let i = 0; i < GROUP_COLUMNS.length; i++) {
    const v = record[GROUP_COLUMNS[i]];
    if (v === undefined) continue;
    const key = keyOfValue(v);
    if (key !== undefined) return key;
  }
  return promptKey;
}

/** A group column's value as a key, undefined when it does not count (see above). */
export function keyOfValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value === '' ? undefined : value;
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'bigint':
    case 'boolean':
      return String(value);
    default:
      return undefined;
  }
}
