import { describe, expect, it } from 'vitest';
import { checkToWorker } from './protocol';

const run = (extra: Record<string, unknown>) => ({ kind: 'run', taskId: 1, datasetId: 'd', code: 'x', start: 10, end: 13, ...extra });

describe('checkToWorker: a row-subset task (--shard)', () => {
  it('one ascending row per position passes and is kept', () => {
    const c = checkToWorker(run({ rows: Int32Array.from([0, 4, 9]) }));
    expect(c.ok).toBe(true);
    if (c.ok && c.value.kind === 'run') expect(Array.from(c.value.rows!)).toEqual([0, 4, 9]);
  });

  it.each([
    ['rows of another length', { rows: Int32Array.from([1, 2]) }, 'rows: expected an Int32Array of 3'],
    ['rows as a plain array', { rows: [1, 2, 3] }, 'rows: expected an Int32Array of 3'],
    ['a negative row', { rows: Int32Array.from([-1, 2, 3]) }, 'rows.0: expected rows ≥ 0, ascending'],
    ['a row twice', { rows: Int32Array.from([1, 2, 2]) }, 'rows.2: expected rows ≥ 0, ascending'],
    ['rows out of order', { rows: Int32Array.from([1, 5, 3]) }, 'rows.2: expected rows ≥ 0, ascending'],
    ['a subset and a probe at once', { rows: Int32Array.from([1, 2, 3]), probe: { name: 'empty', rows: Int32Array.from([1, 2, 3]) } }, 'rows: expected absent'],
  ])('a forged task is refused: %s', (_, extra, message) => {
    const c = checkToWorker(run(extra));
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toContain(message);
  });
});
