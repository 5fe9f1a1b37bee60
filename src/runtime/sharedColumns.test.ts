import { afterEach, describe, expect, it, vi } from 'vitest';
import { shared, sharedColumns } from './sharedColumns';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('shared columns', () => {
  it('a cross-origin isolated page: one shared copy per array, the same values, the original untouched', () => {
    vi.stubGlobal('crossOriginIsolated', true);
    const whole = new Float64Array([9, 1, -0, NaN, 2.5, 9]);
    const a = whole.subarray(1, 5); // a view: only its own bytes are copied
    const s = shared(a);
    expect(s.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(s.buffer.byteLength).toBe(32);
    expect(Array.from(s)).toEqual([1, -0, NaN, 2.5]);
    expect(Object.is(s[1], -0)).toBe(true);
    expect(shared(a)).toBe(s);
    expect(shared(s)).toBe(s);
    const groups = new Int32Array([3, 4]);
    const m = sharedColumns({ kind: 'x', n: 2, values: a, others: [a, groups], components: { c: groups }, none: null });
    expect(m.values).toBe(s);
    expect(m.others[0]).toBe(s);
    expect(m.others[1]).toBeInstanceOf(Int32Array);
    expect(m.others[1].buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(m.components.c).toBe(m.others[1]);
    expect([m.kind, m.n, m.none]).toEqual(['x', 2, null]);
    expect(Array.from(whole)).toEqual([9, 1, -0, NaN, 2.5, 9]);
  });

  it('a page that is not isolated: the arrays go as they are', () => {
    vi.stubGlobal('crossOriginIsolated', false);
    const a = new Float64Array([1, 2]);
    expect(shared(a)).toBe(a);
    expect(sharedColumns({ values: a }).values).toBe(a);
  });
});
