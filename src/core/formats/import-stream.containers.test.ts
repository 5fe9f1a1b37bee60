// Containers (JSONL, JSON, CSV/TSV, Parquet, gzip) and what streaming must get right: chunk boundaries, unicode,
// huge lines, batches and progress.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chunkedSource, fixture, fixtureBytes, importAll, textSource } from './fixtures/load-fixture';
import { importStream } from './import-stream';
import type { Trajectory } from '../trajectory';

describe('importStream: containers', () => {
  it('CSV with quoted commas, quoted newlines, doubled quotes, empty cells and a blank line', async () => {
    const { detection, rows, issues } = await importAll(fixture('rollouts.csv'));
    expect(detection).toMatchObject({ container: 'csv', format: 'trl-standard', columns: ['prompt', 'completion', 'ground_truth', 'uid', 'step'] });
    expect(issues).toEqual([]);
    expect(rows.map((r) => [r.line, r.prompt, r.completion, r.groundTruth, r.group, r.step])).toEqual([
      [2, 'Add 1, 2 and 3', 'The sum is 6.\nA: 6', '6', 'g1', 1],
      [4, 'Add 1, 2 and 3', 'A: 7', '6', 'g1', 1],
      [5, 'Say hello', 'She said "hello"', undefined, 'g2', 2],
      [7, 'Multi\nline\nprompt', 'ok', undefined, 'Multi\nline\nprompt', undefined],
    ]);
    // cells stay strings, as in the file
    expect(rows[3].fields).toEqual({ prompt: 'Multi\nline\nprompt', completion: 'ok', ground_truth: '', uid: '', step: 'x' });
  });

  it('CSV gives the same rows whatever the chunk boundaries', async () => {
    const bytes = fixtureBytes('rollouts.csv');
    const expected = (await importAll(fixture('rollouts.csv'))).rows;
    for (const sizes of [[1], [2], [3], [7], [1, 5, 2]]) {
      const { rows } = await importAll(chunkedSource('rollouts.csv', bytes, sizes));
      expect(rows, `chunks ${sizes}`).toEqual(expected);
    }
  });

  it('TSV (by name) with CRLF line endings', async () => {
    const { detection, rows } = await importAll(fixture('rollouts.tsv'));
    expect(detection).toMatchObject({ container: 'csv', format: 'trl-standard', columns: ['prompt', 'completion', 'group'] });
    expect(rows.map((r) => [r.line, r.prompt, r.completion, r.group])).toEqual([
      [2, 'hello', 'world', '1'],
      [3, 'hi', 'there, friend', '1'],
    ]);
  });

  it('CSV rows with the wrong number of fields are issues', async () => {
    const { rows, issues } = await importAll(textSource('short.csv', 'prompt,completion\na,b\nc\nd,e,f\ng,h\n'));
    expect(rows.map((r) => r.line)).toEqual([2, 5]);
    expect(issues).toEqual([
      { line: 3, reason: 'expected 2 fields, found 1' },
      { line: 4, reason: 'expected 2 fields, found 3' },
    ]);
  });

  it('semicolon-separated CSV is recognised from the header', async () => {
    const { rows } = await importAll(textSource('eu.csv', 'prompt;completion\n"a, b";c\n'));
    expect(rows.map((r) => [r.prompt, r.completion])).toEqual([['a, b', 'c']]);
  });

  it('JSON array: row numbers, and a non-object element as an issue', async () => {
    const { detection, rows, issues } = await importAll(fixture('rollouts.json'));
    expect(detection).toMatchObject({ container: 'json', format: 'trl-standard' });
    expect(rows.map((r) => [r.line, r.index, r.group, r.completion])).toEqual([
      [1, 0, '1', 'b'],
      [2, 1, '1', 'c'],
      [4, 2, '2', 'e'],
    ]);
    expect(issues).toEqual([{ line: 3, reason: 'expected a JSON object, got number' }]);
  });

  it('JSONL that starts with blank lines or a broken record is read as a stream of lines, with byte spans', async () => {
    // Before, such a file was read whole as one string (a JSON document, then JSONL without spans): no fast path for
    // a large file, and past ~512 MB no string to hold it.
    const record = (c: string) => JSON.stringify({ prompt: 'p', completion: c });
    for (const [text, lines, issueLines] of [
      [`\n\n${record('a')}\n${record('b')}\n`, [3, 4], []],
      [`{"prompt": "p", "comp\n${record('a')}\n${record('b')}\n`, [2, 3], [1]],
      [`  \r\n{"prompt": 1,\n\n${record('a')}\n`, [4], [2]],
    ] as const) {
      const { detection, rows, issues, events } = await importAll(textSource('t.jsonl', text));
      expect(detection.container).toBe('jsonl');
      expect(events[0]).toMatchObject({ type: 'meta', spans: true });
      expect(rows.map((r) => r.line)).toEqual(lines);
      expect(issues.map((i) => i.line)).toEqual(issueLines);
    }
  });

  it('a pretty-printed single JSON object is one record', async () => {
    const { detection, rows } = await importAll(fixture('pretty.json'));
    expect(detection).toMatchObject({ container: 'json', format: 'openai-messages' });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 1, prompt: 'Hi', completion: 'Hello' });
  });

  it('gzip-compressed JSONL is decompressed as a stream', async () => {
    const gz = gzipSync(fixtureBytes('trl-standard.jsonl'));
    const { detection, rows, events } = await importAll(textSource('trl-standard.jsonl.gz', new Uint8Array(gz)));
    expect(detection).toMatchObject({ container: 'jsonl', format: 'trl-standard', gzip: true });
    expect(rows.map((r) => r.completion)).toEqual(['4', '5', '']);
    const last = events.filter((e) => e.type === 'rows').at(-1);
    expect(last).toMatchObject({ bytesRead: gz.length, totalBytes: gz.length });
  });

  it('gzip-compressed JSONL arriving in tiny chunks', async () => {
    const gz = new Uint8Array(gzipSync(fixtureBytes('unicode.jsonl')));
    const { rows } = await importAll(chunkedSource('u.jsonl.gz', gz, [3]));
    expect(rows.map((r) => r.completion)).toEqual(['はい、わかりました 👍🏽', 'e\u0301 = \u00e9? 🧑\u200d🚀', 'Ω≈ç√∫ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢']);
  });

  it('gzip-compressed Parquet is decompressed in memory, then read', async () => {
    const gz = gzipSync(fixtureBytes('trl-completions.parquet'));
    const { detection, rows } = await importAll(textSource('completions_00010.parquet.gz', new Uint8Array(gz)));
    expect(detection).toMatchObject({ container: 'parquet', format: 'trl-completions', gzip: true });
    expect(rows.map((r) => r.completion)).toEqual(['42', '36', 'c-a-t', 'k-a-t']);
  });

  it('sniffs the bytes, not the name', async () => {
    const { detection } = await importAll(textSource('data.csv', '{"prompt": "p", "completion": "c"}\n'));
    expect(detection.container).toBe('jsonl');
  });

  it('a UTF-8 BOM is skipped', async () => {
    const { rows } = await importAll(textSource('bom.jsonl', '\uFEFF{"prompt": "p", "completion": "c"}\n'));
    expect(rows.map((r) => r.prompt)).toEqual(['p']);
    const csv = await importAll(textSource('bom.csv', '\uFEFFprompt,completion\np,c\n'));
    expect(csv.detection.columns).toEqual(['prompt', 'completion']);
  });
});

describe('importStream: unicode', () => {
  const expected = [
    ['日本語で答えて', 'はい、わかりました 👍🏽', 'ja'],
    ['Caf\u00e9 vs Cafe\u0301', 'e\u0301 = \u00e9? 🧑\u200d🚀', 'fr'],
    ['Ünïcödé ✓', 'Ω≈ç√∫ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢', 'misc'],
  ];

  it('emoji, CJK and combining marks load as written', async () => {
    const { rows } = await importAll(fixture('unicode.jsonl'));
    expect(rows.map((r) => [r.prompt, r.completion, r.group])).toEqual(expected);
  });

  it('multi-byte characters split across stream chunks load correctly', async () => {
    const bytes = fixtureBytes('unicode.jsonl');
    for (const sizes of [[1], [2], [3], [5], [7], [4, 1, 6]]) {
      const { rows } = await importAll(chunkedSource('unicode.jsonl', bytes, sizes));
      expect(
        rows.map((r) => [r.prompt, r.completion, r.group]),
        `chunks ${sizes}`,
      ).toEqual(expected);
    }
  });
});

describe('importStream: streaming', () => {
  it('a huge single line (a 5 MB completion) between small ones', async () => {
    const big = 'y'.repeat(5_000_000);
    const text = `{"prompt": "small", "completion": "s"}\n{"prompt": "big", "completion": "${big}"}\n{"prompt": "after", "completion": "a"}\n`;
    const { rows } = await importAll(textSource('big.jsonl', text));
    expect(rows.map((r) => [r.line, r.prompt, r.completion.length])).toEqual([
      [1, 'small', 1],
      [2, 'big', 5_000_000],
      [3, 'after', 1],
    ]);
    expect(rows[1].completion === big).toBe(true);
  });

  it('rows come in batches of batchSize with a dense index and growing progress', async () => {
    const lines = Array.from({ length: 5 }, (_, i) => JSON.stringify({ prompt: `p${i}`, completion: `c${i}` }));
    const text = lines.join('\n') + '\n';
    const { events, rows } = await importAll(chunkedSource('five.jsonl', text, [20]), { batchSize: 2 });
    const batches = events.filter((e) => e.type === 'rows');
    expect(batches.map((b) => (b.type === 'rows' ? b.rows.length : 0))).toEqual([2, 2, 1]);
    expect(rows.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
    const progress = batches.map((b) => (b.type === 'rows' ? b.bytesRead : 0));
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
    expect(batches.at(-1)).toMatchObject({ bytesRead: text.length, totalBytes: text.length });
    expect(events[0].type).toBe('meta');
    expect(events.at(-1)).toEqual({ type: 'done', rowCount: 5, issueCount: 0, lineCount: 5 });
  });

  it('preference records fill batches exactly, splitting a pair across two batches when needed', async () => {
    const { events } = await importAll(fixture('rewardbench-v1.jsonl'), { batchSize: 3 });
    const sizes = events.flatMap((e) => (e.type === 'rows' ? [e.rows.map((r) => r.id)] : []));
    expect(sizes).toEqual([['1:chosen', '1:rejected', '2:chosen'], ['2:rejected']]);
  });

  it('more than 50 records: detection uses the first 50, every record still loads', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => JSON.stringify({ prompt: `p${i % 30}`, completion: `c${i}` }));
    const { rows } = await importAll(chunkedSource('many.jsonl', lines.join('\n'), [64]), { batchSize: 50 });
    expect(rows).toHaveLength(120);
    expect(rows[119]).toMatchObject({ index: 119, line: 120, group: 'p29', completion: 'c119' });
  });
});

describe('batches of a large record batch', () => {
  // A Parquet row group arrives as one record batch (a million rows as pyarrow writes them): its rows go out in
  // batches of `batchSize`, in order, with issues in line order; JSONL read in one large chunk keeps each row's span.
  it('a row group of 1,000 rows in batches of 64: every row once, in order, issues with the batch they fall in', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const n = 1000;
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'prompt', data: Array.from({ length: n }, (_, i) => `p${i >> 2}`), type: 'STRING' },
        { name: 'completion', data: Array.from({ length: n }, (_, i) => (i % 100 === 7 ? null : `c${i}`)), type: 'STRING' },
      ],
      rowGroupSize: n,
    });
    const sizes: number[] = [];
    const rows: Trajectory[] = [];
    const issues: number[] = [];
    for await (const e of importStream(textSource('one-group.parquet', new Uint8Array(buf)), { batchSize: 64 })) {
      if (e.type !== 'rows') continue;
      sizes.push(e.rows.length);
      rows.push(...e.rows);
      issues.push(...e.issues.map((i) => i.line));
    }
    // 990 rows (rows 8, 108, …, 908 have no completion): 15 batches of 64 and one of 30.
    expect(sizes).toEqual([...Array.from({ length: 15 }, () => 64), 30]);
    expect(rows.map((t) => t.index)).toEqual(Array.from({ length: 990 }, (_, i) => i));
    expect(rows.map((t) => t.completion)).toEqual(
      Array.from({ length: n }, (_, i) => i)
        .filter((i) => i % 100 !== 7)
        .map((i) => `c${i}`),
    );
    expect(issues).toEqual(Array.from({ length: 10 }, (_, k) => 100 * k + 8));
  });

  it('JSONL read in one chunk, in batches of 7: each row keeps its own line span', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => JSON.stringify({ prompt: `p${i}`, completion: 'x'.repeat(i) }));
    const text = lines.join('\n') + '\n';
    const got: { line: number; span: [number, number] }[] = [];
    for await (const e of importStream(textSource('spans.jsonl', text), { batchSize: 7 })) {
      if (e.type !== 'rows' || !e.spans) continue;
      expect(e.spans.length).toBe(2 * e.rows.length);
      e.rows.forEach((t, k) => got.push({ line: t.line, span: [e.spans![2 * k], e.spans![2 * k + 1]] }));
    }
    let at = 0;
    const want = lines.map((l, i) => {
      const span: [number, number] = [at, at + l.length];
      at += l.length + 1;
      return { line: i + 1, span };
    });
    expect(got).toEqual(want);
  });
});

describe('parquet INT64', () => {
  it('values that fit a number become numbers; larger ones their exact decimal strings, also inside lists', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const big = 9007199254740993n; // 2^53 + 1: a JS number would round it to 2^53
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'prompt', data: ['p', 'p'], type: 'STRING' },
        { name: 'completion', data: ['a', 'b'], type: 'STRING' },
        { name: 'sample_id', data: [big, -big], type: 'INT64' },
        { name: 'step', data: [3n, 4n], type: 'INT64' },
      ],
    });
    const { rows } = await importAll(textSource('ids.parquet', new Uint8Array(buf)));
    expect(rows.map((r) => [r.fields.sample_id, r.fields.step])).toEqual([
      ['9007199254740993', 3],
      ['-9007199254740993', 4],
    ]);
    // Nothing of a row is a bigint any more: it can be shown, saved and shared as JSON.
    expect(() => JSON.stringify(rows.map((r) => r.fields))).not.toThrow();
  });

  it('a VARIANT column holds 64-bit integers too, in a file with no INT64 column: converted the same way', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'prompt', data: ['p', 'p'], type: 'STRING' },
        { name: 'completion', data: ['a', 'b'], type: 'STRING' },
        {
          name: 'meta',
          data: [
            { id: 9007199254740993n, n: [2n] },
            { id: -9007199254740993n, n: [] },
          ],
          type: 'VARIANT',
        },
      ],
    } as never);
    const { rows } = await importAll(textSource('variant.parquet', new Uint8Array(buf)));
    expect(rows.map((r) => r.fields.meta)).toEqual([
      { id: '9007199254740993', n: [2] },
      { id: '-9007199254740993', n: [] },
    ]);
    expect(() => JSON.stringify(rows.map((r) => r.fields))).not.toThrow();
  });
});
