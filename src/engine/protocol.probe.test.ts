import { describe, expect, it } from 'vitest';
import { checkToWorker } from './protocol';

const run = (probe: unknown) => ({ kind: 'run', taskId: 1, datasetId: 'd', code: 'x', start: 10, end: 13, probe });

describe('checkToWorker: a probe task', () => {
  it('a known probe with one row per position passes', () => {
    expect(checkToWorker(run({ name: 'cross', rows: Int32Array.from([4, 0, 9]), donors: Int32Array.from([1, 1, 2]) })).ok).toBe(true);
    expect(checkToWorker(run({ name: 'master-key::', rows: Int32Array.from([4, 0, 9]) })).ok).toBe(true);
  });

  it.each([
    ['an unknown probe', { name: 'constructor', rows: Int32Array.from([1, 2, 3]) }, 'probe.name: expected a known probe'],
    ['rows of another length', { name: 'empty', rows: Int32Array.from([1, 2]) }, 'probe.rows: expected an Int32Array of 3'],
    ['rows as a plain array', { name: 'empty', rows: [1, 2, 3] }, 'probe.rows: expected an Int32Array of 3'],
    ['a negative row', { name: 'empty', rows: Int32Array.from([1, -2, 3]) }, 'probe.rows: expected rows ≥ 0'],
    [
      'donors of another length',
      { name: 'cross', rows: Int32Array.from([1, 2, 3]), donors: Int32Array.from([0]) },
      'probe.donors: expected an Int32Array of 3',
    ],
  ])('a forged task is refused: %s', (_, probe, message) => {
    const c = checkToWorker(run(probe));
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toContain(message);
  });
});
