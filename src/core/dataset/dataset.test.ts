import { describe, expect, it } from 'vitest';
import type { Detection } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { DatasetBuilder } from './dataset';
import { Packer, PREVIEW_CHARS } from './packed';

const detection: Detection = { container: 'jsonl', format: 'preference', detected: 'preference', reason: '', columns: [], gzip: false };
const t = (fields: Record<string, unknown>, line: number, group: string, completion: string): Trajectory => ({ id: String(line), index: 0, line, group, prompt: '', completion, messages: [], fields });

describe('Packer + DatasetBuilder', () => {
  it('numbers groups densely in first-seen order across batches, keeps lines, lengths and previews', () => {
    const packer = new Packer();
    const long = 'x'.repeat(PREVIEW_CHARS + 5);
    const b1 = packer.pack([t({}, 1, 'b', 'yes!'), t({}, 1, 'b', 'no'), t({}, 2, 'a', '😀')], [], 10, 30);
    const b2 = packer.pack([t({}, 2, 'a', ''), t({}, 4, 'b', long)], [{ line: 3, reason: 'bad' }], 30, 30);
    expect(b1.newGroups).toEqual(['b', 'a']);
    expect(b2.newGroups).toEqual([]);
    const builder = new DatasetBuilder();
    builder.append(b1);
    builder.append(b2);
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.size).toBe(5);
    expect(Array.from(ds.lines)).toEqual([1, 1, 2, 2, 4]);
    expect(Array.from(ds.groupOf)).toEqual([0, 0, 1, 1, 0]);
    expect(ds.groupKeys).toEqual(['b', 'a']);
    expect(Array.from(ds.groupSizes)).toEqual([3, 2]);
    // UTF-16 code units: the emoji counts 2.
    expect(Array.from(ds.charLengths)).toEqual([4, 2, 2, 0, PREVIEW_CHARS + 5]);
    expect(ds.previews).toEqual(['yes!', 'no', '😀', '', 'x'.repeat(PREVIEW_CHARS)]);
    expect(ds.issues).toEqual([{ line: 3, reason: 'bad' }]);
  });

  it('grows its columns past the initial capacity', () => {
    const packer = new Packer();
    const builder = new DatasetBuilder();
    for (let b = 0; b < 3; b++) builder.append(packer.pack(Array.from({ length: 700 }, (_, k) => t({}, b * 700 + k + 1, String(k % 7), 'c')), [], 0, 0));
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.size).toBe(2100);
    expect(ds.lines[2099]).toBe(2100);
    expect(Array.from(ds.groupSizes)).toEqual([300, 300, 300, 300, 300, 300, 300]);
  });
});
