import type { Detection } from './formats/types';
import type { ParseIssue, Trajectory } from './trajectory';

/**
 * A loaded dataset: the trajectories plus dense column arrays that diagnostics and the table work on
 * (DESIGN.md: big data lives in typed arrays, not in React state).
 */
export interface Dataset {
  id: string;
  name: string;
  rows: Trajectory[];
  /** Distinct group keys in first-seen order. */
  groupKeys: string[];
  /** Row → index into groupKeys. */
  groupOf: Int32Array;
  /** Rows per group, aligned with groupKeys. */
  groupSizes: Int32Array;
  /** Completion length in characters (UTF-16 code units, as String.length). */
  charLengths: Int32Array;
  issues: ParseIssue[];
  detection: Detection;
  /** Size of the source file in bytes. */
  bytes: number;
}

/** Dense group indices in first-seen order. */
export function indexGroups(rows: readonly Trajectory[]): { groupKeys: string[]; groupOf: Int32Array; groupSizes: Int32Array } {
  const keyToIndex = new Map<string, number>();
  const groupKeys: string[] = [];
  const groupOf = new Int32Array(rows.length);
  const sizes: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const key = rows[i].group;
    let g = keyToIndex.get(key);
    if (g === undefined) {
      g = groupKeys.length;
      keyToIndex.set(key, g);
      groupKeys.push(key);
      sizes.push(0);
    }
    groupOf[i] = g;
    sizes[g]++;
  }
  return { groupKeys, groupOf, groupSizes: Int32Array.from(sizes) };
}

export function buildDataset(init: { id: string; name: string; rows: Trajectory[]; issues: ParseIssue[]; detection: Detection; bytes: number }): Dataset {
  const { groupKeys, groupOf, groupSizes } = indexGroups(init.rows);
  const charLengths = new Int32Array(init.rows.length);
  for (let i = 0; i < init.rows.length; i++) charLengths[i] = init.rows[i].completion.length;
  return { ...init, groupKeys, groupOf, groupSizes, charLengths };
}
