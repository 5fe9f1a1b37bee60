/**
 * Nothing throws across a worker boundary: replies are a value or a tagged error with a fixed set of reasons
 * (DESIGN.md, example 3).
 */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };
