/**
 * Per-pair columns to break preference accuracy down by: the short categorical fields of each pair's record (RewardBench's
 * `subset`, `chosen_model`, a `model` or `source` column…), read from the pair's first row.
 */

export interface PairColumn {
  name: string;
  /** Distinct values in order of first appearance (NO_VALUE last, for pairs whose record lacks the field). */
  keys: string[];
  /** Pair → index into keys. */
  keyOf: Int32Array;
}

/** The key of pairs whose record has no value in the column. */
export const NO_VALUE = '(none)';
/** The pair's own texts. */
const TEXTS = new Set(['prompt', 'chosen', 'rejected']);
/** Values longer than this are texts, not categories. */
const MAX_VALUE_CHARS = 200;

/**
 * Columns other than prompt / chosen / rejected whose values are strings (≤ 200 characters), finite numbers or
 * booleans, with 2 to `maxKeys` distinct values over the pairs and fewer than one per pair, sorted by name. Row i is in pair pairOf[i]
 * (−1: none); the first row of a pair gives its values.
 */
export function pairColumns(rows: ArrayLike<{ fields: Record<string, unknown> }>, pairOf: Int32Array, pairCount: number, maxKeys = 50): PairColumn[] {
  const columns = new PairColumnCollector(pairOf, pairCount, rows.length, maxKeys);
  for (let i = 0; i < rows.length; i++) columns.add(i, rows[i].fields);
  return columns.finish();
}

/** `pairColumns` fed one row at a time, in order (the data worker reads a large file's rows without keeping them). */
export class PairColumnCollector {
  private readonly seen: Uint8Array;
  private readonly columns = new Map<string, { index: Map<string, number>; keyOf: Int32Array } | null>(); // null: too many values

  /** `rows`: the rows to come, one pair index each. */
  constructor(
    private readonly pairOf: Int32Array,
    private readonly pairCount: number,
    rows: number,
    private readonly maxKeys = 50,
  ) {
    if (pairOf.length !== rows) throw new RangeError(`pairColumns: ${pairOf.length} pair indexes for ${rows} rows`);
    this.seen = new Uint8Array(pairCount);
  }

  /** Row i's record fields. */
  add(i: number, fields: Record<string, unknown>): void {
    const { pairCount, columns, seen } = this;
    const p = this.pairOf[i];
    if (p < 0 || p >= pairCount || seen[p]) return;
    seen[p] = 1;
    for (const [name, v] of Object.entries(fields)) {
      if (TEXTS.has(name)) continue;
      const key =
        typeof v === 'string'
          ? v.length <= MAX_VALUE_CHARS
            ? v
            : null
          : (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean'
            ? String(v)
            : null;
      let col = columns.get(name);
      if (col === null) continue;
      if (key === null) {
        // A text or an object in some pair: not a category.
        columns.set(name, null);
        continue;
      }
      if (!col) columns.set(name, (col = { index: new Map(), keyOf: new Int32Array(pairCount).fill(-1) }));
      let k = col.index.get(key);
      if (k === undefined) {
        if (col.index.size >= this.maxKeys) {
          columns.set(name, null);
          continue;
        }
        col.index.set(key, (k = col.index.size));
      }
      col.keyOf[p] = k;
    }
  }

  finish(): PairColumn[] {
    const { pairCount } = this;
    const out: PairColumn[] = [];
    for (const [name, col] of this.columns) {
      // One value says nothing; a value per pair (an id) is the pair list itself.
      if (!col || col.index.size < 2 || col.index.size === pairCount) continue;
      const keys = [...col.index.keys()];
      const { keyOf } = col;
      if (keyOf.includes(-1)) {
        for (let p = 0; p < pairCount; p++) if (keyOf[p] === -1) keyOf[p] = keys.length;
        keys.push(NO_VALUE);
      }
      out.push({ name, keys, keyOf });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
