import { describe, expect, it } from 'vitest';
import type { Detection } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { datasetMeta, joinMetas } from './meta';

const detection: Detection = { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: [], gzip: false };
const row = (line: number, fields: Record<string, unknown>, step?: number): Trajectory => ({
  id: String(line),
  index: line - 1,
  line,
  group: 'g',
  prompt: 'p',
  completion: 'abc',
  messages: [],
  fields,
  ...(step === undefined ? {} : { step }),
});

describe('datasetMeta: steps and the truncation column', () => {
  it('records each row step (NaN without one) and what its fields say of truncation (1 / 0 / NaN)', () => {
    const m = datasetMeta(
      [row(1, { finish_reason: 'length' }, 3), row(2, { finish_reason: 'stop' }), row(3, { truncated: true }, 4), row(4, { stop_reason: 42 }, 5)],
      [],
      detection,
      null,
    );
    expect(Array.from(m.steps)).toEqual([3, NaN, 4, 5]);
    expect(Array.from(m.truncated)).toEqual([1, 0, 1, NaN]);
  });
});

describe('datasetMeta: groups', () => {
  it('a group is its step and its key: no step and NaN are one, −0 and 0 are one (worked by hand)', () => {
    const g = (group: string, step?: number): Trajectory => ({ ...row(1, {}, step), group });
    const m = datasetMeta([g('a'), g('a', NaN), g('a', 0), g('a', -0), g('b', 0), g('a', 0), g('a', 1), g('a'), g('b')], [], detection, null);
    expect(Array.from(m.groupOf)).toEqual([0, 0, 1, 1, 2, 1, 3, 0, 4]);
    expect(m.groupKeys).toEqual(['a', 'a', 'b', 'a', 'b']);
  });
});

describe('joinMetas: the facts of a file read in pieces', () => {
  const t = (group: string, fields: Record<string, unknown>, step?: number, completion = 'abc'): Trajectory => ({
    ...row(1, fields, step),
    group,
    completion,
  });
  // Six rows: groups a (step 1), b, a (no step), a (step 1), c, b; labels 1, absent, 0, "true", x, 0; model m1 m2 m1 - m3 m2.
  const rows = [
    t('a', { ok: 1, model: 'm1' }, 1, 'x'),
    t('b', { model: 'm2' }, undefined, 'xy'),
    t('a', { ok: 0, model: 'm1' }),
    t('a', { ok: 'true' }, 1, 'xyz'),
    t('c', { ok: 'x', model: 'm3' }),
    t('b', { ok: 0, model: 'm2' }),
  ];

  it('numbers groups and groupBy values in first-seen order over the whole file, whatever the cut (worked by hand)', () => {
    for (let cut = 0; cut <= rows.length; cut++) {
      const a = datasetMeta(rows.slice(0, cut), [{ line: 2, reason: 'first' }], detection, 'ok', 'model');
      const b = datasetMeta(rows.slice(cut), [{ line: 9, reason: 'second' }], { ...detection, columns: ['ignored'] }, 'ok', 'model');
      const m = joinMetas([a, b], detection);
      expect(m.rows).toBe(6);
      // Keys: (1, a) → 0, b → 1, a without a step → 2 (another key, the same file key), (1, a) → 0, c → 3, b → 1.
      expect(Array.from(m.groupOf)).toEqual([0, 1, 2, 0, 3, 1]);
      expect(m.groupKeys).toEqual(['a', 'b', 'a', 'c']);
      expect(Array.from(m.lengths)).toEqual([1, 2, 3, 3, 3, 3]);
      expect(Array.from(m.steps)).toEqual([1, NaN, NaN, 1, NaN, NaN]);
      expect(Array.from(m.labels ?? [])).toEqual([1, NaN, 0, 1, NaN, 0]);
      expect(m.labelPresent).toBe(5);
      expect(m.groupBy?.values).toEqual(['m1', 'm2', 'm3']);
      expect(Array.from(m.groupBy?.codes ?? [])).toEqual([0, 1, 0, -1, 2, 1]);
      expect(m.groupBy?.present).toBe(5);
      expect(m.issues).toEqual([
        { line: 2, reason: 'first' },
        { line: 9, reason: 'second' },
      ]);
      expect(m.detection).toBe(detection);
      // And what one read of every row gives.
      expect(m).toEqual(datasetMeta(rows, m.issues, detection, 'ok', 'model'));
    }
  });

  it('three pieces, no label or groupBy asked for: the same as one read', () => {
    const pieces = [rows.slice(0, 1), rows.slice(1, 4), rows.slice(4)].map((p) => datasetMeta(p, [], detection, null));
    const m = joinMetas(pieces, detection);
    expect(m).toEqual(datasetMeta(rows, [], detection, null));
    expect(m.labels).toBeNull();
    expect(m.groupBy).toBeNull();
  });
});
