import { describe, expect, it } from 'vitest';
import { fnv1a32, shardOf, shardRows } from './shard';

describe('shard assignment (FNV-1a 32 over UTF-8, mod n, + 1)', () => {
  // From scripts/shard-fixtures.py (an independent Python FNV-1a); "a" and "foobar" are also the published test vectors.
  it.each([
    ['', 2166136261, [2, 2, 6]],
    ['a', 3826002220, [1, 2, 5]],
    ['foobar', 3214735720, [1, 2, 1]],
    ['0', 890022063, [2, 1, 8]],
    ['17', 451618993, [2, 2, 2]],
    ['What is 2+2?', 2830275583, [2, 2, 8]],
    ['日本語 🎉', 2558076553, [2, 2, 2]],
    ['p-00abc', 4204779586, [1, 2, 3]],
  ])('%j hashes to %d and falls to shards %j of 2, 3 and 8', (key, hash, shards) => {
    expect(fnv1a32(key)).toBe(hash);
    expect([2, 3, 8].map((n) => shardOf(key, n))).toEqual(shards);
  });

  it('shardRows: every row of a group goes to its group’s shard; the shards partition the rows', () => {
    const keys = ['', 'a', 'foobar', '0'];
    // Shards of 3 by the table above: '' → 2, 'a' → 2, 'foobar' → 2, '0' → 1.
    const groupOf = Int32Array.from([0, 3, 1, 3, 2, 0]);
    expect(Array.from(shardRows(groupOf, keys, { index: 1, count: 3 }))).toEqual([1, 3]);
    expect(Array.from(shardRows(groupOf, keys, { index: 2, count: 3 }))).toEqual([0, 2, 4, 5]);
    expect(Array.from(shardRows(groupOf, keys, { index: 3, count: 3 }))).toEqual([]);
    expect(Array.from(shardRows(groupOf, keys, { index: 1, count: 1 }))).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
