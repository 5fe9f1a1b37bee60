import { describe, expect, it } from 'vitest';
import { MergeTable } from './bpeMerges';

// A hand-made BPE: merges in rank order, worked through by hand below.
const vocab = new Map(['a', 'b', 'c', 'ab', 'bc', 'abc', 'aa', 'aaa'].map((t, i) => [t, i]));
const merges = [
  ['b', 'c'], // rank 0
  ['a', 'b'], // rank 1
  ['a', 'bc'], // rank 2
  ['a', 'a'], // rank 3
  ['aa', 'a'], // rank 4
  ['c', 'c'], // rank 5: "cc" is not in the vocabulary
];
const table = MergeTable.build(vocab, merges)!;
const count = (word: string) => {
  const ids = Int32Array.from(word, (ch) => vocab.get(ch)!);
  return table.count(ids, ids.length, new Int32Array(ids.length));
};

describe('MergeTable.count', () => {
  it('merges the lowest rank first', () => {
    // "abc": (b,c) rank 0 beats (a,b) rank 1 → [a, bc]; (a,bc) rank 2 → [abc]: 1 token.
    // Merging (a,b) first would give [ab, c] with no merge left: 2.
    expect(count('abc')).toBe(1);
    // "abab": (a,b) at 0 and 2 → [ab, ab], no merge (ab, ab): 2 tokens.
    expect(count('abab')).toBe(2);
  });

  it('merges the leftmost of equal ranks first', () => {
    // "aaa": (a,a) at 0 and 1, both rank 3; leftmost → [aa, a]; (aa,a) rank 4 → [aaa]: 1 token.
    // Rightmost first would give [a, aa], and (a, aa) is no merge: 2.
    expect(count('aaa')).toBe(1);
  });

  it('leaves single symbols and unmergeable words alone', () => {
    expect(count('b')).toBe(1);
    expect(count('ba')).toBe(2);
    expect(count('')).toBe(0);
  });

  it('answers −1 when a merge makes a string that is not a token', () => {
    expect(count('cc')).toBe(-1);
  });

  it('reads merges written as "left right" strings, and refuses other shapes', () => {
    const fromStrings = MergeTable.build(vocab, ['b c', 'a b', 'a bc'])!;
    const ids = Int32Array.from('abc', (ch) => vocab.get(ch)!);
    expect(fromStrings.count(ids, 3, new Int32Array(3))).toBe(1);
    expect(MergeTable.build(vocab, [['a']])).toBeNull();
    expect(MergeTable.build(vocab, ['ab'])).toBeNull();
  });
});
