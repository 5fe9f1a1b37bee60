/**
 * Counts remembered by pre-token, keyed by the pre-token's characters read in place from the text (`text`, `start`,
 * `end`): no substring is made and no string is hashed by the engine. The keys' characters live in one Uint16Array,
 * the entries in typed arrays, and an open-addressing table holds entry numbers, so a full memo is a few typed arrays
 * for the garbage collector, not 100,000 strings and a Map (a Map of fresh substrings cost as much as the counting).
 */
export class PieceMemo {
  private chars = new Uint16Array(1 << 16);
  private charsUsed = 0;
  private starts = new Int32Array(1 << 12);
  private lengths = new Int32Array(1 << 12);
  private counts = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 12);
  private size = 0;
  /** Entry number + 1 per slot; 0 is empty. Kept at most half full. */
  private slots = new Int32Array(1 << 13);

  /** `maxEntries`: the memo starts again when it holds this many (bounded memory on endless distinct text). */
  constructor(private readonly maxEntries: number) {}

  /** The hash that `get` and `set` take for `text[start … end)`; FNV-1a over UTF-16 code units. */
  static hash(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let j = start; j < end; j++) h = Math.imul(h ^ text.charCodeAt(j), 0x01000193);
    return h;
  }

  /** The count remembered for `text[start … end)` (whose hash is `h`), or −1. */
  get(text: string, start: number, end: number, h: number): number {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let s = (h ^ (h >>> 15)) & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s] - 1;
      if (e < 0) return -1;
      if (this.hashes[e] !== h || this.lengths[e] !== len) continue;
      const at = this.starts[e];
      let j = 0;
      while (j < len && this.chars[at + j] === text.charCodeAt(start + j)) j++;
      if (j === len) return this.counts[e];
    }
  }

  /** Remember `count` for `text[start … end)` (hash `h`), not already in the memo. */
  set(text: string, start: number, end: number, h: number, count: number): void {
    if (this.size >= this.maxEntries) this.clear();
    const len = end - start;
    if (this.charsUsed + len > this.chars.length) this.chars = grow(this.chars, this.charsUsed + len);
    if (this.size === this.starts.length) {
      this.starts = grow(this.starts, this.size + 1);
      this.lengths = grow(this.lengths, this.size + 1);
      this.counts = grow(this.counts, this.size + 1);
      this.hashes = grow(this.hashes, this.size + 1);
    }
    const e = this.size++;
    for (let j = 0; j < len; j++) this.chars[this.charsUsed + j] = text.charCodeAt(start + j);
    this.starts[e] = this.charsUsed;
    this.lengths[e] = len;
    this.counts[e] = count;
    this.hashes[e] = h;
    this.charsUsed += len;
    if (this.size * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(e);
  }

  get entries(): number {
    return this.size;
  }

  clear(): void {
    this.size = 0;
    this.charsUsed = 0;
    this.slots.fill(0);
  }

  private place(e: number): void {
    const mask = this.slots.length - 1;
    const h = this.hashes[e];
    let s = (h ^ (h >>> 15)) & mask;
    while (this.slots[s] !== 0) s = (s + 1) & mask;
    this.slots[s] = e + 1;
  }

  private rehash(slotCount: number): void {
    this.slots = new Int32Array(slotCount);
    for (let e = 0; e < this.size; e++) this.place(e);
  }
}

/** A copy of `a` at least `need` long (doubling). */
function grow<T extends Int32Array | Uint16Array>(a: T, need: number): T {
  let n = a.length * 2;
  while (n < need) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
