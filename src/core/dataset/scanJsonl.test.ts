// The fast JSONL path (WebAssembly scanner + scanJsonl) against the reference it replaces: importStream's rows
// (JSON.parse, the format's normalizer) packed by Packer, with LabelCollector over the same rows. Every column,
// preview, group key, issue, span, label column, collected category column and the line count must be the same, whatever the bytes and however
// the reads cut them.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importStream } from '../formats/import-stream';
import type { FormatId } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { categories, type CategoryColumn } from './categories';
import { LabelCollector } from './labelColumns';
import { Packer, PREVIEW_CHARS, previewsOf, type PackedBatch } from './packed';
import { plainGroupKey } from './parts';
import { readAhead, readChunks, scanJsonl } from './scanJsonl';
import { importPacked } from './importPacked';

const enc = new TextEncoder();

interface Flat {
  line: number[];
  group: string[];
  charLength: number[];
  step: number[];
  truncated: number[];
  previews: string[];
  issues: { line: number; reason: string }[];
  spans: number[];
  labels: { name: string; values: number[]; binary: boolean }[];
  categories: CategoryColumn[];
  lineCount: number;
}

function flatten(batches: { batch: PackedBatch; spans?: Float64Array }[], labels: LabelCollector, lineCount: number): Flat {
  const names: string[] = [];
  const f: Flat = { line: [], group: [], charLength: [], step: [], truncated: [], previews: [], issues: [], spans: [], labels: [], categories: [], lineCount };
  for (const { batch: b, spans } of batches) {
    names.push(...b.newGroups.map(plainGroupKey));
    f.line.push(...b.line);
    f.group.push(...[...b.groupOf].map((g) => names[g]));
    f.charLength.push(...b.charLength);
    f.step.push(...b.step);
    f.truncated.push(...b.truncated);
    f.previews.push(...previewsOf(b));
    f.issues.push(...b.issues);
    f.spans.push(...(spans ?? []));
    expect([...b.pairOf].every((p) => p === -1)).toBe(true);
  }
  f.labels = labels.finish(1000).map((c) => ({ name: c.name, values: [...c.values], binary: c.binary }));
  f.categories = labels.categoryColumns();
  return f;
}

async function reference(bytes: Uint8Array, format: FormatId): Promise<Flat> {
  const packer = new Packer();
  const labels = new LabelCollector();
  const batches: { batch: PackedBatch; spans?: Float64Array }[] = [];
  let lineCount = -1;
  const rows: Trajectory[] = [];
  for await (const e of importStream({ name: 't.jsonl', blob: new Blob([bytes as BlobPart]) }, { format, allowEmpty: true })) {
    if (e.type === 'rows') {
      rows.push(...e.rows);
      labels.add(e.rows);
      batches.push({ batch: packer.pack(e.rows, e.issues, 0, 0), spans: e.spans });
    } else if (e.type === 'done') lineCount = e.lineCount ?? -1;
  }
  const want = flatten(batches, labels, lineCount);
  // The collected columns are what categories() reads from the rows.
  for (const c of want.categories) expect(c.categories, c.name).toEqual(categories(rows, c.name));
  return want;
}

async function fast(bytes: Uint8Array, format: FormatId, sliceBytes?: number, batchSize?: number): Promise<Flat> {
  const packer = new Packer();
  const labels = new LabelCollector();
  const batches: { batch: PackedBatch; spans: Float64Array }[] = [];
  const scan = scanJsonl(new Blob([bytes as BlobPart]), { name: 't.jsonl', format, fileOffset: 0, fileStart: true, packer, labels, sliceBytes, batchSize });
  let r = await scan.next();
  for (; !r.done; r = await scan.next()) batches.push(r.value);
  return flatten(batches, labels, r.value);
}

/** Both ways, with reads of several sizes (cutting lines, UTF-8 sequences and escapes anywhere). */
async function expectSame(bytes: Uint8Array, format: FormatId = 'trl-standard', slices: (number | undefined)[] = [undefined, 1, 7, 64, 1000]): Promise<Flat> {
  const want = await reference(bytes, format);
  // Reads of one byte each are slow (a Blob read per byte): only on small inputs.
  for (const slice of slices.filter((n) => n !== 1 || bytes.length < 20000))
    expect(await fast(bytes, format, slice), `reads of ${slice ?? 'default'} bytes`).toEqual(want);
  expect(await fast(bytes, format, undefined, 3), 'batches of 3 rows').toEqual(want);
  return want;
}

const text = (lines: string[]) => enc.encode(lines.join('\n') + '\n');
const row = (extra: Record<string, unknown> = {}, prompt = 'p', completion = 'c') => JSON.stringify({ prompt, completion, ...extra });

describe('scanJsonl gives what JSON.parse and the normalizer give', () => {
  it('plain rows: groups by uid, steps, labels, previews', async () => {
    const lines = Array.from({ length: 30 }, (_, i) =>
      row(
        { uid: `q${i >> 2}`, step: i % 3, ground_truth: String(i), correct: i % 2 === 0, score: i / 4, model: 'm' },
        `Question ${i >> 2}`,
        'x'.repeat(i * 10),
      ),
    );
    const got = await expectSame(text(lines));
    expect(got.group.slice(0, 5)).toEqual(['q0', 'q0', 'q0', 'q0', 'q1']); // worked by hand
    expect(got.charLength[29]).toBe(290);
    expect(got.previews[29]).toBe('x'.repeat(160));
    expect(got.labels.map((c) => c.name)).toEqual(['correct', 'score']); // step is structural; ground_truth and model are strings
  });

  it('group keys stay right when rows switch between group columns, the prompt, normalizer rows and bad lines', async () => {
    const long = 'k'.repeat(1500);
    const got = await expectSame(
      text([
        row({ uid: 'x' }),
        JSON.stringify({ prompt: 'p', completion: [{ role: 'assistant', content: 'c' }], uid: 'y' }), // read by the normalizer
        row({ uid: 'y' }),
        row({ uid: 'x' }),
        row({ group: 'g', uid: 'y' }),
        row({ uid: 'y' }),
        '{"uid": "y", "prompt": "p", "completion": "c" oops}',
        row({ uid: 'y' }),
        row({ group: null, uid: 'y' }),
        row({}, 'P'),
        row({ uid: 'y' }),
        row({}, 'P'),
        row({}, 'P'),
        row({}, 'Q'),
        row({ uid: 7 }),
        row({ uid: 'y' }),
        row({ uid: long }),
        row({ uid: long }),
        row({ uid: 'a"b\\u00e9' }),
        row({ uid: 'a"b\\u00e9' }),
        row({ uid: 'a"b\u00e9' }),
        row({ uid: '' }, 'P'),
        row({ uid: '' }, 'P'),
        row({ uid: 'y' }),
      ]),
    );
    // Worked by hand: each row's group key.
    expect(got.group).toEqual([
      'x',
      'y',
      'y',
      'x',
      'g',
      'y',
      'y',
      'y',
      'P',
      'y',
      'P',
      'P',
      'Q',
      '7',
      'y',
      long,
      long,
      'a"b\\u00e9',
      'a"b\\u00e9',
      'a"bé',
      'P',
      'P',
      'y',
    ]);
  });

  it('group columns in order, their value types, and the prompt as the fallback', async () => {
    await expectSame(
      text([
        row({ group: 'g', uid: 'u' }),
        row({ uid: 7, group_id: 'x' }),
        row({ uid: '', group_id: 'gid' }),
        row({ group: null, uid: { a: 1 }, group_id: [1], prompt_id: true }),
        row({ prompt_id: false }),
        row({ uid: 1.5e300 }),
        row({ uid: Number('1e400') }, 'prompt when uid is Infinity'),
        row({ uid: -0 }),
        row({}, 'a "quoted" prompt\nwith é and 😀'),
        row({}, ''),
        row({ group: Number('12345678901234567890') }),
      ]),
    );
  });

  it('escapes, non-ASCII text and the 160-character preview boundary', async () => {
    const lines: string[] = [];
    for (const n of [159, 160, 161]) {
      lines.push(row({}, 'p', 'a'.repeat(n)));
      lines.push(row({}, 'p', 'a'.repeat(n - 1) + '😀' + 'b'.repeat(5))); // a surrogate pair across the boundary
      lines.push(row({}, 'p', 'é'.repeat(n) + 'z'));
      lines.push(row({}, 'p', '日本'.repeat(n)));
      lines.push(row({}, 'p', 'a'.repeat(n - 2) + '\n"\\/\b\f\r\t' + 'q'.repeat(20)));
    }
    lines.push('{"prompt":"p","completion":"' + 'a'.repeat(158) + '\\u00e9\\ud83d\\ude00\\ud83d' + 'b'.repeat(10) + '"}');
    lines.push('{"prompt":"p\\u0041","completion":"\\/\\u20AC x"}');
    lines.push('{"prompt":"p","completion":"' + 'é'.repeat(200) + '\\n' + '"}');
    await expectSame(text(lines));
  });

  it('previews are bytes in batches whose previews are all Latin-1, UTF-16 in others (F_WIDE from the scanner)', async () => {
    const cases: [string, string, boolean][] = [
      [row({}, 'p', 'plain ASCII'), 'plain ASCII', false],
      [row({}, 'p', 'café ÿ'), 'café ÿ', false], // two-byte UTF-8, below 0x100
      ['{"prompt":"p","completion":"caf\\u00e9\\n"}', 'café\n', false], // escapes below 0x100
      ['{"prompt":"p","completion":"\\u0100"}', 'Ā', true],
      [row({}, 'p', '日'), '日', true],
      [row({}, 'p', 'x😀'), 'x😀', true],
      ['{"prompt":"p","completion":"\\ud83d\\ude00"}', '😀', true],
      // A wide character past the preview does not make it wide.
      [row({}, 'p', 'a'.repeat(PREVIEW_CHARS) + '日'), 'a'.repeat(PREVIEW_CHARS), false],
    ];
    const packer = new Packer();
    const scan = scanJsonl(new Blob([text(cases.map(([line]) => line))]), {
      name: 't.jsonl',
      format: 'trl-standard',
      fileOffset: 0,
      fileStart: true,
      packer,
      labels: new LabelCollector(),
      batchSize: 1,
    });
    const batches: PackedBatch[] = [];
    for (let r = await scan.next(); !r.done; r = await scan.next()) batches.push(r.value.batch);
    expect(batches.map((b) => previewsOf(b)[0])).toEqual(cases.map(([, preview]) => preview));
    expect(batches.map((b) => b.previewUnits instanceof Uint16Array)).toEqual(cases.map(([, , wide]) => wide));
    expect(batches.map((b) => b.previewUnits instanceof Uint8Array)).toEqual(cases.map(([, , wide]) => !wide));
  });

  it('numbers, converted exactly or by their text', async () => {
    const values = [
      '0',
      '-0',
      '1',
      '-1',
      '1.5',
      '0.1',
      '0.30000000000000004',
      '1e2',
      '1E-2',
      '2.5e+3',
      '123456789012345',
      '1234567890123456',
      '9007199254740993',
      '123456789012345678901234',
      '3.141592653589793',
      '1.7976931348623157e308',
      '5e-324',
      '1e400',
      '-1e-400',
      '0.000001',
      '1e22',
      '1e23',
      '1e-22',
      '1e-23',
      '0e999',
      '100000000000000000000000',
      '0.1e1',
      '12.50',
      '-0.0',
    ];
    const lines = values.map((v, i) => `{"prompt":"p","completion":"c","x${i}":${v},"step":${v}}`);
    lines.push('{"prompt":"p","completion":"c","label":true,"other":false}');
    const got = await expectSame(text(lines));
    expect(got.step.slice(0, 5)).toEqual([0, -0, 1, -1, 1.5]);
  });

  it('truncation from finish_reason / stop_reason / truncated / is_truncated, whatever their types', async () => {
    const got = await expectSame(
      text([
        row({ finish_reason: 'length' }),
        row({ finish_reason: ' STOP ' }),
        row({ stop_reason: 'max_tokens' }),
        row({ truncated: true, finish_reason: 'stop' }),
        row({ is_truncated: 0 }),
        row({ truncated: 'yes', finish_reason: null }),
        row({ finish_reason: 'stop', finish_reason2: 'length' }),
        row({ finish_reason: ['length'] }),
        row(),
        '{"prompt":"p","completion":"c","finish_reason":"stop","finish_reason":"length"}',
      ]),
    );
    expect(got.truncated).toEqual([1, 0, 1, 1, 0, NaN, 0, NaN, NaN, 1]);
  });

  it('steps as strings, booleans and other types', async () => {
    await expectSame(
      text([
        row({ step: '12' }),
        row({ step: ' 7 ' }),
        row({ step: ' ' }),
        row({ step: 'abc' }),
        row({ step: true }),
        row({ step: null }),
        row({ step: [1] }),
        row({ step: '1e3' }),
      ]),
    );
  });

  it('label columns: first value that is not null decides the order; other types reject a column', async () => {
    await expectSame(
      text([
        row({ a: null, b: 1, c: 'text' }),
        row({ a: 2, b: true, c: 3 }),
        row({ a: 0.5, d: false, e: { x: 1 } }),
        row({ d: 1, e: 2, f: [1] }),
        row({ g: Number('1e400') }),
        row({ h: 1, __proto__x: 2 }),
        '{"prompt":"p","completion":"c","__proto__":3}',
      ]),
    );
  });

  it('malformed lines, values that are not objects and blank lines are what JSON.parse says', async () => {
    const got = await expectSame(
      text([
        row(),
        '{"prompt":"p","completion":"c"',
        '{"prompt":"p","completion":"c",}',
        "{'prompt':'p'}",
        '[1,2]',
        '"str"',
        '42',
        'null',
        '',
        '   ',
        '\t \r',
        '\u00a0',
        '{} x',
        '{"prompt":"p","completion":"c","a":01}',
        '{"prompt":"p","completion":"c","a":1.}',
        '{"prompt":"p","completion":"c","a":-}',
        '{"prompt":"p","completion":"c","a":.5}',
        '{"prompt":"p","completion":"c","a":1e}',
        '{"prompt":"p","completion":"c","a":tru}',
        '{"prompt":"p","completion":"c","a":nul}',
        '{"prompt":"p","completion":"c","a":"\t"}',
        '{"prompt":"p","completion":"c","a":"\\x"}',
        '{"prompt":"p","completion":"c","a":"\\u12G4"}',
        '{"prompt":"p","completion":"c","a":[1,]}',
        '{"prompt":"p","completion":"c","a":{"k":1,}}',
        '{"prompt":"p","completion":"c","a":{"k" 1}}',
        '{"prompt":"p","completion":"c","a":[1 2]}',
        '{"prompt":"p","completion":"c","a":[}',
        '{"prompt":"p","completion":"c","a":{]}',
        '{"prompt":"p","completion":"c","a":{}}',
        '{"prompt":"p","completion":"c","a":[]}',
        '{"prompt":"p","completion":"c","a":[[],{},[{}],{"x":[]}]}',
        '{"prompt":"p","completion":"c","a":[1,-2.5e3,"s\\"",true,false,null,{"k":{"k":[0]}}]}',
        '{}',
        '{ }',
        ' { "prompt" : "p" , "completion" : "c" } ',
        '{"prompt":"p"}',
        '{"completion":"c"}',
        '{"prompt":1,"completion":"c"}',
        '{"prompt":"p","completion":null}',
      ]),
    );
    expect(got.issues.map((i) => i.line)).toEqual([
      2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 34, 35, 37, 38, 39, 40,
    ]);
  });

  it('keys JSON.parse treats specially: repeated, escaped, array-index-like', async () => {
    await expectSame(
      text([
        '{"prompt":"a","completion":"b","prompt":"c"}',
        '{"pro\\u006dpt":"a","completion":"b"}',
        '{"1":2,"prompt":"a","completion":"b","0":true}',
        '{"01":2,"prompt":"a","completion":"b","4294967295":1,"4294967294":1}',
        '{"":1,"prompt":"a","completion":"b"}',
        '{"é":1,"prompt":"a","completion":"b","日本":2}',
        '{"x":1,"x":"s","prompt":"a","completion":"b"}',
      ]),
    );
  });

  it('conversational rows, nesting deeper than the scanner follows, many keys, many distinct keys', async () => {
    const deep = '['.repeat(600) + ']'.repeat(600);
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`k${i}`, i]));
    const lines = [
      JSON.stringify({ prompt: [{ role: 'user', content: 'hi' }], completion: [{ role: 'assistant', content: 'yo' }] }),
      JSON.stringify({ prompt: 'p', completion: [{ role: 'assistant', content: 'yo' }] }),
      `{"prompt":"p","completion":"c","deep":${deep}}`,
      row(many),
      ...Array.from({ length: 1100 }, (_, i) => row({ [`key_${i}`]: i })),
      row({ key_5: 'x' }),
    ];
    await expectSame(text(lines));
    await expectSame(text(lines.slice(0, 4)), 'trl-conversational');
  });

  it('CRLF endings, a last line without a newline, a byte-order mark', async () => {
    const crlf = enc.encode([row({ uid: 'a' }), '', row({ uid: 'b' }), '{bad', row({ uid: 'c' })].join('\r\n'));
    await expectSame(crlf);
    await expectSame(enc.encode('\ufeff' + row({ uid: 'a' }) + '\n' + row() + '\n\n  '));
    await expectSame(enc.encode(row() + '\n\r'));
  });

  it('invalid UTF-8 inside and outside strings', async () => {
    const head = enc.encode(row() + '\n');
    const parts = [
      [0x7b, 0x22, 0x70, 0x72, 0x6f, 0x6d, 0x70, 0x74, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x2c], // {"prompt":"\xff",
      enc.encode('"completion":"ok"}\n'),
      enc.encode('{"prompt":"p","completion":"a'),
      [0xe2, 0x82], // a cut 3-byte sequence
      enc.encode('b"}\n{"prompt":"p","completion":"c","x":"'),
      [0xed, 0xa0, 0x80, 0xc0, 0xaf], // a UTF-8 surrogate and an overlong form, in a label column
      enc.encode('"}\n{"prompt":"p","completion":"c","nest":["'),
      [0xf5, 0x80],
      enc.encode('"]}\n{"k'),
      [0xc3],
      enc.encode('":1,"prompt":"p","completion":"c"}\n{"prompt":"p","completion":"c"} '),
      [0x80],
      enc.encode('\n'),
    ];
    const bytes = new Uint8Array([...head, ...parts.flatMap((p) => [...p])]);
    await expectSame(bytes);
  });

  it('a line longer than a read', async () => {
    await expectSame(text([row({ uid: 'a' }), row({ uid: 'b' }, 'p', 'é'.repeat(3 << 20)), row({ uid: 'c' })]), 'trl-standard', [undefined, 1 << 20, 3 << 20]);
  });

  it('verl rollout dumps (input / output)', async () => {
    const lines = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({ input: `q${i >> 2}`, output: `answer ${i}`, gts: '4', score: i % 2, step: 3, acc: i % 2 === 1 }),
    );
    lines.push(JSON.stringify({ input: 'q', output: ['not text'] }));
    lines.push(JSON.stringify({ input: 'q', completion: 'no output' }));
    const got = await expectSame(text(lines), 'verl-dump');
    expect(got.group.slice(0, 5)).toEqual(['q0', 'q0', 'q0', 'q0', 'q1']);
  });

  it('random records (seeded), compared in bulk', async () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const strings = ['', 'a', 'é', '😀', '"', '\\', '\n', '\u0000', '\u2028', 'ab\tc', '日本語', '\ud83d'];
    const str = () => Array.from({ length: Math.floor(rnd() * 60) }, () => pick(strings)).join('');
    const value = (): unknown =>
      pick([() => str(), () => rnd() * 1e6 - 5e5, () => Math.floor(rnd() * 100), () => rnd() < 0.5, () => null, () => [str(), 1], () => ({ k: str() })])();
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) {
      const rec: Record<string, unknown> = {};
      for (const k of ['uid', 'prompt', 'group', 'completion', 'step', 'a', 'b', 'c'])
        if (rnd() < 0.8) rec[k] = k === 'prompt' || k === 'completion' ? (rnd() < 0.9 ? str().repeat(1 + Math.floor(rnd() * 8)) : value()) : value();
      let l = JSON.stringify(rec);
      if (rnd() < 0.05) l = l.slice(0, Math.floor(rnd() * l.length));
      lines.push(l);
    }
    await expectSame(text(lines));
  });
});

describe('importPacked reads flat JSONL through the scanner', () => {
  it('gives the reference batches in one piece and in pieces', async () => {
    const lines = Array.from({ length: 500 }, (_, i) =>
      i === 17
        ? '{broken'
        : row({ uid: `q${i >> 2}`, step: i >> 7, ok: i % 3 === 0, model: `m${i % 7}`, task: 'é😀x'.repeat(i % 90), subset: i % 5 === 0 }, `P${i >> 2}`),
    );
    const bytes = text(lines);
    const want = await reference(bytes, 'trl-standard');
    const blob = new Blob([bytes as BlobPart]);
    const collect = async (par?: Parameters<typeof importPacked>[2]) => {
      const batches: { batch: PackedBatch; spans?: Float64Array }[] = [];
      const labels: { name: string; values: number[]; binary: boolean }[] = [];
      const cats: CategoryColumn[] = [];
      for await (const e of importPacked({ name: 't.jsonl', blob }, { batchSize: 64 }, par)) {
        if (e.kind === 'batch') batches.push({ batch: e.batch, spans: e.spans });
        if (e.kind === 'labels') {
          labels.push(...e.columns.map((c) => ({ name: c.name, values: [...c.values], binary: c.binary })));
          cats.push(...e.categories);
        }
      }
      const f = flatten(batches, new LabelCollector(), want.lineCount);
      return { ...f, labels, categories: cats };
    };
    const { runPieceHere } = await import('./importPacked');
    const wantLabels = want.labels.filter((c) => c.name !== 'step');
    // Pieces number their values on their own; joined, they are numbered as one read numbers them. Worked by hand:
    // the task 'é😀x' × k (4 units each) is whole for k ≤ 50 (200 units) and cut to one text above: 52 values.
    expect(want.categories.map((c) => [c.name, c.categories.values.length])).toEqual([
      ['model', 7],
      ['task', 52],
      ['subset', 2],
    ]);
    expect(await collect()).toEqual({ ...want, labels: wantLabels });
    expect(await collect({ pieces: 3, minPieceBytes: 1000, run: runPieceHere })).toEqual({ ...want, labels: wantLabels });
  });
});

describe('scan.wasm.ts', () => {
  it('is what scan.as.ts compiles to', () => {
    const root = resolve(import.meta.dirname, '../../..');
    expect(readFileSync(resolve(root, 'src/core/formats/jsonl-scan/scan.wasm.ts'), 'utf8').length).toBeGreaterThan(1000);
    execFileSync(process.execPath, [resolve(root, 'scripts/build-wasm.mjs'), '--check'], { cwd: root, stdio: 'pipe' });
  });
});

describe('readChunks', () => {
  const bytes = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 7) & 0xff);
  const collect = async (blob: Blob, size: number, slice?: number) => {
    const chunks: number[][] = [];
    for await (const c of readChunks(blob, size, slice)) chunks.push([...c]); // copied: a chunk is valid until the next
    return chunks;
  };
  /** A Blob whose stream has no BYOB reader (as in browsers without readable byte streams). */
  class PlainStreamBlob extends Blob {
    override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
      const inner = super.stream().getReader();
      return new ReadableStream({
        pull: async (c) => {
          const r = await inner.read();
          if (r.done) c.close();
          else c.enqueue(r.value);
        },
      });
    }
  }

  it('reads into one buffer of its own: chunks of the size asked for, the first holding a byte-order mark', async () => {
    const chunks = await collect(new Blob([bytes]), 4096);
    expect(chunks.map((c) => c.length)).toEqual([4096, 4096, 1808]);
    expect(chunks.flat()).toEqual([...bytes]);
    expect((await collect(new Blob([bytes.subarray(0, 10)]), 1)).map((c) => c.length)).toEqual([3, 1, 1, 1, 1, 1, 1, 1]);
    expect(await collect(new Blob([]), 4096)).toEqual([]);
  });

  it('reads by slices where the stream has no BYOB reader, with the same bytes', async () => {
    const chunks = await collect(new PlainStreamBlob([bytes]), 4096, 3000);
    expect(chunks.map((c) => c.length)).toEqual([4096, 3000, 2904]);
    expect(chunks.flat()).toEqual([...bytes]);
  });

  it("a stream that ends before the blob's size is an error, not a short file", async () => {
    const short = { size: 20, stream: () => new Blob([bytes.subarray(0, 12)]).stream() } as unknown as Blob;
    await expect(collect(short, 8)).rejects.toThrow('the file ended after 12 of its 20 bytes');
  });

  it('scanJsonl gives the same batches when the file is read by slices', async () => {
    const lines = Array.from({ length: 50 }, (_, i) =>
      row({ uid: `q${i >> 2}`, step: i, score: i / 8 }, `Question ${i >> 2} é`, `answer ${i} 😀`.repeat(i % 9)),
    );
    const input = text(lines);
    const want = await reference(input, 'trl-standard');
    for (const slice of [7, 1000]) {
      const packer = new Packer();
      const labels = new LabelCollector();
      const batches: { batch: PackedBatch; spans: Float64Array }[] = [];
      const scan = scanJsonl(new PlainStreamBlob([input as BlobPart]), {
        name: 't.jsonl',
        format: 'trl-standard',
        fileOffset: 0,
        fileStart: true,
        packer,
        labels,
        sliceBytes: slice,
      });
      let r = await scan.next();
      for (; !r.done; r = await scan.next()) batches.push(r.value);
      expect(flatten(batches, labels, r.value)).toEqual(want);
    }
  });

  /** A file of `size` bytes whose stream counts its reads and says when it is cancelled. */
  const watched = (data: Uint8Array) => {
    const seen = { pulls: 0, cancelled: false };
    const blob = {
      size: data.length,
      stream: () => {
        let at = 0;
        return new ReadableStream({
          type: 'bytes',
          pull(c) {
            seen.pulls++;
            const view = c.byobRequest!.view as Uint8Array;
            const n = Math.min(view.byteLength, data.length - at, 1000);
            view.set(data.subarray(at, at + n));
            at += n;
            c.byobRequest!.respond(n);
            if (at === data.length) c.close();
          },
          cancel() {
            seen.cancelled = true;
          },
        });
      },
    } as unknown as Blob;
    return { blob, seen };
  };

  it('readAhead asks for the first chunk at once, and gives the bytes readChunks gives', async () => {
    const { blob, seen } = watched(bytes);
    const ahead = readAhead(blob);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen.pulls).toBeGreaterThan(0); // read before anything asked for a chunk
    const chunks: number[] = [];
    for await (const c of ahead.chunks) chunks.push(...c);
    expect(chunks).toEqual([...bytes]);
    ahead.cancel(); // after the end: nothing to do
  });

  it('readAhead cancelled unread (the file is not JSONL) cancels its stream', async () => {
    const { blob, seen } = watched(new Uint8Array(5_000_000));
    readAhead(blob).cancel();
    await new Promise((r) => setTimeout(r, 10));
    expect(seen.cancelled).toBe(true);
    expect(seen.pulls).toBeLessThan(5_000_000 / 1000); // not read to the end
  });

  it('scanJsonl gives the same batches from a read started ahead', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => row({ uid: `q${i >> 2}`, step: i }, `Question ${i >> 2}`, `answer ${i} é`.repeat(i % 5)));
    const input = text(lines);
    const want = await reference(input, 'trl-standard');
    const blob = new Blob([input as BlobPart]);
    const packer = new Packer();
    const labels = new LabelCollector();
    const batches: { batch: PackedBatch; spans: Float64Array }[] = [];
    const scan = scanJsonl(blob, { name: 't.jsonl', format: 'trl-standard', fileOffset: 0, fileStart: true, packer, labels, chunks: readAhead(blob).chunks });
    let r = await scan.next();
    for (; !r.done; r = await scan.next()) batches.push(r.value);
    expect(flatten(batches, labels, r.value)).toEqual(want);
  });
});
