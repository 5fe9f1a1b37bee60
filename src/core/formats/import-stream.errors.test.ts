import { gzipSync } from 'node:zlib';
// What goes wrong: malformed lines, files that cannot be imported, unknown columns, cancellation.
import { describe, expect, it } from 'vitest';
import { chunkedSource, fixture, importAll, importFailure, textSource } from './fixtures/load-fixture';
import { importStream } from './import-stream';
import { ImportError } from './types';

describe('importStream: malformed lines', () => {
  it('reports each bad line by number and loads every good one', async () => {
    const { detection, rows, issues, done } = await importAll(fixture('malformed.jsonl'));
    expect(rows.map((r) => [r.line, r.index, r.prompt, r.completion])).toEqual([
      [1, 0, 'p1', 'c1'],
      [5, 1, 'p3', 'c3'],
      [8, 2, 'p5', 'c5'],
      [10, 3, 'p6', 'c6'],
    ]);
    expect(issues.map((i) => i.line)).toEqual([2, 4, 6, 7, 9]);
    expect(issues[0].reason).toMatch(/JSON/); // JSON.parse's own words for the truncated object
    expect(issues[1]).toEqual({ line: 4, reason: 'expected a JSON object, got array' });
    expect(issues[2].reason).toMatch(/Unexpected token|not valid JSON/);
    expect(issues[3]).toEqual({ line: 7, reason: 'completion: missing' });
    expect(issues[4]).toEqual({ line: 9, reason: 'expected a JSON object, got string' });
    expect(done).toEqual({ type: 'done', rowCount: 4, issueCount: 5, lineCount: 10 }); // 9 newlines and a last line without one
    expect(detection.reason).toBe('has prompt/completion (4 of 5 sampled records)');
  });

  it('same result whatever the chunk boundaries', async () => {
    const whole = await importAll(fixture('malformed.jsonl'));
    const { readFileSync } = await import('node:fs');
    const bytes = new Uint8Array(readFileSync(new URL('./fixtures/malformed.jsonl', import.meta.url)));
    for (const sizes of [[1], [4], [9, 2]]) {
      const chunked = await importAll(chunkedSource('malformed.jsonl', bytes, sizes));
      expect(chunked.rows).toEqual(whole.rows);
      expect(chunked.issues).toEqual(whole.issues);
    }
  });

  it('a pretty-printed object that is not valid JSON falls back to line-by-line issues', async () => {
    const err = await importFailure(textSource('broken.json', '{\n  "prompt": "p",\n}\n'));
    expect(err.code).toBe('no-rows');
    expect(err.detail?.issues?.map((i) => i.line)).toEqual([1, 2, 3]);
  });
});

describe('importStream: files that cannot be imported', () => {
  it('an empty file', async () => {
    const err = await importFailure(textSource('empty.jsonl', ''));
    expect(err).toBeInstanceOf(ImportError);
    expect(err.code).toBe('empty');
    expect(err.message).toBe('The file empty.jsonl is empty.');
  });

  it('a whitespace-only file, also one longer than the sniff window', async () => {
    expect((await importFailure(textSource('blank.jsonl', '  \n\t\r\n  '))).code).toBe('empty');
    expect((await importFailure(textSource('blank.csv', ' '.repeat(100_000) + '\n'))).code).toBe('empty');
    expect((await importFailure(textSource('bom.jsonl', '\uFEFF\n'))).code).toBe('empty');
  });

  it('a binary file', async () => {
    let seed = 3;
    const bytes = new Uint8Array(4096).map(() => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff);
    bytes[10] = 0; // make sure a NUL is there
    bytes[0] = 0x41; // not a gzip or Parquet magic number
    const err = await importFailure(textSource('weights.bin', bytes));
    expect(err.code).toBe('binary');
    expect(err.message).toBe('weights.bin looks like a binary file, not JSONL/JSON/CSV/Parquet.');
  });

  it('a ZIP archive, with a hint', async () => {
    const err = await importFailure(textSource('rollouts.zip', new Uint8Array([0x50, 0x4b, 3, 4, 20, 0, 0, 0])));
    expect(err.code).toBe('binary');
    expect(err.message).toBe('rollouts.zip looks like a binary file, not JSONL/JSON/CSV/Parquet. It is a ZIP archive: unzip it first.');
  });

  it('a corrupt gzip file', async () => {
    const err = await importFailure(textSource('bad.jsonl.gz', new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9])));
    expect(err.code).toBe('unreadable');
    expect(err.message).toMatch(/^bad\.jsonl\.gz looks gzip-compressed but could not be decompressed/);
  });

  it('a gzip bomb stops once it decompresses past 64 MiB at more than 100 times its size (issue 20)', async () => {
    // 2.4 M identical rows: 100 MB of JSONL that gzip shrinks ~1000-fold.
    const bomb = gzipSync(Buffer.from('{"prompt": "p", "completion": "c"}\n'.repeat(2_400_000)));
    const err = await importFailure(textSource('rows.jsonl.gz', new Uint8Array(bomb)));
    expect(err.code).toBe('unreadable');
    expect(err.message).toBe(
      'rows.jsonl.gz decompresses to more than 100 times its size, which is what a decompression bomb does: it was not loaded. Decompress it yourself if you expect that.',
    );
  });

  it('a truncated .gz loads the rows before the cut, with an issue saying the file ends early (issue 20)', async () => {
    const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ prompt: `q${i}`, completion: `a${i} `.repeat(20) })).join('\n') + '\n';
    const gz = gzipSync(Buffer.from(text));
    const cut = new Uint8Array(gz.subarray(0, Math.floor(gz.length * 0.6)));
    const { rows, issues } = await importAll(textSource('rows.jsonl.gz', cut));
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.length).toBeLessThan(2000);
    // The rows that did load are the file's first rows, in order.
    expect(rows.map((r) => r.prompt)).toEqual(Array.from({ length: rows.length }, (_, i) => `q${i}`));
    const last = issues.at(-1)!;
    expect(last.reason).toMatch(/^the gzip stream ends early, so the file is cut short \(.+\): the rows before this point were loaded$/);
    expect(last.line).toBeGreaterThan(rows.length);
  });

  it('a JSON array that is not valid JSON', async () => {
    const err = await importFailure(textSource('bad.json', '[{"prompt": "a"},'));
    expect(err.code).toBe('unreadable');
    expect(err.message).toMatch(/^bad\.json starts with "\[" but is not valid JSON/);
  });

  it('a file that is not Parquet after its magic number', async () => {
    const err = await importFailure(textSource('x.parquet', new TextEncoder().encode('PAR1 and then nothing useful')));
    expect(err.code).toBe('unreadable');
    expect(err.message).toMatch(/^x\.parquet is not a readable Parquet file/);
  });

  it('a Parquet file whose Snappy page is corrupt: refused with the reason', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const { parquetMetadata } = await import('hyparquet');
    let x = 1;
    const text = () => Array.from({ length: 200 }, () => String.fromCharCode(97 + ((x = (x * 1103515245 + 12345) & 0x7fffffff) % 26))).join('');
    const buf = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'prompt', data: Array.from({ length: 50 }, () => 'p'), type: 'STRING' },
          { name: 'completion', data: Array.from({ length: 50 }, text), type: 'STRING' },
        ],
      }),
    );
    // The completion column's Snappy page past its page header overwritten: 0xff tags are copies from 4-byte offsets
    // far outside what was decoded.
    const chunk = parquetMetadata(buf.buffer as ArrayBuffer).row_groups[0].columns[1].meta_data!;
    const start = Number(chunk.data_page_offset);
    buf.fill(0xff, start + 40, start + Number(chunk.total_compressed_size) - 8);
    const err = await importFailure(textSource('bad.parquet', buf));
    expect(err.code).toBe('unreadable');
    expect(err.message).toBe('bad.parquet could not be read as Parquet (missing eof marker).');
  });

  it('no usable rows: every record fails normalization', async () => {
    const err = await importFailure(fixture('no-usable-rows.jsonl'));
    expect(err.code).toBe('no-rows');
    expect(err.message).toBe(
      'No usable rows in no-usable-rows.jsonl: 2 lines failed (first: line 1: prompt: expected string or a list of messages, got number).',
    );
    expect(err.detail?.issues).toEqual([
      { line: 1, reason: 'prompt: expected string or a list of messages, got number' },
      { line: 2, reason: 'completion: expected string or a list of messages, got number' },
    ]);
  });

  it('no usable rows: no line is JSON', async () => {
    const err = await importFailure(textSource('junk.jsonl', '{oops\n{still not\n'));
    expect(err.code).toBe('no-rows');
    expect(err.message).toMatch(/^No usable rows in junk\.jsonl: 2 lines failed \(first: line 1: /);
    expect(err.detail?.issues?.map((i) => i.line)).toEqual([1, 2]);
  });

  it('no usable rows: a JSON array of nothing, a CSV with only a header', async () => {
    expect((await importFailure(textSource('none.json', '[]'))).message).toBe('No usable rows in none.json: it holds no records.');
    expect((await importFailure(textSource('header.csv', 'prompt,completion\n'))).code).toBe('no-rows');
  });

  it('the error carries at most 20 issues', async () => {
    const err = await importFailure(textSource('many-bad.jsonl', '[1]\n'.repeat(30)));
    expect(err.message).toBe('No usable rows in many-bad.jsonl: 30 lines failed (first: line 1: expected a JSON object, got array).');
    expect(err.detail?.issues).toHaveLength(20);
  });
});

describe('importStream: columns that need a mapping', () => {
  it('unknown columns: needs-mapping, with the columns, a sample and the container', async () => {
    const err = await importFailure(fixture('custom-columns.jsonl'));
    expect(err.code).toBe('needs-mapping');
    expect(err.message).toBe(
      'Could not recognise the columns of custom-columns.jsonl (question, response, qid, gold, iteration). Choose which columns hold the prompt and the completion.',
    );
    expect(err.detail?.columns).toEqual(['question', 'response', 'qid', 'gold', 'iteration']);
    expect(err.detail?.container).toBe('jsonl');
    expect(err.detail?.sample).toHaveLength(3);
    expect(err.detail?.sample?.[0]).toEqual({ question: '2+2?', response: '4', qid: 10, gold: 4, iteration: '7' });
  });

  it('the sample holds at most 5 records', async () => {
    const text = Array.from({ length: 8 }, (_, i) => JSON.stringify({ q: i })).join('\n');
    const err = await importFailure(textSource('q.jsonl', text));
    expect(err.detail?.sample?.map((r) => r.q)).toEqual([0, 1, 2, 3, 4]);
  });

  it('with a mapping: prompt, completion (text or messages), group, ground truth and step columns', async () => {
    const { detection, rows, issues } = await importAll(fixture('custom-columns.jsonl'), {
      format: 'mapped',
      mapping: { prompt: 'question', completion: 'response', group: 'qid', groundTruth: 'gold', step: 'iteration' },
    });
    expect(detection).toMatchObject({ format: 'mapped', detected: 'mapped', reason: 'no known column set' });
    expect(issues).toEqual([]);
    expect(rows.map((r) => [r.prompt, r.completion, r.group, r.groundTruth, r.step])).toEqual([
      ['2+2?', '4', '10', '4', 7],
      ['2+2?', '5', '10', '4', 7],
      ['3+3?', '6', '11', '6', 8],
    ]);
    expect(rows[2].messages).toEqual([
      { role: 'user', content: '3+3?' },
      { role: 'assistant', content: '6' },
    ]);
  });

  it('with a mapping whose columns are missing: one issue per record', async () => {
    const err = await importFailure(fixture('custom-columns.jsonl'), { format: 'mapped', mapping: { prompt: 'question', completion: 'answer' } });
    expect(err.code).toBe('no-rows');
    expect(err.detail?.issues?.[0]).toEqual({ line: 1, reason: 'answer: missing' });
  });

  it('a mapping onto one column holding whole conversations', async () => {
    const text = JSON.stringify({
      convo: [
        { role: 'user', content: 'U' },
        { role: 'assistant', content: 'A' },
      ],
    });
    const { rows } = await importAll(textSource('c.jsonl', text), { format: 'mapped', mapping: { prompt: 'convo', completion: 'convo' } });
    expect(rows.map((r) => [r.prompt, r.completion, r.messages.length])).toEqual([['U', 'A', 2]]);
  });

  it('forcing a format: mapped without a mapping asks for one; a format that does not fit fails every row', async () => {
    expect((await importFailure(fixture('trl-standard.jsonl'), { format: 'mapped' })).code).toBe('needs-mapping');
    const err = await importFailure(fixture('trl-standard.jsonl'), { format: 'verl-dump' });
    expect(err.code).toBe('no-rows');
    expect(err.detail?.issues?.[0]).toEqual({ line: 1, reason: 'input: missing' });
  });

  it('forcing a format that fits: detected and used formats are both reported', async () => {
    const { detection, rows } = await importAll(fixture('trl-completions.parquet'), { format: 'trl-standard' });
    expect(detection).toMatchObject({ format: 'trl-standard', detected: 'trl-completions' });
    expect(rows).toHaveLength(4);
  });
});

describe('importStream: cancellation', () => {
  const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ prompt: `p${i}`, completion: `c${i}` })).join('\n');

  it('an already aborted signal stops before reading', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await importFailure(textSource('x.jsonl', lines), { signal: controller.signal });
    expect(err.code).toBe('cancelled');
    expect(err.message).toBe('Import of x.jsonl was cancelled.');
  });

  it('aborting between batches stops the import with a cancelled error', async () => {
    const controller = new AbortController();
    let batches = 0;
    const run = async () => {
      for await (const e of importStream(chunkedSource('x.jsonl', lines, [50]), { signal: controller.signal, batchSize: 5 })) {
        if (e.type === 'rows') {
          batches++;
          controller.abort();
        }
      }
    };
    await expect(run()).rejects.toMatchObject({ code: 'cancelled' });
    expect(batches).toBe(1);
  });

  it('a consumer that stops early releases the file (no hang, no error)', async () => {
    let seen = 0;
    for await (const e of importStream(chunkedSource('x.jsonl', lines, [30]), { batchSize: 2 })) {
      if (e.type === 'rows') seen += e.rows.length;
      if (seen >= 4) break;
    }
    expect(seen).toBe(4);
  });
});
