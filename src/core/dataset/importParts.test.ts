import { describe, expect, it } from 'vitest';
import { DatasetBuilder } from './dataset';
import { importParts, type PartSource } from './importParts';
import { RowStoreBuilder, rowsOfParts, type PartStore } from './rowStore';
import { storeRows } from './fixtures/indexed';
import { runPieceHere } from './importPacked';
import type { Detection } from '../formats/types';
import type { LabelColumn } from './labelColumns';

const jsonl = (rows: unknown[]) => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
const src = (name: string, step: number | null, rows: unknown[]): PartSource => ({ name, step, blob: new Blob([jsonl(rows)]) });

/** Import as the data worker does: the dataset the page builds, each part's store, the labels. */
async function imported(parts: PartSource[], pieces = 1) {
  const builder = new DatasetBuilder();
  const stores: PartStore[] = [];
  let kept = new RowStoreBuilder();
  let detection: Detection | null = null;
  let labels: LabelColumn[] = [];
  const ends: { rows: number; failure?: unknown }[] = [];
  const par = pieces > 1 ? { pieces, minPieceBytes: 1, run: runPieceHere } : undefined;
  for await (const e of importParts(parts, {}, par)) {
    if (e.kind === 'meta') detection = e.detection;
    else if (e.kind === 'labels') labels = e.columns;
    else if (e.kind === 'part') kept = new RowStoreBuilder();
    else if (e.kind === 'part-end') {
      ends.push({ rows: e.rows, failure: e.failure });
      if (e.failure) builder.addIssue(e.failure);
      if (e.rows > 0 && detection)
        stores.push({
          store: kept.finish(parts[e.index], { format: detection.format }).store,
          first: builder.size - e.rows,
          name: parts[e.index].name,
          step: parts[e.index].step,
        });
    } else if (e.kind === 'batch') {
      kept.add(e.batch.line.slice(), e.spans, e.rows);
      builder.append(e.batch);
    }
  }
  if (!detection) throw new Error('no format');
  const ds = builder.finish({ id: 'd', key: 1, name: 'run', blob: parts[0].blob, detection });
  return { ds, ends, labels, rows: await storeRows(rowsOfParts(stores)) };
}

describe('importParts', () => {
  it('joins files in the order given: steps from names or rows, groups per (step, key), lines per file, issues naming their file', async () => {
    const parts = [
      src('1.jsonl', 1, [
        { prompt: 'P', completion: 'a', correct: true },
        { prompt: 'P', completion: 'b', correct: false },
        '{"prompt": broken',
        { prompt: 'Q', completion: 'c', correct: 1 },
      ]),
      src('2.jsonl', 2, [
        { prompt: 'P', completion: 'd' },
        { prompt: 'P', completion: 'e', step: 1 },
      ]),
      src('notes.jsonl', null, [{ prompt: 'P', completion: 'f' }]),
    ];
    for (const pieces of [1, 2]) {
      const { ds, ends, labels, rows } = await imported(parts, pieces);
      expect(ds.size).toBe(6);
      // By hand: rows a b c (step 1), d (step 2), e (its own step 1), f (no step anywhere).
      expect([...ds.steps]).toEqual([1, 1, 1, 2, 1, Number.NaN]);
      expect([...ds.lines]).toEqual([1, 2, 4, 1, 2, 1]);
      // Groups: (1,P) (1,Q) (2,P) and the step-less P; e joins (1,P).
      expect([...ds.groupOf]).toEqual([0, 0, 1, 2, 0, 3]);
      expect(ds.groupKeys).toEqual(['P', 'Q', 'P', 'P']);
      expect(ds.groupLabels[0]).toBe(ds.groupLabels[2]); // the same prompt keeps one label across steps
      expect(ds.issues).toEqual([expect.objectContaining({ line: 3, file: '1.jsonl' })]);
      expect(ends.map((e) => e.rows)).toEqual([3, 2, 1]);
      // The label column of the first file, missing (NaN) on the rows of the others.
      expect(labels).toEqual([{ name: 'correct', binary: true, values: Float64Array.from([1, 0, 1, Number.NaN, Number.NaN, Number.NaN]) }]);
      // The rows the data worker answers with: dataset indexes, and the file's step where the row has none.
      expect(rows.map((t) => [t.index, t.completion, t.step])).toEqual([
        [0, 'a', 1],
        [1, 'b', 1],
        [2, 'c', 1],
        [3, 'd', 2],
        [4, 'e', 1],
        [5, 'f', undefined],
      ]);
    }
  });

  it('reports a file that cannot be read, naming it, and loads the rest', async () => {
    const parts = [
      src('1.jsonl', 1, [{ prompt: 'P', completion: 'a' }]),
      { name: '2.jsonl', step: 2, blob: new Blob(['not json at all\n']) },
      src('3.jsonl', 3, [{ prompt: 'P', completion: 'b' }]),
    ];
    const { ds, ends } = await imported(parts);
    expect(ds.size).toBe(2);
    expect([...ds.steps]).toEqual([1, 3]);
    expect(ends.map((e) => e.rows)).toEqual([1, 0, 1]);
    expect(ds.issues.some((i) => i.file === '2.jsonl')).toBe(true);
  });

  it('fails as one file does when no file gives a row', async () => {
    await expect(imported([{ name: '1.jsonl', step: 1, blob: new Blob(['nope\n']) }])).rejects.toThrow();
  });
});
