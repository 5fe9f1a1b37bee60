import { describe, expect, it } from 'vitest';
import type { ByteSource } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { importPacked, runPieceHere } from './importPacked';
import { loadAll } from './loadAll';
import { categories } from './categories';
import { fieldColumn } from '../table/columns';
import { RowStoreBuilder, rowsInMemory, rowsOfParts } from './rowStore';
import { storeRows } from './fixtures/indexed';

const source = (text: string | Uint8Array, name = 'data.jsonl'): ByteSource => ({ name, blob: new Blob([text as BlobPart]) });

/** Import as the data worker does (in pieces when `pieces` > 1) and build its RowStore. */
async function storeOf(src: ByteSource, pieces = 1) {
  const kept = new RowStoreBuilder();
  let format = null as never;
  const par = pieces > 1 ? { pieces, minPieceBytes: 1, run: runPieceHere } : undefined;
  for await (const e of importPacked(src, {}, par)) {
    if (e.kind === 'meta') format = e.detection.format as never;
    else if (e.kind === 'batch') kept.add(e.batch.line.slice(), e.spans, e.rows);
  }
  return kept.finish(src, { format }).store;
}

const lines = (rows: unknown[], eol = '\n') => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join(eol) + eol;

describe('RowStore', () => {
  it('reads any row of a JSONL import back from its line, equal to what a whole import gives', async () => {
    const rows: unknown[] = [];
    for (let i = 0; i < 400; i++) {
      if (i % 50 === 7) rows.push('not json', '');
      rows.push({
        prompt: `Q${i % 40} ${'ça'.repeat(i % 3)}`,
        completion: `${'日本語 '.repeat(i % 4)}A: ${i}`,
        uid: `g${i % 40}`,
        step: i % 5,
        extra: { nested: [i, 'x'] },
      });
    }
    for (const eol of ['\n', '\r\n']) {
      const src = source(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(lines(rows, eol))]));
      const whole = (await loadAll(src)).rows;
      for (const pieces of [1, 3]) {
        const store = await storeOf(src, pieces);
        expect(store.size).toBe(400);
        const picks = [0, 1, 57, 199, 200, 398, 399];
        expect(await store.get(picks)).toEqual(picks.map((i) => whole[i]));
        expect(await store.get([400, -1])).toEqual([]);
        // Every row in order from the file, none kept.
        const seen: Trajectory[] = [];
        expect(await store.each((t, i) => (seen[i] = t))).toBe(true);
        expect(seen).toEqual(whole);
      }
    }
  });

  it('reads back the several rows of one preference record', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ id: `p${i}`, prompt: `q${i}`, chosen: ['a', 'b', 'c'].slice(0, 1 + (i % 3)), rejected: [`r${i}`] }));
    const src = source(lines(rows));
    const whole = (await loadAll(src)).rows;
    const store = await storeOf(src, 2);
    expect(store.size).toBe(whole.length);
    const picks = whole.map((_, i) => i).filter((i) => i % 7 === 3 || i === whole.length - 1);
    const got = await store.get(picks);
    expect(got).toEqual(picks.map((i) => whole[i]));
    expect(got.map((t) => t.id)).toEqual(picks.map((i) => whole[i].id)); // e.g. "1:chosen:0", "2:rejected:0"
    const seen: Trajectory[] = [];
    await store.each((t) => seen.push(t));
    expect(seen).toEqual(whole);
  });

  it('visits every row of a dataset of several files with its dataset index and step, and stops when aborted', async () => {
    const a = await storeOf(
      source(
        lines([
          { prompt: 'p', completion: 'a0' },
          { prompt: 'p', completion: 'a1' },
        ]),
      ),
    );
    const b = await storeOf(source('prompt,completion\nq,b0\n', 'b.csv'));
    const parts = rowsOfParts([
      { store: a, first: 0, name: 'a.jsonl', step: 3 },
      { store: b, first: 2, name: 'b.csv', step: 4 },
    ]);
    const seen: [number, string, number | undefined, number][] = [];
    expect(await parts.each((t, i) => seen.push([i, t.completion, t.step, t.index]))).toBe(true);
    expect(seen).toEqual([
      [0, 'a0', 3, 0],
      [1, 'a1', 3, 1],
      [2, 'b0', 4, 2],
    ]);
    const abort = new AbortController();
    abort.abort();
    expect(await a.each(() => undefined, abort.signal)).toBe(false);
  });

  it('keeps the rows of imports without line spans (gzip, CSV, JSON)', async () => {
    const src = source('prompt,completion\nhello,world\nhi,there\n', 'data.csv');
    const store = await storeOf(src);
    const whole = (await loadAll(src)).rows;
    expect(await store.get([1])).toEqual([whole[1]]);
    expect(await storeRows(store)).toEqual(whole);
  });

  it('says so when the file changed since the import', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ prompt: 'p', completion: `c${i}` }));
    const store = await storeOf(source(lines(rows)));
    const changed = { name: 'data.jsonl', blob: new Blob([lines(rows.slice(0, 4))]) };
    const other = await (async () => {
      const kept = new RowStoreBuilder();
      for await (const e of importPacked(source(lines(rows)), {})) if (e.kind === 'batch') kept.add(e.batch.line.slice(), e.spans, e.rows);
      return kept.finish(changed, { format: 'trl-standard' }).store;
    })();
    await expect(storeRows(other)).rejects.toThrow(/^data\.jsonl could not be read again \(it is shorter than it was\)\./);
    await expect(other.search('c1')).rejects.toThrow(/could not be read again/);
    // Its line is past the end of the shorter file: nothing to parse there.
    await expect(other.get([8])).rejects.toThrow(
      /^data\.jsonl could not be read again \(.+\)\. It may have changed or moved since it was imported: import it again\.$/,
    );
    expect((await store.get([9]))[0].completion).toBe('c9');
  });

  it('gives a column’s categories from the file’s bytes, or from every row where the scan cannot tell: the same', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ prompt: 'p', completion: `c${i}`, model: `m${i % 3}`, tags: i === 5 ? ['x'] : 'plain' }));
    const src = source(lines(rows));
    const store = await storeOf(src);
    const whole = (await loadAll(src)).rows;
    expect(await store.categories('model')).toEqual(categories(whole, 'model'));
    // A list among the values: the scan cannot tell, the rows answer (the list written as JSON).
    expect((await store.categories('tags')).values).toEqual(['plain', '["x"]']);
    expect(await store.categories('model')).toEqual(categories(whole, 'model'));
    // A chat file: the import's scan does not read it, the field's values are read where the scanner finds them.
    const chat = Array.from({ length: 6 }, (_, i) => ({
      messages: [
        { role: 'user', content: `q${i}` },
        { role: 'assistant', content: 'a' },
      ],
      model: `m${i % 2}`,
      n: i,
    }));
    const chatSrc = source(lines(chat));
    const chatStore = await storeOf(chatSrc);
    const chatRows = (await loadAll(chatSrc)).rows;
    expect(await chatStore.categories('model')).toEqual(categories(chatRows, 'model'));
    expect(await chatStore.field('n')).toEqual(fieldColumn(chatRows, 'n'));
    const csv = await storeOf(source('prompt,completion,model\nhello,world,a\nhi,there,b\n', 'data.csv'));
    expect((await csv.categories('model')).values).toEqual(['a', 'b']);
  });

  it('gives a field as a table column from the file’s bytes, or from every row of several files: the same', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ prompt: 'p', completion: `c${i}`, score: i / 4, tag: i % 5 === 0 ? null : `t${i}` }));
    const src = source(lines(rows));
    const store = await storeOf(src);
    const whole = (await loadAll(src)).rows;
    for (const name of ['score', 'tag', 'completion', 'absent']) expect(await store.field(name), name).toEqual(fieldColumn(whole, name));
    expect(await store.field('score')).toEqual(fieldColumn(whole, 'score'));
    const parts = rowsOfParts([
      { store, first: 0, name: 'a.jsonl', step: 1 },
      { store: await storeOf(source(lines([{ prompt: 'p', completion: 'c', score: 'high' }]))), first: 12, name: 'b.jsonl', step: 2 },
    ]);
    // A text value in the second file makes the whole column text.
    expect((await parts.field('score')).kind).toBe('text');
  });

  it('answers a field of numbers that came along with an earlier field without reading the file again', async () => {
    class Counted extends Blob {
      reads = 0;
      override stream() {
        this.reads++;
        return super.stream();
      }
    }
    const rows = Array.from({ length: 6 }, (_, i) => ({ prompt: 'p', completion: `c${i}`, score: i, ok: i % 2 === 0, tag: `t${i}` }));
    const blob = new Counted([lines(rows)]);
    const store = await storeOf({ name: 'data.jsonl', blob });
    const whole = (await loadAll(source(lines(rows)))).rows;
    const before = blob.reads;
    expect(await store.field('tag')).toEqual(fieldColumn(whole, 'tag'));
    expect(blob.reads).toBe(before + 1);
    expect(await store.field('score')).toEqual(fieldColumn(whole, 'score'));
    expect(await store.field('ok')).toEqual(fieldColumn(whole, 'ok'));
    expect(blob.reads).toBe(before + 1);
    // A copy each time: the worker transfers what it is given.
    const [a, b] = [await store.field('score'), await store.field('score')];
    expect(a.kind === 'number' && b.kind === 'number' && a.values.buffer !== b.values.buffer).toBe(true);
  });

  it('numbers the values of a dataset of several files again over the whole dataset, in first-seen order', async () => {
    const one = await storeOf(
      source(
        lines([
          { prompt: 'p', completion: 'c', model: 'b' },
          { prompt: 'p', completion: 'c' },
        ]),
      ),
    );
    const two = await storeOf(
      source(
        lines([
          { prompt: 'p', completion: 'c', model: 'a' },
          { prompt: 'p', completion: 'c', model: 'b' },
        ]),
      ),
    );
    const store = rowsOfParts([
      { store: one, first: 0, name: 'step-1.jsonl', step: 1 },
      { store: two, first: 2, name: 'step-2.jsonl', step: 2 },
    ]);
    // Worked by hand: b is met first (row 0), then a (row 2).
    expect(await store.categories('model')).toEqual({ codes: Int32Array.from([0, -1, 1, 0]), values: ['b', 'a'], present: 3 });
  });

  it('rowsInMemory answers from the array', async () => {
    const rows = (await loadAll(source(lines([{ prompt: 'a', completion: 'b' }])))).rows;
    const store = rowsInMemory(rows);
    expect(store.size).toBe(1);
    expect(await store.get([0, 3])).toEqual([rows[0]]);
  });
});
