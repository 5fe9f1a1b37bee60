/**
 * Validation of one parsed record with path-precise messages ("messages.3.content: expected string, got number").
 * A `RecordError` thrown while normalizing a record becomes a ParseIssue for that record; the import goes on.
 */

export class RecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordError';
  }
}

/** "string", "number", "array", "null", "object", … as a user would say it. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expected(path: string, what: string, value: unknown): RecordError {
  return new RecordError(`${path}: expected ${what}, got ${typeName(value)}`);
}

export function missing(path: string): RecordError {
  return new RecordError(`${path}: missing`);
}

export function expectString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw expected(path, 'string', value);
  return value;
}

export function expectObject(value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw expected(path, 'object', value);
  return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw expected(path, 'array', value);
  return value;
}
