// One Parquet file read by ranges of its rows (engine/workerRows.ts `ByRecords`): the rows a whole read gives,
// each read only when a task reaches it, and a file that changed says so. Its row numbers at the boundaries:
// protocol.parts.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { importPacked } from '../core/dataset/importPacked';
import { loadAll } from '../core/dataset/loadAll';
import type { FormatId } from '../core/formats/types';
import type { Trajectory } from '../core/trajectory';
import { WorkerRows } from './workerRows';

type Column = { name: string; type: 'STRING' | 'INT32' | 'INT64' | 'DOUBLE'; data: unknown[] };
const parquet = (columnData: Column[], rowGroupSize = 1000) =>
  new Blob([new Uint8Array(parquetWriteBuffer({ columnData: columnData as never, rowGroupSize }))]);

/** Import as the data worker does: the format, and each row's 1-based Parquet row (`Dataset.lines`). */
async function imported(blob: Blob, name = 'data.parquet') {
  let format: FormatId | undefined;
  const lines: number[] = [];
  for await (const e of importPacked({ name, blob }, {})) {
    if (e.kind === 'meta') format = e.detection.format;
    else if (e.kind === 'batch') lines.push(...e.batch.line);
  }
  if (!format) throw new Error('no format');
  return { format, records: Int32Array.from(lines) };
}

/** A worker's rows of a Parquet file that counts how many times its bytes are read. */
async function opened(blob: Blob) {
  const { format, records } = await imported(blob);
  let reads = 0;
  const counting = { size: blob.size, slice: (a?: number, b?: number) => (reads++, blob.slice(a, b)) } as unknown as Blob;
  const w = new WorkerRows();
  await w.load({ datasetId: 'd', name: 'data.parquet', blob: counting, format, records });
  return { w, records, reads: () => reads };
}

const plain = (t: Trajectory) => ({ ...t });

/** Letters that do not compress: long texts are read by ranges, short columns kept whole (read-parquet.ts). */
const noise = (seed: number, length: number) => {
  let x = seed + 1;
  return Array.from({ length }, () => String.fromCharCode(97 + ((x = (x * 1103515245 + 12345) & 0x7fffffff) % 26))).join('');
};

// 3,500 TRL rows in row groups of 1,000; every 97th has no completion (an issue at import: a gap in the rows).
const n = 3500;
const trl = parquet([
  { name: 'uid', type: 'STRING', data: Array.from({ length: n }, (_, i) => `g${Math.floor(i / 4)}`) },
  { name: 'prompt', type: 'STRING', data: Array.from({ length: n }, (_, i) => `Q${Math.floor(i / 4)} ${'ça '.repeat(i % 3)} ${noise(i + n, 40)}`) },
  { name: 'completion', type: 'STRING', data: Array.from({ length: n }, (_, i) => (i % 97 === 5 ? null : `answer ${i} 日本 ${noise(i, 40)}`)) },
  { name: 'step', type: 'INT32', data: Array.from({ length: n }, (_, i) => Math.floor(i / 500)) },
  { name: 'sample_id', type: 'INT64', data: Array.from({ length: n }, (_, i) => 9007199254740993n + BigInt(i)) },
]);

describe('WorkerRows over one Parquet file, read by ranges of its rows', () => {
  it('reads nothing on load beyond the footer, then gives the rows a whole read gives, each where a task asks', async () => {
    const whole = await loadAll({ name: 'data.parquet', blob: trl });
    const { w, records, reads } = await opened(trl);
    expect(records.length).toBe(whole.rows.length);
    expect(whole.rows.length).toBe(n - 37); // rows 5, 102, … 3497 gave issues
    expect(w.size).toBe(whole.rows.length);
    expect(w.rows.every((t) => t === undefined)).toBe(true);
    const footer = reads();
    // A range late in the file first: the rows before it stay unread.
    await w.ensure(3000, 3010);
    expect(reads()).toBeGreaterThan(footer);
    expect(w.rows[2999]).toBeUndefined();
    expect(w.rows.slice(3000, 3010).map(plain)).toEqual(whole.rows.slice(3000, 3010).map(plain));
    await w.ensure(0, w.size);
    expect(w.rows.map(plain)).toEqual(whole.rows.map(plain));
    // The fields in the file's column order, as a whole read gives them (kept and ranged columns interleaved).
    expect(Object.keys(w.rows[7].fields)).toEqual(['uid', 'prompt', 'completion', 'step', 'sample_id']);
    // INT64 as the import gives it: exact decimal text past 2^53.
    expect(w.rows[0].fields.sample_id).toBe('9007199254740993');
    // Each column chunk's bytes are read once: asking again reads nothing.
    const after = reads();
    await w.ensure(10, 20);
    expect(reads()).toBe(after);
  });

  it('gives both rows of a preference record, also when a task ends between them', async () => {
    const m = 300;
    const prefs = parquet(
      [
        { name: 'prompt', type: 'STRING', data: Array.from({ length: m }, (_, i) => `P${i}`) },
        { name: 'chosen', type: 'STRING', data: Array.from({ length: m }, (_, i) => `good ${i}`) },
        { name: 'rejected', type: 'STRING', data: Array.from({ length: m }, (_, i) => `bad ${i}`) },
      ],
      100,
    );
    const whole = await loadAll({ name: 'data.parquet', blob: prefs });
    const { w, records } = await opened(prefs);
    expect(records.length).toBe(2 * m);
    expect(records[0]).toBe(records[1]);
    await w.ensure(101, 102); // the rejected side of record 51 alone
    expect(w.rows[100]).toBeUndefined();
    expect(plain(w.rows[101])).toEqual(plain(whole.rows[101]));
    await w.ensure(0, w.size);
    expect(w.rows.map(plain)).toEqual(whole.rows.map(plain));
  });

  it('a file that gives fewer rows than the import read, or other records, says it changed', async () => {
    const { format, records } = await imported(trl);
    const shorter = parquet([
      { name: 'prompt', type: 'STRING', data: ['p', 'q'] },
      { name: 'completion', type: 'STRING', data: ['a', 'b'] },
    ]);
    const w = new WorkerRows();
    // The rows the import numbered are past the end of this file: it is read whole, as before, and gives 2 rows.
    await w.load({ datasetId: 'd', name: 'data.parquet', blob: shorter, format, records });
    expect(w.size).toBe(2);
    // Rows within the file whose records no longer give them (the completion gone).
    const emptied = parquet([
      { name: 'prompt', type: 'STRING', data: Array.from({ length: n }, () => 'p') },
      { name: 'completion', type: 'STRING', data: Array.from({ length: n }, () => null) },
      { name: 'answer', type: 'STRING', data: Array.from({ length: n }, () => 'x') },
    ]);
    const v = new WorkerRows();
    await v.load({ datasetId: 'd', name: 'data.parquet', blob: emptied, format, records });
    await expect(v.ensure(0, 10)).rejects.toThrow(/data\.parquet could not be read again .*import it again/);
  });

  it('a Parquet file whose columns are not all flat (verl: a message list, structs) is read whole, as before', async () => {
    const verl = new Blob([readFileSync(new URL('../core/formats/fixtures/verl-dataset.parquet', import.meta.url))]);
    const whole = await loadAll({ name: 'data.parquet', blob: verl });
    const { w } = await opened(verl);
    // Read at load: every row is there before any task.
    expect(w.rows.map(plain)).toEqual(whole.rows.map(plain));
    expect(w.rows[0].fields.reward_model).toEqual({ ground_truth: '72', style: 'rule' });
  });
});
