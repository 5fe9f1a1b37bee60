/**
 * `--shard i/n`: which groups one machine scores. A group goes to shard FNV-1a-32(UTF-8 of its key) mod n + 1, so
 * the assignment depends on the key alone: the same on every machine, Node version and run, and a group is never split.
 */

/** Keys are encoded once: TextEncoder is the same UTF-8 in Node and browsers (a lone surrogate becomes U+FFFD). */
const utf8 = new TextEncoder();

/** FNV-1a, 32-bit (offset basis 2166136261, prime 16777619) over the UTF-8 bytes of `key`. */
export function fnv1a32(key: string): number {
  let h = 0x811c9dc5;
  for (const b of utf8.encode(key)) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

/** `--shard i/n`: shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Most shards a run may be cut into (`--shard i/n`, n ≤ this). */
export const MAX_SHARDS = 100_000;

/** The shard (1…count) of a group key. */
export const shardOf = (key: string, count: number): number => (fnv1a32(key) % count) + 1;

/** Dataset rows (ascending) whose group falls to `shard`; `groupOf` maps a row to its index in `groupKeys`. */
export function shardRows(groupOf: Int32Array, groupKeys: readonly string[], shard: Shard): Int32Array {
  const mine = groupKeys.map((k) => shardOf(k, shard.count) === shard.index);
  const out: number[] = [];
  for (let i = 0; i < groupOf.length; i++) if (mine[groupOf[i]]) out.push(i);
  return Int32Array.from(out);
}
