import { describe, expect, it } from 'vitest';
import type { Detection } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { datasetMeta, joinMetas, PackedFacts } from './meta';

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

describe('PackedFacts: the facts of packed batches (worked by hand)', () => {
  /** A batch as `Packer` numbers it: groups over all batches of the read, step-scoped keys for rows with a step. */
  const batch = (
    rows: { line: number; group: number; length: number; step: number; truncated: number }[],
    newGroups: string[],
    issues: { line: number; reason: string }[] = [],
  ) => ({
    line: Int32Array.from(rows, (r) => r.line),
    groupOf: Int32Array.from(rows, (r) => r.group),
    charLength: Int32Array.from(rows, (r) => r.length),
    step: Float64Array.from(rows, (r) => r.step),
    truncated: Float64Array.from(rows, (r) => r.truncated),
    previewUnits: new Uint8Array(3),
    previewEnds: Int32Array.from(rows, () => 0),
    newGroups,
    pairOf: Int32Array.from(rows, () => -1),
    pairSide: new Uint8Array(rows.length),
    newPairs: [],
    issues,
    bytesRead: 0,
    totalBytes: 0,
  });

  it('groups keep their order and lose their step; lines and issues move by the lines before the piece', () => {
    const facts = new PackedFacts(100);
    // Group 0: "a" at step 2; group 1: "\u0000x\u0000y", a key of the file's that happens to start like a step's, no step;
    // group 2: "a" at step −0 (written "0"); batch two goes on with group 1 and a new group 3, "b" at step 10.
    facts.add(
      batch(
        [
          { line: 1, group: 0, length: 5, step: 2, truncated: 1 },
          { line: 3, group: 1, length: 0, step: NaN, truncated: NaN },
          { line: 4, group: 2, length: 7, step: -0, truncated: 0 },
        ],
        ['\u00002\u0000a', '\u0000x\u0000y', '\u00000\u0000a'],
        [{ line: 2, reason: 'not JSON' }],
      ),
    );
    facts.add(
      batch(
        [
          { line: 5, group: 1, length: 2, step: NaN, truncated: NaN },
          { line: 6, group: 3, length: 9, step: 10, truncated: 1 },
        ],
        ['\u000010\u0000b'],
      ),
    );
    expect(Array.from(facts.lines())).toEqual([101, 103, 104, 105, 106]);
    const m = facts.finish(detection);
    expect(m).toEqual({
      rows: 5,
      issues: [{ line: 102, reason: 'not JSON' }],
      detection,
      groupOf: Int32Array.from([0, 1, 2, 1, 3]),
      groupKeys: ['a', '\u0000x\u0000y', 'a', 'b'],
      lengths: Float64Array.from([5, 0, 7, 2, 9]),
      steps: Float64Array.from([2, NaN, -0, NaN, 10]),
      truncated: Float64Array.from([1, NaN, 0, NaN, 1]),
      labels: null,
      labelPresent: 0,
      groupBy: null,
    });
  });

  it('refuses a key that does not start with its rows’ step', () => {
    const facts = new PackedFacts();
    expect(() => facts.add(batch([{ line: 1, group: 0, length: 1, step: 3, truncated: NaN }], ['\u00004\u0000a']))).toThrow(/does not start with its step/);
  });
});
