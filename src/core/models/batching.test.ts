import { describe, expect, it } from 'vitest';
import { padBatch, planBatches } from './batching';

const plan = (lengths: number[], maxTokens: number, maxRows: number) => planBatches(lengths, { maxTokens, maxRows }).map((b) => Array.from(b));

describe('planBatches', () => {
  it('takes rows longest first and fills each batch up to the token budget', () => {
    // lengths by index: 0:3 1:10 2:5 3:10 4:1 5:4 → order 1,3 (10, ties by index), 2 (5), 5 (4), 0 (3), 4 (1)
    // budget 20: first batch led by 10 → 20/10 = 2 rows [1,3]; next led by 5 → 4 rows [2,5,0,4]
    expect(plan([3, 10, 5, 10, 1, 4], 20, 64)).toEqual([
      [1, 3],
      [2, 5, 0, 4],
    ]);
  });
  it('caps the rows per batch', () => {
    // all length 2, budget 100 → 50 rows would fit, the cap is 2
    expect(plan([2, 2, 2, 2, 2], 100, 2)).toEqual([[0, 1], [2, 3], [4]]);
  });
  it('gives a row longer than the budget a batch of its own, and counts empty rows as length 1', () => {
    // 30 > 8 → alone; then 0-length rows count as 1 → 8 rows fit, there are 2
    expect(plan([0, 30, 0], 8, 64)).toEqual([[1], [0, 2]]);
  });
  it('plans nothing for no rows', () => expect(plan([], 8, 8)).toEqual([]));
});

describe('padBatch', () => {
  it('pads on the right with the pad id and masks the padding', () => {
    const b = padBatch([[5, 6, 7], [8]], { padId: 0, typeIds: [[0, 0, 1], [1]] });
    expect([b.batch, b.sequence]).toEqual([2, 3]);
    expect(Array.from(b.inputIds, Number)).toEqual([5, 6, 7, 8, 0, 0]);
    expect(Array.from(b.attentionMask, Number)).toEqual([1, 1, 1, 1, 0, 0]);
    expect(Array.from(b.typeIds!, Number)).toEqual([0, 0, 1, 1, 0, 0]);
  });
  it('truncates to maxLength and keeps one position for an empty batch row', () => {
    expect(Array.from(padBatch([[1, 2, 3, 4]], { padId: 9, maxLength: 2 }).inputIds, Number)).toEqual([1, 2]);
    const empty = padBatch([[]], { padId: 9 });
    expect([empty.sequence, Number(empty.inputIds[0]), Number(empty.attentionMask[0])]).toEqual([1, 9, 0]);
    expect(padBatch([[1]], { padId: 9 }).typeIds).toBeUndefined();
  });
});
