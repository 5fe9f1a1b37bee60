// scanCategories (the scanner over the file's bytes) against categories() over the rows JSON.parse and the normalizer
// give (importStream): every column of every input must come out the same, or null where the scan cannot tell.
import { describe, expect, it } from 'vitest';
import type { FormatId } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { categories } from './categories';
import { scanCategories, scanField } from './columnScan';
import { fieldColumn } from '../table/columns';
import { indexed, rowsOf } from './fixtures/indexed';

/** The scan's categories of `column` (null when it cannot tell). */
async function scanned(blob: Blob, format: FormatId, column: string, rows: number) {
  const m = await scanCategories(blob, 't.jsonl', format, column, rows);
  return m?.get(column) ?? null;
}

const blobOf = (lines: string[]) => new Blob([lines.join('\n') + '\n']);

/** Every column of the rows, scanned and read from the rows: the same. */
async function expectSame(lines: string[], format: FormatId = 'trl-standard'): Promise<Trajectory[]> {
  const blob = blobOf(lines);
  const rows = await rowsOf(blob, format);
  const columns = new Set(rows.flatMap((t) => Object.keys(t.fields)));
  columns.add('absent');
  for (const column of columns) {
    const got = await scanned(blob, format, column, rows.length);
    // Null only for a column holding a list or an object somewhere.
    const nested = rows.some((t) => Object.hasOwn(t.fields, column) && typeof t.fields[column] === 'object' && t.fields[column] !== null);
    if (nested) expect(got, column).toBeNull();
    else expect(got, column).toEqual(categories(rows, column));
  }
  return rows;
}

const row = (extra: Record<string, unknown>) => JSON.stringify({ prompt: 'p', completion: 'c', ...extra });

describe('scanCategories gives what categories() gives from the rows', () => {
  it('strings, numbers, booleans, nulls and missing values, numbered in first-seen order (worked by hand)', async () => {
    const lines = [
      row({ model: 'a', step: 2, ok: true }),
      row({ model: 'b', step: 2.5, ok: false }),
      row({ model: null, step: 2 }),
      row({ model: 'a', ok: true }),
    ];
    await expectSame(lines);
    const blob = blobOf(lines);
    expect(await scanned(blob, 'trl-standard', 'model', 4)).toEqual({
      codes: Int32Array.from([0, 1, -1, 0]),
      values: ['a', 'b'],
      present: 3,
    });
    expect(await scanned(blob, 'trl-standard', 'step', 4)).toEqual({
      codes: Int32Array.from([0, 1, 0, -1]),
      values: ['2', '2.5'],
      present: 3,
    });
    expect(await scanned(blob, 'trl-standard', 'ok', 4)).toEqual({
      codes: Int32Array.from([0, 1, -1, 0]),
      values: ['true', 'false'],
      present: 3,
    });
    expect(await scanned(blob, 'trl-standard', 'absent', 4)).toEqual({ codes: Int32Array.from([-1, -1, -1, -1]), values: [], present: 0 });
  });

  it('escapes, non-ASCII text, long text cut at 200 characters, numbers as JSON writes them, repeated keys', async () => {
    await expectSame([
      row({ source: 'a"b\\u00e9' }),
      row({ source: 'a"b\u00e9' }),
      row({ source: 'é'.repeat(300) }),
      row({ source: 'x'.repeat(300) }),
      row({ source: 'x'.repeat(300) + 'y' }),
      row({ n: 1e21, m: -0, k: 1.5e-7 }),
      '{"prompt": "p", "completion": "c", "source": "first", "source": "last"}',
      '{"prompt": "p", "completion": "c", "n": 1e999}',
      '{"prompt": "p", "completion": "c", "n": 12345678901234567890}',
      row({ source: '' }),
    ]);
  });

  it('more than a thousand values (the import gives such a column up; one column asked for keeps them all)', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => row({ uid: `q${i}` }));
    const blob = blobOf(lines);
    const got = await scanned(blob, 'trl-standard', 'uid', 1500);
    expect(got?.values.length).toBe(1500);
    expect(got?.values[1499]).toBe('q1499');
    await expectSame(lines.slice(0, 50));
  });

  it('brings the other columns of at most a thousand values along; one of more is left out', async () => {
    const lines = Array.from({ length: 1200 }, (_, i) => row({ uid: `q${i}`, split: i % 2 ? 'train' : 'test', n: i % 1000 }));
    const rows = await rowsOf(blobOf(lines), 'trl-standard');
    const all = await scanCategories(blobOf(lines), 't.jsonl', 'trl-standard', 'split', 1200);
    expect([...all!.keys()].sort()).toEqual(['completion', 'n', 'prompt', 'split']); // uid has 1,200 values
    expect(all!.get('n')).toEqual(categories(rows, 'n'));
    expect(all!.get('split')?.values).toEqual(['test', 'train']);
  });

  it('bad lines are not rows; lines the scanner hands to JSON.parse (a list completion) count', async () => {
    await expectSame([
      row({ model: 'a' }),
      '{"prompt": "cut off", "model": ',
      'not json',
      '',
      JSON.stringify({ prompt: 'p', completion: [{ role: 'assistant', content: 'c' }], model: 'b' }),
      row({ model: 'b' }),
    ]);
  });

  it('a byte-order mark and CRLF line ends', async () => {
    const blob = new Blob(['\ufeff' + [row({ model: 'a' }), row({ model: 'b' })].join('\r\n') + '\r\n']);
    expect(await scanned(blob, 'trl-standard', 'model', 2)).toEqual({ codes: Int32Array.from([0, 1]), values: ['a', 'b'], present: 2 });
  });

  it('verl dumps', async () => {
    await expectSame(
      [JSON.stringify({ input: 'i', output: 'o', data_source: 'gsm8k', score: 1 }), JSON.stringify({ input: 'i', output: 'o', data_source: 'math', score: 0 })],
      'verl-dump',
    );
  });

  it('null where the rows hold a list or an object (categories() writes them as JSON), and for formats read otherwise', async () => {
    const blob = blobOf([row({ tags: ['a'] }), row({ meta: { a: 1 } })]);
    expect(await scanned(blob, 'trl-standard', 'tags', 2)).toBeNull();
    expect(await scanned(blob, 'trl-standard', 'meta', 2)).toBeNull();
    expect(await scanned(blob, 'openai-messages', 'model', 2)).toBeNull();
  });

  it('throws when the file no longer gives the rows it was imported with', async () => {
    await expect(scanCategories(blobOf([row({ model: 'a' })]), 't.jsonl', 'trl-standard', 'model', 2)).rejects.toThrow(
      /gives 1 rows now, 2 when it was imported/,
    );
  });
});

/** Every field of the rows, scanned and read from the rows: the same column. */
async function expectSameFields(text: string | Uint8Array, format: FormatId = 'trl-standard'): Promise<void> {
  const blob = new Blob([text as BlobPart]);
  const { index, rows } = await indexed(blob, format);
  const names = new Set(rows.flatMap((t) => Object.keys(t.fields)));
  names.add('absent');
  for (const name of names) {
    const want = fieldColumn(rows, name);
    const got = await scanField(blob, 't.jsonl', index, name);
    expect(got?.column, name).toEqual(want);
    // The fields of numbers that came along are what fieldColumn makes of them.
    for (const [other, values] of got!.numbers) expect({ kind: 'number', values }, `${other}, with ${name}`).toEqual(fieldColumn(rows, other));
    if (want.kind === 'number' && name !== 'absent' && got!.numbers.size < 8) expect(got!.numbers.has(name), name).toBe(true);
  }
}

describe('scanField gives what fieldColumn gives from the rows', () => {
  it('numbers, booleans, text, nulls, missing values, nested values, long text (worked by hand for two columns)', async () => {
    const lines = [
      row({ score: 0.5, ok: true, tag: 'b', meta: { k: [1, 'x'] }, long: 'y'.repeat(1500) }),
      row({ score: 2, ok: false, tag: 'a', meta: null }),
      row({ tag: 7, long: 'z' }),
      row({ score: null, ok: true, tag: 'item 10' }),
      row({ score: -3, tag: 'item 9' }),
    ];
    await expectSameFields(lines.join('\n') + '\n');
    const blob = blobOf(lines);
    const { index } = await indexed(blob, 'trl-standard');
    const score = await scanField(blob, 't.jsonl', index, 'score');
    expect(score?.column).toEqual({ kind: 'number', values: Float64Array.from([0.5, 2, NaN, NaN, -3]) });
    // ok came along as 1 / 0 (true / false); tag (a number among text), meta and long did not.
    expect([...score!.numbers.keys()]).toEqual(['score', 'ok']);
    expect(score!.numbers.get('ok')).toEqual(Float64Array.from([1, 0, NaN, 1, NaN]));
    // Text ranks by collation, digits as numbers: "7" < "a" < "b" < "item 9" < "item 10"; the number 7 as text.
    const tag = (await scanField(blob, 't.jsonl', index, 'tag'))?.column;
    expect(tag).toEqual({ kind: 'text', values: ['b', 'a', '7', 'item 10', 'item 9'], ranks: Float64Array.from([2, 1, 0, 4, 3]) });
  });

  it('escapes, non-ASCII text, numbers JSON.parse reads inexactly, repeated keys, and lines handed to JSON.parse', async () => {
    await expectSameFields(
      [
        row({ t: 'a"b\\u00e9', n: 1e21 }),
        row({ t: 'é日本😀', n: 1.5e-7 }),
        '{"prompt": "p", "completion": "c", "t": "first", "t": "last", "n": 12345678901234567890}',
        '{"prompt": "p", "completion": "c", "n": 1e999}',
        '{"prompt": "p", "completion": "c", "n": -0}',
        JSON.stringify({ prompt: 'p', completion: [{ role: 'assistant', content: 'c' }], t: 'list completion' }),
        '{"pro\\u006dpt": "p", "completion": "c", "t": "escaped key"}',
      ].join('\n') + '\n',
    );
  });

  it('blank and broken lines are not rows; a byte-order mark and CRLF line ends; verl dumps', async () => {
    // Broken lines past the head the format is detected from (a broken head is imported another way, and kept).
    const good = Array.from({ length: 60 }, (_, i) => row({ n: i }));
    await expectSameFields([...good, '', row({ n: 1 }), '{"prompt": "cut', 'not json', '   ', row({ n: 2 })].join('\n') + '\n');
    await expectSameFields('\ufeff' + [row({ n: 1, t: 'a' }), row({ n: 2, t: 'b' })].join('\r\n') + '\r\n');
    await expectSameFields(JSON.stringify({ input: 'i', output: 'o', data_source: 'gsm8k', score: 1 }) + '\n', 'verl-dump');
  });

  it('chat and preference files (a record of several rows: each has its values)', async () => {
    const chat = (i: number) =>
      JSON.stringify({
        messages: [
          { role: 'user', content: `q${i}` },
          { role: 'assistant', content: 'a' },
        ],
        model: `m${i % 2}`,
        n: i,
      });
    await expectSameFields(Array.from({ length: 8 }, (_, i) => chat(i)).join('\n') + '\n', 'openai-messages');
    const pair = (i: number) => JSON.stringify({ prompt: `q${i}`, chosen: 'a', rejected: 'b', subset: i < 2 ? 'math' : 'chat', margin: i / 2 });
    await expectSameFields([pair(0), '', pair(1), 'broken', pair(2)].join('\n') + '\n', 'preference');
    const blob = blobOf([pair(0), pair(1)]);
    const { index } = await indexed(blob, 'preference');
    expect((await scanField(blob, 't.jsonl', index, 'margin')).column).toEqual({ kind: 'number', values: Float64Array.from([0, 0, 0.5, 0.5]) });
  });

  it('throws when the file no longer has the rows where they were imported', async () => {
    const blob = blobOf([row({ n: 1 }), row({ n: 2 })]);
    const { index } = await indexed(blob, 'trl-standard');
    await expect(scanField(blobOf([row({ n: 1 })]), 't.jsonl', index, 'n')).rejects.toThrow(/gives 1 of its 2 rows/);
  });
});
