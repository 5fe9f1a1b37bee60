import { describe, expect, it, vi } from 'vitest';
import { importPacked, planPieces, runPieceHere } from '../core/dataset/importPacked';
import type { LineIndex } from '../core/dataset/lineRows';
import { loadAll } from '../core/dataset/loadAll';
import { RowStoreBuilder } from '../core/dataset/rowStore';
import { storeRows } from '../core/dataset/fixtures/indexed';
import type { FormatId } from '../core/formats/types';
import { WorkerRows } from './workerRows';
import { datasetMeta, joinMetas, PackedFacts } from '../core/dataset/meta';

const encode = (s: string) => new TextEncoder().encode(s);
const jsonl = (rows: unknown[], eol = '\n') => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join(eol) + eol;

/** Import as the data worker does (in pieces when `pieces` > 1): the format and the line index it sends the page. */
async function imported(blob: Blob, pieces = 1) {
  const kept = new RowStoreBuilder();
  let format: FormatId | undefined;
  const par = pieces > 1 ? { pieces, minPieceBytes: 1, run: runPieceHere } : undefined;
  for await (const e of importPacked({ name: 'data.jsonl', blob }, {}, par)) {
    if (e.kind === 'meta') format = e.detection.format;
    else if (e.kind === 'batch') kept.add(e.batch.line.slice(), e.spans, e.rows);
  }
  if (!format) throw new Error('no format');
  const { index } = kept.finish({ name: 'data.jsonl', blob }, { format });
  if (!index) throw new Error('no line index');
  return { format, index };
}

describe('WorkerRows read by lines', () => {
  it('reads nothing on load, then exactly the rows asked for, equal to a whole read of the file', async () => {
    const rows: unknown[] = [];
    for (let i = 0; i < 300; i++) {
      if (i % 40 === 9) rows.push('{"prompt": broken', '');
      rows.push({
        prompt: `Q${i % 30} ${'ça'.repeat(i % 3)}`,
        completion: `${'日本語 😀 '.repeat(i % 4)}A: ${i}`,
        uid: `g${i % 30}`,
        step: i % 5,
        extra: { n: [i, null] },
      });
    }
    for (const eol of ['\n', '\r\n']) {
      const blob = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), encode(jsonl(rows, eol))]);
      const whole = (await loadAll({ name: 'data.jsonl', blob })).rows;
      expect(whole.length).toBe(300);
      for (const pieces of [1, 3]) {
        const { format, index } = await imported(blob, pieces);
        const w = new WorkerRows();
        await w.load({ datasetId: 'd', blob, name: 'data.jsonl', format, index });
        expect(w.datasetId).toBe('d');
        expect(w.size).toBe(300);
        expect(w.rows.length).toBe(300);
        expect(w.rows.every((r) => r === undefined)).toBe(true);
        // A task in the middle, then one that overlaps it (only the rows missing are read), then the rest.
        await w.ensure(100, 150);
        expect(w.rows.slice(100, 150)).toEqual(whole.slice(100, 150));
        expect(w.rows[99]).toBeUndefined();
        expect(w.rows[150]).toBeUndefined();
        const kept = w.rows[120];
        await w.ensure(90, 160);
        expect(w.rows[120]).toBe(kept);
        await w.ensure(0, 300);
        expect(w.rows).toEqual(whole);
        // Out-of-range bounds are clipped.
        await w.ensure(-5, 400);
      }
    }
  });

  it('in reads of any size (one per line, a few lines, lines longer than a read), ASCII or not: the same rows', async () => {
    const rows: unknown[] = [];
    for (let i = 0; i < 60; i++) {
      // Rows 20–39 carry non-ASCII text: reads that hold them decode line by line, the others slice one string.
      const text = i >= 20 && i < 40 ? `ça ${'日本語 😀 '.repeat(i % 3)}` : 'x'.repeat(i * 7);
      // Long strings repeated on consecutive lines (a group's prompt) are shared between rows: the same values.
      const long = `a prompt long enough to be shared ${Math.floor(i / 4)}`;
      rows.push({ prompt: long, completion: `${text}A: ${i}`, uid: `g${i % 10}`, step: i % 4, ['__proto__']: long, note: i % 3 ? long : 7 });
      if (i % 25 === 24) rows.push('{"prompt": broken', '');
    }
    const blob = new Blob([encode(jsonl(rows))]);
    const whole = (await loadAll({ name: 'data.jsonl', blob })).rows;
    expect(whole.length).toBe(60);
    const { format, index } = await imported(blob);
    for (const readBytes of [1, 90, 700, 1 << 20]) {
      const w = new WorkerRows(readBytes);
      await w.load({ datasetId: 'd', blob, name: 'data.jsonl', format, index });
      await w.ensure(17, 43);
      expect(w.rows.slice(17, 43)).toEqual(whole.slice(17, 43));
      expect(w.rows[16]).toBeUndefined();
      await w.ensure(0, 60);
      expect(w.rows).toEqual(whole);
      // A "__proto__" field stays a field: the row's prototype is untouched.
      expect(Object.getPrototypeOf(w.rows[5].fields)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(w.rows[5].fields, '__proto__')?.value).toBe('a prompt long enough to be shared 1');
    }
    // Preference pairs (two rows per line) cut between reads anywhere.
    const pairs = Array.from({ length: 15 }, (_, i) => ({ prompt: `p${i}`, chosen: `good ${'y'.repeat(i * 5)}`, rejected: `bad ${i}` }));
    const pb = new Blob([jsonl(pairs)]);
    const pw = (await loadAll({ name: 'data.jsonl', blob: pb })).rows;
    const pi = await imported(pb);
    for (const readBytes of [1, 60, 200]) {
      const w = new WorkerRows(readBytes);
      await w.load({ datasetId: 'p', blob: pb, name: 'data.jsonl', format: pi.format, index: pi.index });
      await w.ensure(3, 30);
      expect(w.rows.slice(3, 30)).toEqual(pw.slice(3, 30));
    }
  });

  it('chat records with equal nested strings (turns, parts, tool calls) kept once: the same rows as a whole read', async () => {
    const system = 'You are a careful assistant; use the calculator tool.';
    const rows: unknown[] = [];
    for (let i = 0; i < 40; i++) {
      const user = `Question ${Math.floor(i / 4)}: what is ${Math.floor(i / 4)} times three?`;
      const messages: unknown[] = [
        { role: 'system', content: system },
        // Multi-part content on some rows: a list where the previous row has a string, and the other way round.
        { role: 'user', content: i % 5 === 2 ? [{ type: 'text', text: user }, 'and a second part long enough'] : user },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: `call_${i % 2}`, type: 'function', function: { name: 'calculator', arguments: JSON.stringify({ expression: `${Math.floor(i / 4)} * 3` }) } },
          ],
        },
        { role: 'tool', tool_call_id: `call_${i % 2}`, content: String(Math.floor(i / 4) * 3) },
        { role: 'assistant', content: `The answer is ${Math.floor(i / 4) * 3}, computed with the tool. ${i}` },
      ];
      // Lists of other lengths, objects where the previous row has a list, and a nested own "__proto__" key.
      if (i % 7 === 3) messages.splice(3, 2, { role: 'assistant', content: `no tool this time, row ${i}` });
      rows.push({ messages, uid: `q${Math.floor(i / 4)}`, meta: i % 3 === 0 ? ['a list long enough to share'] : { ['__proto__']: system, note: system } });
    }
    const blob = new Blob([jsonl(rows)]);
    const whole = (await loadAll({ name: 'chat.jsonl', blob })).rows;
    expect(whole.length).toBe(40);
    const { format, index } = await imported(blob);
    expect(format).toBe('openai-messages');
    for (const readBytes of [1, 300, 1 << 20]) {
      const w = new WorkerRows(readBytes);
      await w.load({ datasetId: 'c', blob, name: 'chat.jsonl', format, index });
      await w.ensure(0, 40);
      expect(w.rows).toEqual(whole);
      const meta = w.rows[4].fields.meta as Record<string, unknown>;
      expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(meta, '__proto__')?.value).toBe(system);
    }
  });

  it('preference records: the two rows of a pair come from one line, even when a task starts on the second', async () => {
    const pairs = Array.from({ length: 20 }, (_, i) => ({ prompt: `p${i}`, chosen: `good ${i}`, rejected: `bad ${i}` }));
    const blob = new Blob([jsonl(pairs)]);
    const whole = (await loadAll({ name: 'data.jsonl', blob })).rows;
    expect(whole.length).toBe(40);
    const { format, index } = await imported(blob);
    expect(format).toBe('preference');
    const w = new WorkerRows();
    await w.load({ datasetId: 'p', blob, name: 'data.jsonl', format, index });
    await w.ensure(5, 8); // rows 5 (the rejected side of pair 2), 6 and 7
    expect(w.rows.slice(5, 8)).toEqual(whole.slice(5, 8));
    expect(w.rows[5].preference).toBe('rejected');
    expect(w.rows[4]).toBeUndefined();
    expect(w.rows[5].pairId).toBe(whole[4].pairId);
    await w.ensure(0, 40);
    expect(w.rows).toEqual(whole);
  });

  it("asks for the bytes after a task with the task's last read; the next task, starting there, reads nothing more first", async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ prompt: `Q${i >> 2}`, completion: `A: ${i} ${'x'.repeat(i % 7)}` }));
    const blob = new Blob([jsonl(rows)]);
    const whole = (await loadAll({ name: 'data.jsonl', blob })).rows;
    const { format, index } = await imported(blob);
    const lineStart = (row: number) => index.spans[2 * row];
    for (const readBytes of [200, 1 << 20]) {
      const reads: number[] = [];
      const counting = { size: blob.size, slice: (s: number, e: number) => (reads.push(s), blob.slice(s, e)) } as unknown as Blob;
      const w = new WorkerRows(readBytes);
      await w.load({ datasetId: 'd', blob: counting, name: 'data.jsonl', format, index });
      await w.ensure(0, 30);
      // The last read asked for starts at row 30's line, but row 30 is not made until a task asks for it.
      expect(reads.at(-1)).toBe(lineStart(30));
      expect(w.rows[30]).toBeUndefined();
      const before = reads.length;
      await w.ensure(30, 40);
      expect(w.rows.slice(0, 40)).toEqual(whole.slice(0, 40));
      expect(w.rows[40]).toBeUndefined();
      expect(reads.slice(before)).not.toContain(lineStart(30));
      if (readBytes > blob.size) {
        // One read held rows 30–99: the rest of it serves the next task, with no read at all.
        expect(reads.length).toBe(before);
        await w.ensure(40, 100);
        expect(reads.length).toBe(before);
      }
      // A task elsewhere does not take those bytes for its own rows.
      await w.ensure(70, 80);
      await w.ensure(0, 100);
      expect(w.rows).toEqual(whole);
    }
  });

  it('without a line index it reads the whole file at once', async () => {
    const blob = new Blob([
      jsonl([
        { prompt: 'a', completion: 'b' },
        { prompt: 'c', completion: 'd' },
      ]),
    ]);
    const w = new WorkerRows();
    await w.load({ datasetId: 'x', blob, name: 'data.jsonl', format: 'trl-standard' });
    expect(w.size).toBe(2);
    expect(w.rows.map((r) => r.completion)).toEqual(['b', 'd']);
  });

  it('ensureFor: a task for another dataset, or one replaced while its rows were read, fails with the reason', async () => {
    const blob = new Blob([jsonl(Array.from({ length: 10 }, (_, i) => ({ prompt: 'p', completion: `c${i}` })))]);
    const { format, index } = await imported(blob);
    const w = new WorkerRows();
    await w.load({ datasetId: 'a', blob, name: 'data.jsonl', format, index });
    await expect(w.ensureFor('b', 0, 3)).rejects.toThrow('dataset b is not loaded in this worker');
    await w.ensureFor('a', 0, 3);
    expect(w.rows.slice(0, 3).map((r) => r.completion)).toEqual(['c0', 'c1', 'c2']);
    const reading = w.ensureFor('a', 3, 10);
    await w.load({ datasetId: 'c', blob, name: 'data.jsonl', format, index });
    await expect(reading).rejects.toThrow('dataset a is no longer loaded in this worker');
  });

  it('says so when the file changed since the import', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ prompt: 'p', completion: `c${i}` }));
    const blob = new Blob([jsonl(rows)]);
    const { format, index } = await imported(blob);
    // Same length, other bytes: the lines no longer parse.
    const changed = new Blob([jsonl(rows).replace(/"/g, "'")]);
    const w = new WorkerRows();
    await w.load({ datasetId: 'c', blob: changed, name: 'data.jsonl', format, index });
    await expect(w.ensure(0, 3)).rejects.toThrow(
      /^data\.jsonl could not be read again \(.+\)\. It may have changed or moved since it was imported: import it again\.$/,
    );
  });
});

describe('WorkerRows over a dataset of several files', () => {
  it('reads the parts in order, by lines or whole, and gets the rows the import gave (indexes and steps included)', async () => {
    const { importParts } = await import('../core/dataset/importParts');
    const { rowsOfParts } = await import('../core/dataset/rowStore');
    const files = [
      {
        name: '1.jsonl',
        step: 1,
        blob: new Blob([encode(jsonl([{ input: 'A', output: 'x', score: 1 }, '{"input": broken', { input: 'A', output: 'y', score: 0 }]))]),
      },
      {
        name: '2.jsonl',
        step: 2,
        blob: new Blob([
          encode(
            jsonl([
              { input: 'A', output: 'z', score: 1, step: 7 },
              { input: 'B', output: 'w', score: 0 },
            ]),
          ),
        ]),
      },
    ];
    let kept = new RowStoreBuilder();
    let format: FormatId | undefined;
    const parts: { name: string; step: number; blob: Blob; index?: { spans: Float64Array; lines: Int32Array } }[] = [];
    const stores = [];
    let first = 0;
    for await (const e of importParts(files, {})) {
      if (e.kind === 'meta') format = e.detection.format;
      else if (e.kind === 'part') kept = new RowStoreBuilder();
      else if (e.kind === 'part-end') {
        const f = files[e.index];
        const { store, index } = kept.finish(f, { format: format! });
        parts.push({ ...f, index });
        stores.push({ store, first, name: f.name, step: f.step });
        first += e.rows;
      } else if (e.kind === 'batch') kept.add(e.batch.line.slice(), e.spans, e.rows);
    }
    const expected = await storeRows(rowsOfParts(stores));
    expect(expected.map((t) => [t.index, t.completion, t.step])).toEqual([
      [0, 'x', 1],
      [1, 'y', 1],
      [2, 'z', 7],
      [3, 'w', 2],
    ]);
    // By lines (the browser): nothing read on load, then only the rows asked for.
    const w = new WorkerRows();
    await w.load({ datasetId: 'd', name: 'run', format, parts });
    expect(w.size).toBe(4);
    expect(w.found).toBeNull();
    await w.ensure(1, 3);
    expect(w.rows[0]).toBeUndefined();
    expect(w.rows.slice(1, 3)).toEqual(expected.slice(1, 3));
    await w.ensure(0, 4);
    expect(w.rows).toEqual(expected);
    // Whole files by path (the CLI): the same rows, and the issues naming their file.
    const byPath = new WorkerRows();
    const blobs = new Map(files.map((f) => [`/run/${f.name}`, f.blob]));
    await byPath.load({ datasetId: 'd', name: 'run', parts: files.map((f) => ({ path: `/run/${f.name}`, name: f.name, step: f.step })) }, async (p) =>
      blobs.get(p)!,
    );
    expect(byPath.rows).toEqual(expected);
    expect(byPath.found?.issues).toEqual([expect.objectContaining({ line: 2, file: '1.jsonl' })]);
  });
});

describe('WorkerRows over several files read whole, with the rows the import counted (the browser)', () => {
  const csv = (rows: [string, string][]) => 'prompt,completion\n' + rows.map(([p, c]) => `${p},"${c}"`).join('\n') + '\n';
  const files = [
    {
      name: '1.csv',
      step: 1,
      blob: new Blob([
        csv([
          ['a', 'x'],
          ['a', 'y, z'],
        ]),
      ]),
    },
    { name: '2.csv', step: 2, blob: new Blob([csv([['b', 'w']])]) },
    {
      name: '3.csv',
      step: 3,
      blob: new Blob([
        csv([
          ['c', 'v'],
          ['c', 'u'],
          ['d', 't'],
        ]),
      ]),
    },
  ];
  /** Each file behind a Blob that counts the reads of it. */
  const counted = () => {
    const reads = files.map(() => 0);
    const parts = files.map((f, k) => ({
      ...f,
      rows: [2, 1, 3][k],
      blob: { size: f.blob.size, slice: (a?: number, b?: number) => (reads[k]++, f.blob.slice(a, b)) } as unknown as Blob,
    }));
    return { reads, parts };
  };

  it('reads a file only when a task reaches its rows, and gives the rows a whole read gives', async () => {
    const whole = new WorkerRows();
    await whole.load({ datasetId: 'd', name: 'run', format: 'trl-standard', parts: files });
    expect(whole.rows.map((t) => [t.index, t.completion, t.step])).toEqual([
      [0, 'x', 1],
      [1, 'y, z', 1],
      [2, 'w', 2],
      [3, 'v', 3],
      [4, 'u', 3],
      [5, 't', 3],
    ]);
    const { reads, parts } = counted();
    const w = new WorkerRows();
    await w.load({ datasetId: 'd', name: 'run', format: 'trl-standard', parts });
    expect(w.size).toBe(6);
    expect(reads).toEqual([0, 0, 0]);
    await w.ensure(3, 5);
    expect(reads[0] + reads[1]).toBe(0);
    expect(reads[2]).toBeGreaterThan(0);
    expect(w.rows.slice(3, 6)).toEqual(whole.rows.slice(3, 6));
    expect(w.rows.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    const third = reads[2];
    await w.ensure(0, 6);
    expect(reads[2]).toBe(third); // read once
    expect(w.rows).toEqual(whole.rows);
  });

  it('says so when a file no longer gives the rows the import counted in it', async () => {
    const { parts } = counted();
    parts[1] = { ...parts[1], rows: 2 };
    const w = new WorkerRows();
    await w.load({ datasetId: 'd', name: 'run', format: 'trl-standard', parts });
    await w.ensure(0, 2);
    await expect(w.ensure(2, 3)).rejects.toThrow(
      '2.csv could not be read again (it gives 1 rows where the import found 2). It may have changed or moved since it was imported: import it again.',
    );
    const gone = [{ ...parts[0], blob: new Blob(['\u0000\u0001binary']) }];
    const v = new WorkerRows();
    await v.load({ datasetId: 'e', name: 'run', format: 'trl-standard', parts: gone });
    await expect(v.ensure(0, 1)).rejects.toThrow(/^1\.csv could not be read again \(.+\)\. It may have changed/);
  });
});

describe('WorkerRows: a file read in pieces, one per worker (the CLI)', () => {
  /** Read `blob` in `pieces` pieces cut after newlines, each by its own WorkerRows, as the CLI's workers do. */
  async function readInPieces(blob: Blob, pieces: number, format: FormatId, lean = false, label: string | null = null, groupBy: string | null = null) {
    const cuts = await planPieces(blob, pieces, 1);
    if (!cuts) throw new Error('not cut');
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const linesBefore = (at: number) => bytes.subarray(0, at).filter((b) => b === 10).length;
    const workers: WorkerRows[] = [];
    const reads = [];
    for (let k = 0; k + 1 < cuts.length; k++) {
      const w = new WorkerRows();
      const request = { datasetId: 'd', path: 'data.jsonl', name: 'data.jsonl', start: cuts[k], end: cuts[k + 1], lineOffset: linesBefore(cuts[k]) };
      reads.push(
        await w.readPiece({ kind: 'piece', ...request, format, mapping: null, meta: { label, groupBy }, ...(lean ? { lean } : {}) }, async () => blob),
      );
      workers.push(w);
    }
    return { cuts, workers, reads };
  }
  const join = (reads: { index: LineIndex }[]): LineIndex => ({
    spans: Float64Array.from(reads.flatMap((r) => Array.from(r.index.spans))),
    lines: Int32Array.from(reads.flatMap((r) => Array.from(r.index.lines))),
  });
  /** A file whose bytes cannot be read: a row taken from the piece, not read again, is the only way to have it. */
  const unreadable = { size: 1 << 30, slice: () => ({ arrayBuffer: () => Promise.reject(new Error('read again')) }) } as unknown as Blob;

  it('gives the rows, issues and line index of a whole read (lines, ids, BOM, CRLF, broken and blank lines, any text)', async () => {
    const rows: unknown[] = [];
    for (let i = 0; i < 240; i++) {
      if (i % 37 === 5) rows.push('{"prompt": broken', '', '[1, 2]');
      rows.push({ prompt: `Q${i % 30} ${'ça'.repeat(i % 3)}`, completion: `${'日本語 😀 '.repeat(i % 4)}A: ${i}`, uid: `g${i % 30}`, step: i % 5 });
    }
    for (const eol of ['\n', '\r\n']) {
      const blob = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), encode(jsonl(rows, eol))]);
      const whole = await loadAll({ name: 'data.jsonl', blob });
      const { format, index } = await imported(blob);
      for (const pieces of [2, 3, 5]) {
        const { cuts, workers, reads } = await readInPieces(blob, pieces, format);
        expect(cuts.length).toBe(pieces + 1);
        // Every piece's issues are the whole read's, in order, numbered in the whole file (its rows: below).
        expect(reads.reduce((a, r) => a + r.meta.rows, 0)).toBe(whole.rows.length);
        expect(reads.flatMap((r) => r.meta.issues)).toEqual(whole.issues);
        expect(whole.issues.length).toBe(14);
        // Their index is the import's.
        expect(join(reads)).toEqual(index);
        // Loaded with the whole file's index, each worker has its piece's rows without reading anything.
        let at = 0;
        for (let k = 0; k < workers.length; k++) {
          const n = reads[k].meta.rows;
          await workers[k].load({ datasetId: 'd', path: 'data.jsonl', name: 'data.jsonl', format, index }, async () => unreadable);
          await workers[k].ensure(at, at + n);
          expect(workers[k].rows.slice(at, at + n)).toEqual(whole.rows.slice(at, at + n));
          expect(workers[k].rows[at + n]).toBeUndefined();
          at += n;
        }
        // The rows of other pieces are read by lines, as before.
        await workers[0].load({ datasetId: 'd', path: 'data.jsonl', name: 'data.jsonl', format, index }, async () => blob);
        await workers[0].ensure(0, whole.rows.length);
        expect(workers[0].rows).toEqual(whole.rows);
      }
    }
  });

  it('preference records: a pair stays in one piece and keeps its two rows', async () => {
    const pairs = Array.from({ length: 90 }, (_, i) => ({ prompt: `p${i % 7}`, chosen: `good ${i} é`, rejected: `bad ${i}` }));
    const blob = new Blob([jsonl(pairs)]);
    const whole = await loadAll({ name: 'data.jsonl', blob });
    const { format, index } = await imported(blob);
    expect(format).toBe('preference');
    const { workers, reads } = await readInPieces(blob, 3, format);
    expect(reads.map((r) => r.meta.rows % 2)).toEqual([0, 0, 0]);
    expect(join(reads)).toEqual(index);
    const [n0, n1] = [reads[0].meta.rows, reads[1].meta.rows];
    await workers[1].load({ datasetId: 'd', path: 'data.jsonl', name: 'data.jsonl', format, index }, async () => unreadable);
    await workers[1].ensure(n0, n0 + n1);
    expect(workers[1].rows.slice(n0, n0 + n1)).toEqual(whole.rows.slice(n0, n0 + n1));
  });

  it('keeps no piece rows for another file, another dataset, or an index where they do not fit', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => ({ prompt: `q${i}`, completion: `a${i}` }));
    const blob = new Blob([jsonl(rows)]);
    const { format, index } = await imported(blob);
    const cases: [string, string, LineIndex][] = [
      ['other.jsonl', 'd', index],
      ['data.jsonl', 'e', index],
      // The same rows one line further down: their lines differ.
      ['data.jsonl', 'd', { spans: index.spans, lines: index.lines.map((l) => l + 1) }],
    ];
    for (const [path, datasetId, ix] of cases) {
      const { workers } = await readInPieces(blob, 2, format);
      await workers[1].load({ datasetId, path, name: 'data.jsonl', format, index: ix }, async () => unreadable);
      await expect(workers[1].ensure(110, 111)).rejects.toThrow(/read again/);
    }
  });
});

describe('WorkerRows: a lean read in pieces (the CLI, a file too large to keep)', () => {
  const detection = (format: FormatId) => ({ container: 'jsonl' as const, format, detected: format, reason: '', columns: [], gzip: false });
  /** Rows whose GRPO groups, steps, labels and groupBy values run across the 7-row stretches and the pieces. */
  function rowsOf(n: number): unknown[] {
    const rows: unknown[] = [];
    for (let i = 0; i < n; i++) {
      if (i % 41 === 3) rows.push('{"prompt": broken', '');
      const group = Math.floor(i / 5);
      rows.push({
        prompt: `Q${group % 17} ${'ça'.repeat(i % 3)}`,
        completion: `${'日本語 😀 '.repeat(i % 4)}A: ${i}`,
        uid: `g${group}`,
        step: Math.floor(i / 60),
        ok: i % 3 === 0 ? true : i % 3 === 1 ? 'false' : null,
        model: `m${Math.floor(i / 23) % 4}`,
      });
    }
    return rows;
  }

  it('gives the facts and line index of a whole read, and keeps no row', async () => {
    const blob = new Blob([jsonl(rowsOf(260))]);
    const whole = await loadAll({ name: 'data.jsonl', blob });
    const { format, index } = await imported(blob);
    const expected = datasetMeta(whole.rows, whole.issues, detection(format), 'ok', 'model');
    expect(expected.groupKeys.length).toBeGreaterThan(40);
    for (const pieces of [1, 2, 3]) {
      const cuts = pieces === 1 ? [0, blob.size] : await planPieces(blob, pieces, 1);
      if (!cuts) throw new Error('not cut');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      const reads = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        const w = new WorkerRows(1 << 20, 7);
        const lineOffset = bytes.subarray(0, cuts[k]).filter((b) => b === 10).length;
        const request = { kind: 'piece' as const, datasetId: 'd', path: 'p', name: 'data.jsonl', start: cuts[k], end: cuts[k + 1], lineOffset };
        reads.push(await w.readPiece({ ...request, format, mapping: null, meta: { label: 'ok', groupBy: 'model' }, lean: true }, async () => blob));
        // Nothing kept: the rows of its piece are read again (here, from a file that can no longer be read).
        await w.load({ datasetId: 'd', path: 'p', name: 'data.jsonl', format, index, lean: true }, async () => unreadableFile);
        const first = reads.slice(0, k).reduce((a, r) => a + r.meta.rows, 0);
        await expect(w.ensure(first, first + 1)).rejects.toThrow(/read again/);
      }
      const joined = joinMetas(
        reads.map((r) => r.meta),
        detection(format),
      );
      expect(joined).toEqual(expected);
      expect({
        spans: Float64Array.from(reads.flatMap((r) => Array.from(r.index.spans))),
        lines: Int32Array.from(reads.flatMap((r) => Array.from(r.index.lines))),
      }).toEqual(index);
    }
  });

  it('with no label or groupBy column, in a flat format: the facts from the scanner, equal to a whole read', async () => {
    const add = vi.spyOn(PackedFacts.prototype, 'add');
    try {
      const rows = rowsOf(300).map((r) =>
        typeof r === 'string' ? r : { ...(r as object), completion: `${(r as { completion: string }).completion} ${'x'.repeat(120)}` },
      );
      const blob = new Blob([new Uint8Array([0xef, 0xbb, 0xbf]), encode(jsonl(rows, '\r\n'))]);
      const whole = await loadAll({ name: 'data.jsonl', blob });
      const { format, index } = await imported(blob);
      expect(format).toBe('trl-standard');
      const expected = datasetMeta(whole.rows, whole.issues, detection(format), null, null);
      const cuts = await planPieces(blob, 3, 1);
      if (!cuts) throw new Error('not cut');
      const bytes = new Uint8Array(await blob.arrayBuffer());
      const reads = [];
      for (let k = 0; k + 1 < cuts.length; k++) {
        const lineOffset = bytes.subarray(0, cuts[k]).filter((b) => b === 10).length;
        const request = { kind: 'piece' as const, datasetId: 'd', path: 'p', name: 'data.jsonl', start: cuts[k], end: cuts[k + 1], lineOffset };
        reads.push(await new WorkerRows().readPiece({ ...request, format, mapping: null, meta: { label: null, groupBy: null }, lean: true }, async () => blob));
      }
      expect(add).toHaveBeenCalled();
      expect(
        joinMetas(
          reads.map((r) => r.meta),
          detection(format),
        ),
      ).toEqual(expected);
      expect({
        spans: Float64Array.from(reads.flatMap((r) => Array.from(r.index.spans))),
        lines: Int32Array.from(reads.flatMap((r) => Array.from(r.index.lines))),
      }).toEqual(index);
    } finally {
      add.mockRestore();
    }
  });

  it('reads the rows a task needs and lets go of them after it', async () => {
    const blob = new Blob([jsonl(rowsOf(120))]);
    const whole = await loadAll({ name: 'data.jsonl', blob });
    const { format, index } = await imported(blob);
    const w = new WorkerRows(300);
    await w.load({ datasetId: 'd', path: 'p', name: 'data.jsonl', format, index, lean: true }, async () => blob);
    expect(w.lean).toBe(true);
    await w.ensure(10, 30);
    await w.ensure(50, 60);
    expect(w.rows.slice(10, 30)).toEqual(whole.rows.slice(10, 30));
    w.letGo();
    expect(w.rows.filter((t) => t !== undefined)).toEqual([]);
    // Read again, equal.
    await w.ensure(0, whole.rows.length);
    expect(w.rows).toEqual(whole.rows);
    w.letGo();
    expect(w.rows.every((t) => t === undefined)).toBe(true);
    expect(w.rows.length).toBe(whole.rows.length);
  });

  it('reads the scattered rows of a subset without reading on past each of them', async () => {
    const blob = new Blob([jsonl(rowsOf(120))]);
    const whole = await loadAll({ name: 'data.jsonl', blob });
    const { format, index } = await imported(blob);
    let read = 0;
    const counted = { size: blob.size, slice: (a: number, b: number) => ((read += b - a), blob.slice(a, b)) } as unknown as Blob;
    const bytesOf = (a: number, b: number) => index.spans[2 * (b - 1) + 1] - index.spans[2 * a];
    const w = new WorkerRows();
    await w.load({ datasetId: 'd', path: 'p', name: 'data.jsonl', format, index, lean: true }, async () => counted);
    await w.ensureFor('d', 10, 14, false);
    await w.ensureFor('d', 50, 53, false);
    expect(read).toBe(bytesOf(10, 14) + bytesOf(50, 53));
    expect(w.rows.slice(50, 53)).toEqual(whole.rows.slice(50, 53));
    // A task's rows: the bytes after them are asked for too (the next task starts there).
    await w.ensureFor('d', 60, 64);
    expect(read).toBeGreaterThan(bytesOf(10, 14) + bytesOf(50, 53) + bytesOf(60, 64));
  });

  it('is not lean where the rows could not be read again (a file read whole), and lets go of nothing then', async () => {
    const blob = new Blob([jsonl(rowsOf(40))]);
    const w = new WorkerRows();
    await w.load({ datasetId: 'd', path: 'p', name: 'data.jsonl', lean: true }, async () => blob);
    expect(w.lean).toBe(false);
    await w.ensure(0, 40);
    w.letGo();
    expect(w.rows.every((t) => t !== undefined)).toBe(true);
    // Nor is a dataset that did not ask.
    const { format, index } = await imported(blob);
    const v = new WorkerRows();
    await v.load({ datasetId: 'd', path: 'p', name: 'data.jsonl', format, index }, async () => blob);
    await v.ensure(0, 40);
    v.letGo();
    expect(v.lean).toBe(false);
    expect(v.rows.every((t) => t !== undefined)).toBe(true);
  });
});

/** A file whose bytes cannot be read. */
const unreadableFile = { size: 1 << 30, slice: () => ({ arrayBuffer: () => Promise.reject(new Error('read again')) }) } as unknown as Blob;
