import { describe, expect, it } from 'vitest';
import { checkFromWorker } from './protocol';

const checked = (result: unknown) => checkFromWorker({ kind: 'checked', reqId: 1, result });

describe('checkFromWorker: a TypeScript rewardFuncs list in a check reply', () => {
  it('names and weights pass, with nothing else', () => {
    const r = checked({ ok: true, candidates: [], functions: [{ name: 'a', weight: 0.5, fn: 'x' }] });
    expect(r).toEqual({ ok: true, value: { kind: 'checked', reqId: 1, result: { ok: true, candidates: [], functions: [{ name: 'a', weight: 0.5 }] } } });
  });

  it.each([
    ['an empty list', [], 'result.functions: expected 1 to 64 functions'],
    ['a weight that is not finite', [{ name: 'a', weight: Number.NaN }], 'result.functions.0.weight: expected a finite number'],
    ['a name that is not text', [{ name: { toString: 1 }, weight: 1 }], 'result.functions.0.name'],
    ['65 functions', Array.from({ length: 65 }, (_, i) => ({ name: `f${i}`, weight: 1 })), 'result.functions: expected 1 to 64 functions'],
  ])('a forged reply is refused: %s', (_, functions, message) => {
    const r = checked({ ok: true, candidates: [], functions });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(message);
  });
});
