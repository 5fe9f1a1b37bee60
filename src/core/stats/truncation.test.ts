import { describe, expect, it } from 'vitest';
import { collapse, collapseByStep } from './collapse';
import { i32 } from './fixtures/check';
import { truncatedFromFields, truncatedRows, truncatedShare } from './truncation';

describe('truncation, hand-worked', () => {
  it('reads a finish reason or a boolean from the fields', () => {
    expect(truncatedFromFields({ finish_reason: 'length' })).toBe(1);
    expect(truncatedFromFields({ finish_reason: ' Length ' })).toBe(1);
    expect(truncatedFromFields({ stop_reason: 'max_tokens' })).toBe(1);
    expect(truncatedFromFields({ finish_reason: 'stop' })).toBe(0);
    expect(truncatedFromFields({ finish_reason: 'stop', truncated: true })).toBe(1);
    expect(truncatedFromFields({ is_truncated: false, finish_reason: 'length' })).toBe(0);
    expect(truncatedFromFields({ truncated: 'yes' })).toBeNaN();
    expect(truncatedFromFields({ finish_reason: '' })).toBeNaN();
    expect(truncatedFromFields({})).toBeNaN();
    expect(truncatedFromFields(JSON.parse('{"__proto__": {"finish_reason": "length"}}'))).toBeNaN();
  });

  it('fields first, then length ≥ max; null when nothing is known', () => {
    expect(Array.from(truncatedRows([1, 0, NaN, NaN], [5, 500, 400, 399], 400)!)).toEqual([1, 0, 1, 0]);
    expect(Array.from(truncatedRows([NaN, 0], [900, 900], null)!)).toEqual([0, 0]);
    expect(truncatedRows([NaN, NaN], [900, 900], null)).toBeNull();
    expect(truncatedRows(null, [1, 2], null)).toBeNull();
    expect(Array.from(truncatedRows(null, [1, 2], 2)!)).toEqual([0, 1]);
    expect(() => truncatedRows(null, [1], 0)).toThrow('invalid maxLength: 0');
    expect(truncatedShare(Uint8Array.from([1, 0, 0, 1]))).toBe(0.5);
    expect(truncatedShare(new Uint8Array(0))).toBeNaN();
  });

  it('collapse counts groups whose every scored rollout was truncated as their own cause', () => {
    // groups: [0,0] both cut → truncated; [0,0] one cut → all-min; [1,1] → all-max; [0.5,0.5] → other; [1,0] not collapsed.
    const rewards = [0, 0, 0, 0, 1, 1, 0.5, 0.5, 1, 0];
    const groupOf = i32([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    const cut = [1, 1, 1, 0, 0, 0, 0, 0, 1, 1];
    const c = collapse(rewards, groupOf, 5, 'trl', cut);
    expect(c.zeroStdGroupFraction).toBe(4 / 5);
    expect(c.truncatedZeroStdFraction).toBe(1 / 5);
    expect(c.allMinFraction).toBe(1 / 5);
    expect(c.allMaxFraction).toBe(1 / 5);
    expect(c.otherZeroStdFraction).toBe(1 / 5);
    // Without the column: the truncated group is all-min, as before.
    const plain = collapse(rewards, groupOf, 5);
    expect([plain.allMinFraction, plain.truncatedZeroStdFraction]).toEqual([2 / 5, 0]);
    // An unscored truncated row does not count; a group with no scored row is not a group.
    const d = collapse([0, NaN, 0, 1], i32([0, 0, 1, 1]), 2, 'trl', [1, 0, 1, 1]);
    expect(d.truncatedZeroStdFraction).toBe(1 / 2);
    expect(() => collapse([0], i32([0]), 1, 'trl', [1, 1])).toThrow('columns differ');
  });

  it('collapseByStep passes the truncation of each step’s rows', () => {
    // group 0 at step 1: [0,0] both cut; at step 2: [0,0] not cut.
    const r = collapseByStep([0, 0, 0, 0, 1, 0], i32([0, 0, 0, 0, 1, 1]), 2, [1, 1, 2, 2, 2, 2], 'trl', [1, 1, 0, 0, 0, 0]);
    expect(r.map((s) => s.collapse.truncatedZeroStdFraction)).toEqual([1, 0]);
    expect(r[1].collapse.allMinFraction).toBe(1 / 2);
  });
});
