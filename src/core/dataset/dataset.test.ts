import { describe, expect, it } from 'vitest';
import { fixture, importAll } from '../formats/fixtures/load-fixture';
import type { Detection } from '../formats/types';
import { RowStatus } from '../reward/contract';
import { PairSide, preferenceAccuracy, preferencePairs } from '../stats/preference';
import type { PreferenceSide, Trajectory } from '../trajectory';
import { bytesOf, DatasetBuilder, datasetPairs, NO_SUBSET, previewOf } from './dataset';
import { Packer, PREVIEW_CHARS } from './packed';

const detection: Detection = { container: 'jsonl', format: 'preference', detected: 'preference', reason: '', columns: [], gzip: false };
const t = (fields: Record<string, unknown>, line: number, group: string, completion: string): Trajectory => ({
  id: String(line),
  index: 0,
  line,
  group,
  prompt: '',
  completion,
  messages: [],
  fields,
});

describe('DatasetBuilder: what the workers read', () => {
  it("keeps a gzip file's decompressed bytes (the dataset's and each part's), which workers read instead of the file", () => {
    const builder = new DatasetBuilder();
    builder.append(new Packer().pack([t({}, 1, 'a', 'x'), t({}, 2, 'a', 'y')], [], 10, 10));
    const file = new Blob(['gz']);
    const decompressed = new Blob(['plain']);
    const spans = Float64Array.from([0, 3, 4, 7]);
    const parts = [
      { name: 'a.jsonl.gz', blob: file, step: 1, first: 0, rows: 1, decompressed },
      { name: 'b.jsonl', blob: file, step: 2, first: 1, rows: 1 },
    ];
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: file, detection, spans, decompressed, parts });
    expect(ds.blob).toBe(file);
    expect(bytesOf(ds)).toBe(decompressed);
    expect(ds.spans).toBe(spans);
    expect(bytesOf(ds.parts![0])).toBe(decompressed);
    expect(bytesOf(ds.parts![1])).toBe(file);
  });
});

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
    // No group column in `detection`: prompt-text groups, labelled by the cyrb53 hash of their key (groupLabels.test).
    expect(ds.groupLabels[1]).toBe('p-' + '1c2ba782c97901');
    expect(Array.from(ds.groupSizes)).toEqual([3, 2]);
    // UTF-16 code units: the emoji counts 2.
    expect(Array.from(ds.charLengths)).toEqual([4, 2, 2, 0, PREVIEW_CHARS + 5]);
    expect(Array.from({ length: ds.size }, (_, i) => previewOf(ds, i))).toEqual(['yes!', 'no', '😀', '', 'x'.repeat(PREVIEW_CHARS)]);
    // The batch with the emoji keeps two bytes a unit; the other one byte, and only the units it used.
    expect(ds.previews.units.map((u) => u.constructor.name)).toEqual(['Uint16Array', 'Uint8Array']);
    expect(ds.previews.units[1].length).toBe(PREVIEW_CHARS);
    expect(ds.issues).toEqual([{ line: 3, reason: 'bad' }]);
  });

  it('previews travel as one byte per unit while a batch is Latin-1, as UTF-16 from its first wider character on', () => {
    const packer = new Packer();
    // 'é' is U+00E9 (one byte), 'ā' U+0101 and '😀' a surrogate pair (0xD83D 0xDE00): wider than a byte.
    const b1 = packer.pack([t({}, 1, 'a', 'plain'), t({}, 2, 'a', 'café ÿ')], [], 0, 0);
    const b2 = packer.pack([t({}, 3, 'a', 'café'), t({}, 4, 'a', 'zā'), t({}, 5, 'a', 'x😀')], [], 0, 0);
    const b3 = packer.pack([t({}, 6, 'a', 'back to bytes')], [], 0, 0);
    expect(b1.previewUnits).toBeInstanceOf(Uint8Array);
    expect(Array.from(b1.previewUnits)).toEqual([...'plaincafé ÿ'].map((c) => c.charCodeAt(0)));
    expect(b2.previewUnits).toBeInstanceOf(Uint16Array);
    // The row before the wide one, and the wide row's own units before its wide character, were written as bytes
    // and widened with it.
    expect(Array.from(b2.previewUnits)).toEqual([0x63, 0x61, 0x66, 0xe9, 0x7a, 0x101, 0x78, 0xd83d, 0xde00]);
    expect(b3.previewUnits).toBeInstanceOf(Uint8Array);
    const builder = new DatasetBuilder();
    for (const b of [b1, b2, b3]) builder.append(b);
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(Array.from({ length: ds.size }, (_, i) => previewOf(ds, i))).toEqual(['plain', 'café ÿ', 'café', 'zā', 'x😀', 'back to bytes']);
  });

  it('rowUnits: previews copied from UTF-16 units stay bytes unless a row says it is wide', () => {
    const packer = new Packer();
    const src = Uint16Array.from([...'abcé', 0x101, ...'de'].map((c) => (typeof c === 'number' ? c : c.charCodeAt(0))));
    packer.rowUnits(1, 'g', 2, Number.NaN, src, 0, 2);
    packer.rowUnits(2, 'g', 2, Number.NaN, src, 2, 2);
    const narrow = packer.take([], 0, 0);
    expect(narrow.previewUnits).toBeInstanceOf(Uint8Array);
    expect(Array.from(narrow.previewUnits)).toEqual([0x61, 0x62, 0x63, 0xe9]);
    packer.rowUnits(3, 'g', 2, Number.NaN, src, 0, 2);
    packer.rowUnits(4, 'g', 3, Number.NaN, src, 2, 3, Number.NaN, true);
    packer.rowUnits(5, 'g', 2, Number.NaN, src, 5, 2);
    const wide = packer.take([], 0, 0);
    expect(wide.previewUnits).toBeInstanceOf(Uint16Array);
    expect(Array.from(wide.previewUnits)).toEqual([0x61, 0x62, 0x63, 0xe9, 0x101, 0x64, 0x65]);
    expect(Array.from(wide.previewEnds)).toEqual([2, 5, 7]);
  });

  it("labels groups with the file's own group value when the file has a group column", () => {
    const packer = new Packer();
    const builder = new DatasetBuilder();
    builder.append(packer.pack([t({ group: 200 }, 1, '200', 'x'), t({ group: 7 }, 2, '7', 'y'), t({ group: 200 }, 3, '200', 'z')], [], 0, 0));
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection: { ...detection, columns: ['prompt', 'group'] } });
    expect(Array.from(ds.groupOf)).toEqual([0, 1, 0]);
    expect(ds.groupLabels).toEqual(['200', '7']);
  });

  it('grows its columns past the initial capacity', () => {
    const packer = new Packer();
    const builder = new DatasetBuilder();
    for (let b = 0; b < 3; b++)
      builder.append(
        packer.pack(
          Array.from({ length: 700 }, (_, k) => t({}, b * 700 + k + 1, String(k % 7), 'c')),
          [],
          0,
          0,
        ),
      );
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.size).toBe(2100);
    expect(ds.lines[2099]).toBe(2100);
    expect(Array.from(ds.groupSizes)).toEqual([300, 300, 300, 300, 300, 300, 300]);
  });

  it('hands full columns out without copying them, and a later batch never writes over an earlier one', () => {
    const packer = new Packer();
    const batches = [];
    // 1,000 rows a batch, previews of 160 units: after the first batch the packer's arrays are sized for what it
    // needed (rows: at least 1,024), so later batches fill more than 3/4 of them and get them as they are.
    for (let b = 0; b < 4; b++) {
      const rows = Array.from({ length: 1000 }, (_, k) =>
        t({}, b * 1000 + k + 1, `g${b}-${k >> 2}`, `${b}:${k}:`.padEnd(PREVIEW_CHARS + 3, String.fromCharCode(97 + b))),
      );
      batches.push(packer.pack(rows, [], 0, 0));
    }
    // Some columns were handed out as views of the packer's own arrays (else this test would test nothing).
    expect(batches.filter((x) => x.line.buffer.byteLength > x.line.byteLength).length).toBeGreaterThan(0);
    expect(batches.filter((x) => x.previewUnits.buffer.byteLength > x.previewUnits.byteLength).length).toBeGreaterThan(0);
    expect(new Set(batches.map((x) => x.line.buffer)).size).toBe(4);
    expect(new Set(batches.map((x) => x.previewUnits.buffer)).size).toBe(4);
    const builder = new DatasetBuilder();
    for (const x of batches) builder.append(x);
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.size).toBe(4000);
    for (const i of [0, 999, 1000, 2500, 3999]) {
      const b = Math.floor(i / 1000);
      const k = i % 1000;
      expect(ds.lines[i]).toBe(i + 1);
      expect(ds.charLengths[i]).toBe(PREVIEW_CHARS + 3);
      expect(previewOf(ds, i)).toBe(`${b}:${k}:`.padEnd(PREVIEW_CHARS, String.fromCharCode(97 + b)));
      expect(ds.groupKeys[ds.groupOf[i]]).toBe(`g${b}-${k >> 2}`);
    }
    expect(ds.groupKeys.length).toBe(1000);
  });
});

describe('Packer + DatasetBuilder: preference pairs', () => {
  const { None: N, Chosen: C, Rejected: R } = PairSide;
  /** A row of pair `pairId` on `side`, with the record's fields. */
  const p = (line: number, pairId: string | undefined, side: PreferenceSide | undefined, fields: Record<string, unknown> = {}): Trajectory => ({
    ...t(fields, line, `g${line}`, 'x'),
    pairId,
    preference: side,
  });
  // Batch 1: pair "a" (subset chat), a plain rollout, the chosen row of pair "b" (its subset is not a string).
  // Batch 2: the rejected row of "b", pair "c" (subset math), a second rejected row of "a" (RewardBench 2 has
  // several rejected per pair id), and a row with a pair id but no side (in no pair, as in preferencePairs).
  const batch1 = [
    p(1, 'a', 'chosen', { subset: 'chat' }),
    p(1, 'a', 'rejected', { subset: 'chat' }),
    p(2, undefined, undefined),
    p(3, 'b', 'chosen', { subset: 7 }),
  ];
  const batch2 = [
    p(3, 'b', 'rejected', { subset: 7 }),
    p(4, 'c', 'chosen', { subset: 'math' }),
    p(4, 'c', 'rejected', { subset: 'math' }),
    p(5, 'a', 'rejected', { subset: 'other' }),
    p(6, 'd', undefined),
  ];

  it('numbers pairs densely in first-seen order across batches, with sides and the subset of each new pair', () => {
    const packer = new Packer();
    const b1 = packer.pack(batch1, [], 10, 20);
    const b2 = packer.pack(batch2, [], 20, 20);
    expect(Array.from(b1.pairOf)).toEqual([0, 0, -1, 1]);
    expect(Array.from(b1.pairSide)).toEqual([C, R, N, C]);
    expect(b1.newPairs).toEqual(['chat', null]);
    // "b" keeps index 1 from batch 1; "a" comes back as 0; only "c" is new. The subset of "a" stays the first seen.
    expect(Array.from(b2.pairOf)).toEqual([1, 2, 2, 0, -1]);
    expect(Array.from(b2.pairSide)).toEqual([R, C, R, R, N]);
    expect(b2.newPairs).toEqual(['math']);
    const builder = new DatasetBuilder();
    builder.append(b1);
    builder.append(b2);
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.pairOf).toBeInstanceOf(Int32Array);
    expect(ds.pairSide).toBeInstanceOf(Uint8Array);
    expect(Array.from(ds.pairOf)).toEqual([0, 0, -1, 1, 1, 2, 2, 0, -1]);
    expect(Array.from(ds.pairSide)).toEqual([C, R, N, C, R, C, R, R, N]);
    expect(ds.pairSubsets).toEqual(['chat', null, 'math']);
    expect(ds.hasPairs).toBe(true);
    // The same numbering as preferencePairs over all the rows at once.
    const whole = preferencePairs([...batch1, ...batch2]);
    expect(ds.pairOf).toEqual(whole.pairOf);
    expect(ds.pairSide).toEqual(whole.side);
    expect(whole.pairIds).toEqual(['a', 'b', 'c']);
    // For preferenceAccuracy: pair "b" has no subset while others do, so it is listed under NO_SUBSET.
    const pairs = datasetPairs(ds);
    expect(pairs.pairCount).toBe(3);
    expect(pairs.subsetOf).toEqual(['chat', NO_SUBSET, 'math']);
    // Scores by hand: "a" chosen 3 vs rejected 1 and 2 → correct; "b" 1 vs 1 → tie; "c" 0 vs 5 → wrong.
    // accuracy = 1 correct / 3 used = 1/3; per subset chat 1/1, (no subset) 0/1 (a tie), math 0/1.
    const scores = Float64Array.from([3, 1, 9, 1, 1, 0, 5, 2, 9]);
    const r = preferenceAccuracy(scores, new Uint8Array(9).fill(RowStatus.Ok), pairs, { resamples: 0 });
    expect(r).toMatchObject({ pairs: 3, used: 3, correct: 1, ties: 1, wrong: 1, accuracy: 1 / 3 });
    expect(r.bySubset.map((s) => [s.subset, s.correct, s.ties, s.wrong, s.accuracy])).toEqual([
      ['chat', 1, 0, 0, 1],
      [NO_SUBSET, 0, 1, 0, 0],
      ['math', 0, 0, 1, 0],
    ]);
  });

  it('data without pairs: hasPairs false, every row outside a pair, no subsets', () => {
    const packer = new Packer();
    const builder = new DatasetBuilder();
    builder.append(packer.pack([t({ subset: 'x' }, 1, 'g', 'a'), t({}, 2, 'g', 'b')], [], 0, 0));
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.hasPairs).toBe(false);
    expect(Array.from(ds.pairOf)).toEqual([-1, -1]);
    expect(Array.from(ds.pairSide)).toEqual([N, N]);
    expect(ds.pairSubsets).toEqual([]);
    expect(datasetPairs(ds)).toEqual({ pairOf: ds.pairOf, side: ds.pairSide, pairCount: 0, subsetOf: undefined });
  });

  it('pairs without any subset give no subsetOf', () => {
    const packer = new Packer();
    const builder = new DatasetBuilder();
    builder.append(packer.pack([p(1, '1', 'chosen'), p(1, '1', 'rejected')], [], 0, 0));
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    expect(ds.pairSubsets).toEqual([null]);
    expect(datasetPairs(ds).subsetOf).toBeUndefined();
  });

  it('RewardBench files: pair ids, sides and subsets from the parser reach the dataset', async () => {
    const packer = new Packer();
    const builder = new DatasetBuilder();
    for (const name of ['rewardbench-v1.jsonl', 'rewardbench2.jsonl']) {
      const { rows } = await importAll(fixture(name));
      builder.append(packer.pack(rows, [], 0, 0));
    }
    const ds = builder.finish({ id: 'd', key: 1, name: 'n', blob: new Blob([]), detection });
    // v1: ids 42 and 43, chosen then rejected. v2: "rb2-1" 1 chosen + 3 rejected, "rb2-2" 2 chosen + 1 rejected.
    expect(Array.from(ds.pairOf)).toEqual([0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3]);
    expect(Array.from(ds.pairSide)).toEqual([C, R, C, R, C, R, R, R, C, C, R]);
    expect(ds.pairSubsets).toEqual(['alpacaeval-easy', 'math-prm', 'Focus', 'Ties']);
  });
});
