import { describe, expect, it } from 'vitest';
import { checkFromWorker } from './protocol';

/** A worker's `loaded` reply with the CLI's per-row facts, two rows in one group, and `groupBy` as given. */
const loaded = (groupBy: unknown, truncated: Float64Array = new Float64Array([1, Number.NaN])) => ({
  kind: 'loaded',
  datasetId: 'cli',
  rows: 2,
  meta: {
    rows: 2,
    issues: [],
    detection: { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: ['model'], gzip: false },
    groupOf: new Int32Array([0, 0]),
    groupKeys: ['g'],
    lengths: new Float64Array([1, 2]),
    steps: new Float64Array([0, Number.NaN]),
    truncated,
    labels: null,
    labelPresent: 0,
    groupBy,
  },
});

describe('checkFromWorker: meta.groupBy', () => {
  it('a code per row, each −1 or an index into the values, passes', () => {
    const r = checkFromWorker(loaded({ codes: new Int32Array([0, -1]), values: ['gpt-4'], present: 1 }));
    expect(r.ok).toBe(true);
    if (r.ok && r.value.kind === 'loaded') expect(r.value.meta?.groupBy?.values).toEqual(['gpt-4']);
  });
  it('absent means none asked for', () => {
    const r = checkFromWorker(loaded(undefined));
    expect(r.ok && r.value.kind === 'loaded' && r.value.meta?.groupBy).toBeNull();
  });
  it('a code past the values, a wrong length, or values that are not strings: refused with the place', () => {
    expect(checkFromWorker(loaded({ codes: new Int32Array([0, 1]), values: ['a'], present: 2 }))).toEqual({
      ok: false,
      error: 'meta.groupBy.codes.1: expected a value index or −1',
    });
    expect(checkFromWorker(loaded({ codes: new Int32Array([0]), values: ['a'], present: 1 }))).toEqual({
      ok: false,
      error: 'meta.groupBy.codes: expected an Int32Array of 2',
    });
    expect(checkFromWorker(loaded({ codes: new Int32Array([0, 0]), values: [{ toString: 1 }], present: 2 })).ok).toBe(false);
    expect(checkFromWorker(loaded({ codes: new Int32Array([0, 0]), values: ['a'], present: 3 })).ok).toBe(false);
  });
});

describe('checkFromWorker: meta.truncated', () => {
  it('holds 1, 0 or NaN per row; any other value is refused with the place', () => {
    expect(checkFromWorker(loaded(undefined, new Float64Array([0, 1]))).ok).toBe(true);
    expect(checkFromWorker(loaded(undefined, new Float64Array([1, 2])))).toEqual({ ok: false, error: 'meta.truncated.1: expected 1, 0 or NaN' });
  });
});
