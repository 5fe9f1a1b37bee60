import { describe, expect, it } from 'vitest';
import { buildDataset, indexGroups } from './dataset';
import type { Trajectory } from './trajectory';

const t = (i: number, group: string, completion = ''): Trajectory => ({ id: String(i), index: i, line: i + 1, group, prompt: '', completion, messages: [], fields: {} });

describe('indexGroups', () => {
  it('numbers groups densely in first-seen order', () => {
    const g = indexGroups([t(0, 'b'), t(1, 'a'), t(2, 'b'), t(3, 'c'), t(4, 'a'), t(5, 'b')]);
    expect(g.groupKeys).toEqual(['b', 'a', 'c']);
    expect(Array.from(g.groupOf)).toEqual([0, 1, 0, 2, 1, 0]);
    expect(Array.from(g.groupSizes)).toEqual([3, 2, 1]);
  });
});

describe('buildDataset', () => {
  it('measures completion length in UTF-16 code units', () => {
    const ds = buildDataset({
      id: 'd',
      name: 'n',
      rows: [t(0, 'x', 'abc'), t(1, 'x', '😀'), t(2, 'y', '')],
      issues: [],
      detection: { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: [], gzip: false },
      bytes: 10,
    });
    expect(Array.from(ds.charLengths)).toEqual([3, 2, 0]);
    expect(ds.groupKeys).toEqual(['x', 'y']);
  });
});
