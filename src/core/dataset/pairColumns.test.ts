import { describe, expect, it } from 'vitest';
import { NO_VALUE, pairColumns } from './pairColumns';

describe('pairColumns', () => {
  it('keeps short categorical fields with 2 … maxKeys values, from each pair’s first row', () => {
    // Four pairs, two rows each; the second row of a pair disagrees on purpose (the first row names the pair).
    const rec = (subset: string, model: string | undefined, id: number, extra: Record<string, unknown> = {}) => ({
      fields: { prompt: 'x'.repeat(300), subset, id, ...(model === undefined ? {} : { model }), ...extra },
    });
    const rows = [
      rec('chat', 'a', 1, { flag: true }),
      rec('IGNORED', 'z', 1),
      rec('math', 'b', 2, { flag: false }),
      rec('math', 'b', 2),
      rec('chat', undefined, 3, { flag: true }),
      rec('chat', undefined, 3),
      rec('code', 'a', 4, { flag: { nested: 1 } }),
      rec('code', 'a', 4),
    ];
    const pairOf = Int32Array.from([0, 0, 1, 1, 2, 2, 3, 3]);
    const cols = pairColumns(rows, pairOf, 4, 3);
    // prompt: a 300-character text → dropped. id: 4 values > maxKeys 3 → dropped. flag: an object in pair 3 → dropped.
    expect(cols.map((c) => c.name)).toEqual(['model', 'subset']);
    const [model, subset] = cols;
    expect(subset.keys).toEqual(['chat', 'math', 'code']);
    expect(Array.from(subset.keyOf)).toEqual([0, 1, 0, 2]);
    // Pair 2 has no model: it gets the NO_VALUE key, listed last.
    expect(model.keys).toEqual(['a', 'b', NO_VALUE]);
    expect(Array.from(model.keyOf)).toEqual([0, 1, 2, 0]);
  });

  it('turns numbers and booleans into keys; skips rows outside a pair, the texts, one-value and one-per-pair columns', () => {
    const rows = [
      { fields: { n: 1, b: true, same: 's', uid: 'u1', prompt: 'p' } },
      { fields: { n: 2, b: false, same: 's', uid: 'u2', prompt: 'q' } },
      { fields: { n: 1, b: true, same: 's', uid: 'u3', prompt: 'p' } },
      { fields: { n: 9, b: true, same: 't', uid: 'u4', prompt: 'r' } },
    ];
    // Pairs 0, 1, 2; row 3 is in none. same: one value; uid: one per pair; prompt: the pair's text.
    const cols = pairColumns(rows, Int32Array.from([0, 1, 2, -1]), 3);
    expect(cols.map((c) => [c.name, c.keys, Array.from(c.keyOf)])).toEqual([
      ['b', ['true', 'false'], [0, 1, 0]],
      ['n', ['1', '2'], [0, 1, 0]],
    ]);
    expect(() => pairColumns(rows, new Int32Array(2), 2)).toThrow(RangeError);
  });
});
