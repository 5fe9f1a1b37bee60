/**
 * Byte-pair merges over token ids, for counting: the merges of a BPE `tokenizer.json` in an open-addressing table
 * keyed by the pair's two token ids, so that merging a word builds no strings and hashes none.
 */
export class MergeTable {
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly rank: Int32Array;
  /** Token id of the merged pair; −1 when the merged string is not in the vocabulary. */
  private readonly merged: Int32Array;
  private readonly mask: number;

  private constructor(size: number) {
    this.left = new Int32Array(size).fill(-1);
    this.right = new Int32Array(size);
    this.rank = new Int32Array(size);
    this.merged = new Int32Array(size);
    this.mask = size - 1;
  }

  /**
   * From the vocabulary and the merges in rank order (pairs `[left, right]` or strings `"left right"`, as
   * tokenizers.js keeps them); null when a merge has another shape. A pair listed twice keeps its last rank, as the
   * library's `new Map(entries)` does. Merges whose parts are not tokens can never apply to a word of token ids and
   * are left out.
   */
  static build(vocab: Map<string, number>, merges: readonly unknown[]): MergeTable | null {
    let size = 1024;
    while (size < merges.length * 2) size *= 2;
    const table = new MergeTable(size);
    for (let r = 0; r < merges.length; r++) {
      const m = merges[r];
      let a: string;
      let b: string;
      if (Array.isArray(m) && m.length === 2 && typeof m[0] === 'string' && typeof m[1] === 'string') [a, b] = m as [string, string];
      else if (typeof m === 'string') [a, b] = m.split(' ', 2);
      else return null;
      if (b === undefined) return null;
      const ia = vocab.get(a);
      const ib = vocab.get(b);
      if (ia === undefined || ib === undefined) continue;
      const slot = table.slot(ia, ib);
      table.left[slot] = ia;
      table.right[slot] = ib;
      table.rank[slot] = r;
      table.merged[slot] = vocab.get(a + b) ?? -1;
    }
    return table;
  }

  /** The slot of pair (a, b): where it is, or the empty slot where it would go (linear probing). */
  private slot(a: number, b: number): number {
    // Multiply-xorshift mixing: token ids are small and dense, and their low bits alone cluster badly.
    let h = Math.imul(a ^ Math.imul(b, 0x85ebca77), 0x9e3779b1);
    h = (h ^ (h >>> 15)) & this.mask;
    while (this.left[h] !== -1 && (this.left[h] !== a || this.right[h] !== b)) h = (h + 1) & this.mask;
    return h;
  }

  /**
   * Number of tokens BPE leaves of the word whose symbols are `ids[0 … n)` (token ids; the array is overwritten):
   * repeatedly merge the adjacent pair of lowest rank, the leftmost of equal ranks (tokenizers.js orders its heap by
   * rank + position / length, Hugging Face's Rust crate by rank then position: the same order). −1 when a merge's
   * result is not a token (the library's unknown-token rules then apply). O(n²) for a word of n symbols.
   */
  count(ids: Int32Array, n: number, ranks: Int32Array): number {
    const NONE = 0x7fffffff;
    // ranks[i]: rank of the pair (ids[i], ids[i + 1]); only the neighbours of a merge change.
    const pairRank = (i: number) => {
      const s = this.slot(ids[i], ids[i + 1]);
      return this.left[s] === -1 ? NONE : this.rank[s];
    };
    for (let i = 0; i + 1 < n; i++) ranks[i] = pairRank(i);
    while (n > 1) {
      let at = 0;
      for (let i = 1; i < n - 1; i++) if (ranks[i] < ranks[at]) at = i;
      if (ranks[at] === NONE) break;
      const id = this.merged[this.slot(ids[at], ids[at + 1])];
      if (id < 0) return -1;
      ids[at] = id;
      ids.copyWithin(at + 1, at + 2, n);
      ranks.copyWithin(at, at + 1, n - 1);
      n--;
      if (at > 0) ranks[at - 1] = pairRank(at - 1);
      if (at < n - 1) ranks[at] = pairRank(at);
    }
    return n;
  }
}
