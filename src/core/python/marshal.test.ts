import { loadPyodide, type PyodideAPI } from 'pyodide';
import { beforeAll, describe, expect, it } from 'vitest';
import { marshalValue } from './marshal';

let py: PyodideAPI;
beforeAll(async () => {
  py = await loadPyodide({ jsglobals: {}, stdout: () => {}, stderr: () => {} });
}, 60_000);

/** JSON as runPython sent it before (bigints as numbers or strings, typed arrays as lists). */
const toJson = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x === 'bigint') return Number.isSafeInteger(Number(x)) ? Number(x) : x.toString();
    if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return Array.from(x as unknown as ArrayLike<number>);
    return x;
  });

describe('values in marshal format arrive in Python as json.loads of their JSON', () => {
  it('gives the same Python values (types, order, numbers, strings) for every kind of JSON value', () => {
    class Point {
      x = 1;
      y = [2, undefined];
    }
    const values: unknown[] = [
      null,
      true,
      false,
      0,
      -0,
      1,
      -1,
      2 ** 31 - 1,
      -(2 ** 31),
      2 ** 31,
      -(2 ** 31) - 1,
      2 ** 53,
      -(2 ** 53) - 2,
      1e20,
      1e21,
      -1e21,
      Number('123456789012345678901'),
      0.1,
      -2.5,
      1e-7,
      5e-324,
      Number.MAX_VALUE,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      10n,
      2n ** 60n,
      -(2n ** 70n),
      '',
      'ascii',
      'é ü ß — 中文 🎉',
      'lone \uD800 high',
      'lone \uDC00 low',
      // Around the 64-character cut between the byte-by-byte ASCII copy and encodeInto.
      'a'.repeat(63),
      'a'.repeat(64),
      'a'.repeat(62) + 'é',
      'a'.repeat(100) + '\uDC00',
      'é'.repeat(70),
      '\uDBFF',
      'tab\tnew\nline "q" \\ \u0000 nul',
      [],
      [1, 'a', null, undefined, () => 1, [[]]],
      {},
      { b: 1, a: 2, 10: 'ten', 2: 'two', u: undefined, f: () => 1, nested: { x: [1.5, { y: null }] } },
      Object.assign(Object.create(null), { z: 1 }),
      new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      new Float32Array([0.1, 1.5, Number.NaN]),
      new Int32Array([1, -2]),
      new Point(),
      { toJSON: () => ({ replaced: true }) },
      new String('boxed'),
      new Map([[1, 2]]),
      { big: 3n, arr: new Uint8Array([1, 2]), when: new Date(0) },
    ];
    const check = py.runPython(
      'import json, marshal\n' +
        'def check(m, j):\n' +
        '    a = marshal.loads(m.to_bytes())\n' +
        '    b = json.loads(j)\n' +
        '    return "same" if repr(a) == repr(b) and type(a) is type(b) else "marshal %r json %r" % (a, b)\n' +
        'check',
    );
    try {
      for (const v of values) {
        const json = toJson(v);
        expect([json, check(marshalValue(v), json)]).toEqual([json, 'same']);
      }
      // A list of many rows (buffer growth), and a long non-ASCII string.
      const many = Array.from({ length: 3000 }, (_, i) => ({ i, s: 'x'.repeat(i % 50) + 'é'.repeat(i % 7), f: i / 7 }));
      expect(check(marshalValue(many), toJson(many))).toBe('same');
      const long = '€'.repeat(200_000) + 'a\uD800';
      expect(check(marshalValue(long), toJson(long))).toBe('same');
    } finally {
      check.destroy();
    }
  });
});
