import { createHash } from 'node:crypto';
import { crc32 as zlibCrc32, inflateRawSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32 } from './crc32';
import FIXTURES from './fixtures/share-links.json' with { type: 'json' };
import { parseSessionDoc, parseShared, SHARE_VERSION, type SessionDoc, type SharedSession } from './schema';
import { decodeShare, encodeFrame, encodeShare, frameBodySize, fromBase64Url, INLINE_LIMIT, toBase64Url } from './shareCodec';
import { readSessionFile, writeSessionFile, type RunPayload } from './sessionFile';

const shared: SharedSession = {
  v: 2,
  name: 'GSM8K check',
  editor: {
    language: 'ts',
    code: 'export default function reward(t) {\n  return t.completion.length > 10 ? 1 : 0; // ✓ ünïcode\n}\n',
    tokenizer: 'gpt2',
    timeLimitMs: 1000,
    pyFunction: null,
    pyBatchSize: 32,
  },
  ui: { diagTab: 'collapse', lengthUnit: 'tokens', preset: 'verl', labelColumn: 'is_correct_openai', selectedRow: 17 },
  data: { kind: 'demo' },
  run: {
    id: 3,
    code: 'export default () => 1',
    language: 'ts',
    startedAt: 1_700_000_000_000,
    elapsedMs: 12.5,
    cancelled: false,
    summary: { rows: 800, ok: 800, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: 0.36875 },
  },
};

describe('crc32', () => {
  it('matches the standard check value and zlib', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926); // the CRC-32/ISO-HDLC check value
    expect(crc32(new Uint8Array())).toBe(0);
    const bytes = new Uint8Array(10_000).map((_, i) => (i * 7919) & 0xff);
    expect(crc32(bytes)).toBe(zlibCrc32(bytes));
  });
});

describe('base64url', () => {
  it('agrees with Node for every length mod 3, and round-trips', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 37 + n) & 0xff);
      const text = toBase64Url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(text)).toEqual(bytes);
    }
  });
  it('rejects characters outside the alphabet and impossible lengths', () => {
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('ab c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull();
  });
});

describe('share codec', () => {
  it('round-trips a session, with and without inline data', () => {
    const a = decodeShare(encodeShare(shared));
    expect(a).toEqual({ ok: true, session: shared, data: null });
    const data = new TextEncoder().encode('{"prompt":"p","completion":"c"}\n');
    const withData: SharedSession = {
      ...shared,
      data: { kind: 'inline', name: 'x.jsonl', rows: 1, size: data.length, sha256: createHash('sha256').update(data).digest('hex'), import: {} },
    };
    const b = decodeShare(encodeShare(withData, data));
    expect(b.ok && b.data).toEqual(data);
    expect(b.ok && b.session).toEqual(withData);
  });

  it('writes a frame that zlib reads: "RS", version, raw deflate, CRC-32 of the rest', () => {
    const frame = fromBase64Url(encodeShare(shared))!;
    expect([...frame.subarray(0, 3)]).toEqual([0x52, 0x53, SHARE_VERSION]);
    const end = frame.length - 4;
    expect(Buffer.from(frame.subarray(end)).readUInt32LE(0)).toBe(zlibCrc32(frame.subarray(0, end)));
    const plain = inflateRawSync(frame.subarray(3, end));
    const n = plain.readUInt32LE(0);
    expect(JSON.parse(plain.subarray(4, 4 + n).toString('utf8'))).toEqual(shared);
  });

  it('compresses: the demo settings fit in a short link; the size helper gives the compressed body', () => {
    const text = encodeShare(shared);
    expect(text.length).toBeLessThan(600);
    let x = 2463534242;
    const big = new Uint8Array(300_000).map(() => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x & 0xff)); // xorshift32: incompressible
    const withBig = encodeShare({ ...shared, data: { kind: 'inline', name: 'b', rows: 1, size: big.length, sha256: '0'.repeat(64), import: {} } }, big);
    expect(frameBodySize(withBig)).toBeGreaterThan(INLINE_LIMIT);
    expect(frameBodySize(withBig)).toBeLessThan(big.length + 1000);
  });

  it('reports every one-character change as damaged, and never throws', () => {
    const text = encodeShare(shared);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < text.length; i++) {
      const swapped = alphabet[(alphabet.indexOf(text[i]) + 1 + (i % 63)) % 64];
      const r = decodeShare(text.slice(0, i) + swapped + text.slice(i + 1));
      expect(r.ok, `position ${i}`).toBe(false);
      // The last character holds 2 bits of CRC padding only when the length leaves a remainder; all others hit the CRC.
      if (!r.ok) expect(['damaged', 'invalid']).toContain(r.reason);
    }
  });

  it('reports truncated and foreign links', () => {
    const text = encodeShare(shared);
    for (const cut of [1, 2, 5, text.length - 10, text.length - 1]) {
      const r = decodeShare(text.slice(0, cut));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toBe('damaged');
    }
    const r = decodeShare(toBase64Url(new TextEncoder().encode('hello world, not a link')));
    expect(r).toMatchObject({ ok: false, reason: 'invalid', message: 'this is not a Reward Studio share link' });
    expect(decodeShare('')).toMatchObject({ ok: false, reason: 'damaged' });
  });

  it('rejects a well-formed link whose JSON breaks the schema, naming the place', () => {
    const bad = { ...shared, editor: { ...shared.editor, code: 42 } };
    const r = decodeShare(toBase64Url(encodeFrame(JSON.stringify(bad), null, 2)));
    expect(r).toMatchObject({ ok: false, reason: 'invalid' });
    expect(!r.ok && r.message).toMatch(/editor\.code: .*string/);
  });

  it('a link that names a file must carry its SHA-256', () => {
    const s: SharedSession = { ...shared, data: { kind: 'file', name: 'big.jsonl', rows: 10, size: 100, import: {} } };
    expect(decodeShare(encodeShare(s))).toMatchObject({ ok: false, reason: 'invalid', message: expect.stringContaining('without its SHA-256') });
    const withHash: SharedSession = { ...shared, data: { kind: 'file', name: 'big.jsonl', rows: 10, size: 100, sha256: 'c'.repeat(64), import: {} } };
    expect(decodeShare(encodeShare(withHash))).toMatchObject({ ok: true, session: withHash });
  });

  it('an inline link whose data length does not match is damaged', () => {
    const data = new Uint8Array([1, 2, 3]);
    const s: SharedSession = { ...shared, data: { kind: 'inline', name: 'x', rows: 1, size: 4, sha256: '0'.repeat(64), import: {} } };
    expect(decodeShare(encodeShare(s, data))).toMatchObject({ ok: false, reason: 'damaged' });
  });
});

describe('fixtures written by scripts/share-fixtures.py (Python zlib)', () => {
  it('opens a v1 link and migrates it to the current shape', () => {
    const r = decodeShare(FIXTURES.v1_demo);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.migratedFrom).toBe(1);
    expect(r.data).toBeNull();
    expect(r.session).toEqual({
      v: 2,
      name: 'Shared session',
      editor: { language: 'ts', code: FIXTURES.v1_object.code, tokenizer: 'gpt2', timeLimitMs: 2000, pyFunction: null, pyBatchSize: 32 },
      ui: { diagTab: 'collapse', lengthUnit: 'chars', preset: 'verl', labelColumn: null, selectedRow: 5 },
      data: { kind: 'demo' },
      run: null,
    });
  });

  it('opens a v2 link with its data inline, byte for byte', () => {
    const r = decodeShare(FIXTURES.v2_inline);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.migratedFrom).toBeUndefined();
    expect(r.session).toEqual(FIXTURES.v2_object);
    expect(new TextDecoder().decode(r.data!)).toBe(FIXTURES.v2_data_utf8);
    expect(createHash('sha256').update(r.data!).digest('hex')).toBe(FIXTURES.v2_data_sha256);
  });

  it('tells a link from a newer studio apart', () => {
    const r = decodeShare(FIXTURES.v3_newer);
    expect(r).toMatchObject({ ok: false, reason: 'newer' });
    expect(!r.ok && r.message).toContain('newer version of Reward Studio (link v3; this studio reads up to v2)');
  });
});

describe('schema', () => {
  it('migrates v1 step by step and validates the result', () => {
    const r = parseShared(FIXTURES.v1_object);
    expect(r).toMatchObject({ ok: true, migratedFrom: 1 });
    expect(r.ok && r.value.editor.language).toBe('ts');
  });
  it('rejects a v1 link that does not fit v1, naming the field', () => {
    const r = parseShared({ ...FIXTURES.v1_object, settings: { ...FIXTURES.v1_object.settings, preset: 'ppo' } });
    expect(r).toMatchObject({ ok: false, reason: 'invalid' });
    expect(!r.ok && r.message).toContain('(v1)');
    expect(!r.ok && r.message).toContain('settings.preset');
  });
  it('rejects missing or bad versions, and newer versions', () => {
    expect(parseShared(null)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseShared({})).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseShared({ v: 1.5 })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parseShared({ v: 99 })).toMatchObject({ ok: false, reason: 'newer' });
    expect(parseSessionDoc({ v: 2 })).toMatchObject({ ok: false, reason: 'newer' });
  });
  it('checks data references: hashes are hex SHA-256, kinds are known', () => {
    const base = { ...shared, data: { kind: 'file', name: 'a.jsonl', rows: 3, size: 10, sha256: 'xyz', import: {} } };
    expect(parseShared(base)).toMatchObject({ ok: false });
    expect(parseShared({ ...base, data: { ...base.data, sha256: 'a'.repeat(64) } })).toMatchObject({ ok: true });
    expect(parseShared({ ...shared, data: { kind: 'ftp' } })).toMatchObject({ ok: false });
  });
});

const doc: SessionDoc = {
  v: 1,
  id: 's1',
  name: 'My session',
  createdAt: 1,
  updatedAt: 2,
  editor: {
    language: 'py',
    code: { ts: 'export default () => 1', py: 'def f(completions, **kw):\n    return [1.0]*len(completions)\n' },
    tokenizer: 'llama3',
    timeLimitMs: 500,
    pyFunction: 'f',
    pyBatchSize: 8,
  },
  ui: { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
  data: { kind: 'file', name: 'three.jsonl', rows: 3, size: 5, sha256: 'b'.repeat(64), import: { format: 'trl-standard' } },
  dataVersion: 1,
  runs: [
    {
      id: 1,
      dataVersion: 1,
      code: 'x',
      language: 'ts',
      startedAt: 5,
      elapsedMs: 1,
      cancelled: false,
      summary: { rows: 3, ok: 2, nulls: 0, errors: 1, timedOut: 0, pending: 0, mean: 0.25 },
    },
    {
      id: 2,
      dataVersion: 1,
      code: 'y',
      language: 'py',
      pyFunction: 'f',
      startedAt: 6,
      elapsedMs: 2,
      cancelled: false,
      summary: { rows: 3, ok: 0, nulls: 3, errors: 0, timedOut: 0, pending: 0, mean: null },
    },
  ],
  currentRunId: 2,
  origin: null,
};
const run1: RunPayload = {
  scores: new Float64Array([0.5, 0, Number.NaN]),
  status: new Uint8Array([1, 1, 3]),
  components: { format: new Float64Array([1, 0, Number.NaN]), 'answer ✓': new Float64Array([0.25, -1e-300, Number.NaN]) },
  errors: [{ row: 2, message: 'boom', line: 3 }],
  notes: [[0, 'fine']],
  strings: { pred: ['72', null, '[INVALID]'] },
  stdout: 'hello\n',
};
const run2: RunPayload = { scores: new Float64Array(3).fill(Number.NaN), status: new Uint8Array([2, 2, 2]), components: {}, errors: [], notes: [], stdout: '' };

describe('session files', () => {
  it('round-trip the document, the data and every run bit for bit', () => {
    const data = new TextEncoder().encode('a\nb\nc');
    const bytes = writeSessionFile({
      doc,
      data,
      runs: new Map([
        [1, run1],
        [2, run2],
      ]),
    });
    const r = readSessionFile(bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual([]);
    expect(r.content.doc).toEqual(doc);
    expect(r.content.data).toEqual(data);
    expect(r.content.runs.get(1)).toEqual(run1);
    expect(r.content.runs.get(2)).toEqual(run2);
    expect(Object.is(r.content.runs.get(1)!.components['answer ✓'][1], -1e-300)).toBe(true);
  });

  it('compresses: 100,000 scores of two values take far less than 800 kB', () => {
    const n = 100_000;
    const scores = new Float64Array(n).map((_, i) => (i % 4 === 0 ? 1 : 0));
    const big: SessionDoc = { ...doc, runs: [{ ...doc.runs[0], summary: { ...doc.runs[0].summary, rows: n } }], currentRunId: 1 };
    const bytes = writeSessionFile({ doc: big, data: new Uint8Array(5), runs: new Map([[1, { ...run2, scores, status: new Uint8Array(n).fill(1) }]]) });
    expect(bytes.length).toBeLessThan(20_000);
  });

  it('leaves out a run whose arrays do not fit, with a warning, and keeps the rest', () => {
    const bytes = writeSessionFile({
      doc,
      data: new Uint8Array(5),
      runs: new Map([
        [1, run1],
        [2, { ...run2, scores: new Float64Array(2) }],
      ]),
    });
    const r = readSessionFile(bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toEqual(['run #2: its scores are missing or damaged, so it was left out']);
    expect(r.content.doc.runs.map((x) => x.id)).toEqual([1]);
    expect(r.content.doc.currentRunId).toBe(1);
  });

  it('leaves out a run whose text columns are damaged (a value that is not text), with a warning', () => {
    const bytes = writeSessionFile({
      doc,
      data: new Uint8Array(5),
      runs: new Map([
        [1, { ...run1, strings: { pred: ['72', { html: '<b>' }, null] as unknown as string[] } }],
        [2, run2],
      ]),
    });
    const r = readSessionFile(bytes);
    if (!r.ok) throw new Error(r.message);
    expect(r.warnings).toEqual(['run #1: its text columns are damaged, so it was left out']);
    expect(r.content.doc.runs.map((x) => x.id)).toEqual([2]);
  });

  it("round-trips a run's step rewards, and leaves out a run whose step rewards are damaged", () => {
    // Rows of 2, 0 and 3 steps: offsets 0, 2, 2, 5.
    const steps = { offsets: new Int32Array([0, 2, 2, 5]), values: new Float64Array([0.5, -1, 0.25, 0, 1e-300]) };
    // Run 1 with these step rewards, run 2 without.
    const fileWith = (s: typeof steps) =>
      writeSessionFile({
        doc,
        data: new Uint8Array(5),
        runs: new Map([
          [1, { ...run1, steps: s }],
          [2, run2],
        ]),
      });
    const ok = readSessionFile(fileWith(steps));
    if (!ok.ok) throw new Error(ok.message);
    expect(ok.warnings).toEqual([]);
    expect(ok.content.runs.get(1)!.steps).toEqual(steps);
    expect(ok.content.runs.get(2)!.steps).toBeUndefined();
    const damaged = [
      { offsets: new Int32Array([0, 2, 1, 5]), values: steps.values }, // out of order
      { offsets: new Int32Array([1, 2, 2, 5]), values: steps.values }, // not from 0
      { offsets: new Int32Array([0, 2, 2, 6]), values: steps.values }, // more offsets than values
      { offsets: steps.offsets, values: new Float64Array([0.5, Number.NaN, 0.25, 0, 1]) }, // not finite
      { offsets: new Int32Array([0, 2, 2]), values: steps.values }, // too few rows
      { offsets: new Int32Array([0, 5000, 5000, 5000]), values: new Float64Array(5000) }, // past STEP_LIMIT
    ];
    for (const bad of damaged) {
      const r = readSessionFile(fileWith(bad));
      if (!r.ok) throw new Error(r.message);
      expect(r.warnings).toEqual(['run #1: its step rewards are damaged, so it was left out']);
      expect(r.content.doc.runs.map((x) => x.id)).toEqual([2]);
    }
    // One of the two entries alone (a file cut by hand) is damaged too.
    const files = unzipSync(fileWith(steps));
    delete files['runs/1/steps.f64'];
    const half = readSessionFile(zipSync(files));
    expect(half.ok && half.warnings).toEqual(['run #1: its step rewards are damaged, so it was left out']);
  });

  it('gives a clear message for a file that is not a session', () => {
    expect(readSessionFile(new TextEncoder().encode('{"prompt": 1}'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('not a Reward Studio session file'),
    });
    const bad = writeSessionFile({
      doc: { ...doc, editor: { ...doc.editor, tokenizer: 'bpe9' } } as unknown as SessionDoc,
      data: new Uint8Array(1),
      runs: new Map(),
    });
    expect(readSessionFile(bad)).toMatchObject({ ok: false, message: expect.stringContaining('editor.tokenizer') });
    const noData = writeSessionFile({ doc, data: null, runs: new Map() });
    expect(readSessionFile(noData)).toMatchObject({ ok: false, message: 'the session file is damaged: its data is missing' });
  });
});

describe('diagnostics tabs in saved state', () => {
  it('links and sessions may name the Preference and Best-of-N tabs; an unknown tab is refused with its place', () => {
    for (const diagTab of ['preference', 'bestofn'] as const) {
      const r = parseShared({ ...shared, ui: { ...shared.ui, diagTab } });
      expect(r.ok && r.value.ui.diagTab).toBe(diagTab);
    }
    const bad = parseShared({ ...shared, ui: { ...shared.ui, diagTab: 'nope' } });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toContain('ui.diagTab');
  });
});

describe('table state in saved state (issue 21, item 15)', () => {
  const table = {
    columns: ['advantage', 'field:model', 'component:__proto__'],
    filters: [
      { id: 'advantage', min: 0.0001 },
      { id: 'field:model', contains: '175b' },
    ],
    sortKey: 'advantage',
    sortDesc: true,
  };
  it('links keep the columns, filters and sort; older links without them still open', () => {
    const r = parseShared({ ...shared, ui: { ...shared.ui, table } });
    expect(r.ok && r.value.ui.table).toEqual(table);
    const old = parseShared(shared);
    expect(old.ok && old.value.ui.table).toBeUndefined();
  });
  it('refuses a bad table, naming the place', () => {
    const bad = parseShared({ ...shared, ui: { ...shared.ui, table: { ...table, filters: [{ id: 'advantage', min: 'x' }] } } });
    expect(!bad.ok && bad.message).toContain('ui.table.filters.0');
    const infinite = parseShared({ ...shared, ui: { ...shared.ui, table: { ...table, filters: [{ id: 'advantage', max: Infinity }] } } });
    expect(infinite.ok).toBe(false);
    const empty = parseShared({ ...shared, ui: { ...shared.ui, table: { ...table, sortKey: '' } } });
    expect(!empty.ok && empty.message).toContain('ui.table.sortKey');
  });
});

describe('session files from others (issue 20)', () => {
  const withDoc = (d: SessionDoc, runs: Map<number, RunPayload>) => readSessionFile(writeSessionFile({ doc: d, data: new Uint8Array(5), runs }));

  it('a run summary that disagrees with the scores is recomputed from them', () => {
    // run1: statuses ok, ok, error; ok scores 0.5 and 0 → 2 ok, 1 error, mean 0.25 (whatever the file claims).
    const lying: SessionDoc = {
      ...doc,
      runs: [{ ...doc.runs[0], id: 1, summary: { rows: 3, ok: 3, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: 0.99 } }],
      currentRunId: 1,
    };
    const r = withDoc(lying, new Map([[1, run1]]));
    if (!r.ok) throw new Error(r.message);
    expect(r.content.doc.runs[0].summary).toEqual({ rows: 3, ok: 2, nulls: 0, errors: 1, timedOut: 0, pending: 0, mean: 0.25 });
  });

  it('a status byte out of range leaves the run out, naming the row and the entry', () => {
    const d: SessionDoc = { ...doc, runs: [{ ...doc.runs[0], id: 1 }], currentRunId: 1 };
    const r = withDoc(d, new Map([[1, { ...run1, status: new Uint8Array([1, 9, 3]) }]]));
    if (!r.ok) throw new Error(r.message);
    expect(r.warnings).toEqual(['run #1: row 1 has status 9 (runs/1/status.u8 holds 0–4), so the run was left out']);
    expect(r.content.doc.runs).toEqual([]);
  });

  it('components named __proto__, constructor and toString are kept as components; errors and notes outside the rows are dropped', () => {
    const components = Object.create(null) as Record<string, Float64Array>;
    for (const name of ['__proto__', 'constructor', 'toString'])
      Object.defineProperty(components, name, { value: new Float64Array([1, 2, 3]), enumerable: true });
    const d: SessionDoc = { ...doc, runs: [{ ...doc.runs[0], id: 1 }], currentRunId: 1 };
    const r = withDoc(
      d,
      new Map([
        [
          1,
          {
            ...run1,
            components,
            errors: [
              { row: 7, message: 'x' },
              { row: 2, message: 'boom' },
            ],
            notes: [
              [-1, 'no'],
              [0, 'fine'],
            ],
          },
        ],
      ]),
    );
    if (!r.ok) throw new Error(r.message);
    const run = r.content.runs.get(1)!;
    expect(Object.keys(run.components).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Array.from(Object.getOwnPropertyDescriptor(run.components, '__proto__')!.value as Float64Array)).toEqual([1, 2, 3]);
    expect([run.errors.map((e) => e.row), run.notes]).toEqual([[2], [[0, 'fine']]]);
  });

  it('a zip bomb is refused from its declared sizes; entries that are not a session’s are skipped, not counted', () => {
    const zeros = new Uint8Array(32 * 2 ** 20);
    const bomb = zipSync({ 'session.json': strToU8(JSON.stringify(doc)), data: [zeros, { level: 9 }] });
    expect(readSessionFile(bomb)).toEqual({
      ok: false,
      message: 'the session file was refused: its entry data would inflate to more than 1000 times its size, or the file past 2 GiB',
    });
    const extra = zipSync({
      'session.json': strToU8(JSON.stringify({ ...doc, runs: [], currentRunId: null })),
      data: new Uint8Array(5),
      'padding.bin': [zeros, { level: 9 }],
    });
    expect(readSessionFile(extra).ok).toBe(true);
  });
});

describe('share links from others (issue 20)', () => {
  it('a body that would inflate past 64 MiB is refused', () => {
    const zeros = new Uint8Array(80 * 2 ** 20);
    const link = toBase64Url(encodeFrame(JSON.stringify({ v: 2 }), zeros, SHARE_VERSION));
    expect(decodeShare(link)).toEqual({ ok: false, reason: 'invalid', message: 'the link was refused: its body would inflate past 64 MiB' });
  });
});

describe('run names and notes (issue 21)', () => {
  const named = { ...shared, run: { ...shared.run!, name: 'exact match', note: 'baseline\nbefore the format bonus' } };

  it('travel in a link and in a session file', () => {
    const r = decodeShare(encodeShare(named));
    expect(r.ok && r.session.run).toMatchObject({ name: 'exact match', note: 'baseline\nbefore the format bonus' });
    const withNames: SessionDoc = { ...doc, runs: [{ ...doc.runs[0], name: 'first', note: 'a note' }, doc.runs[1]] };
    const f = readSessionFile(
      writeSessionFile({
        doc: withNames,
        data: new Uint8Array(0),
        runs: new Map([
          [1, run1],
          [2, run2],
        ]),
      }),
    );
    expect(f.ok && f.content.doc.runs[0]).toMatchObject({ name: 'first', note: 'a note' });
  });

  it('an older run without them stays valid', () => {
    expect(parseShared(shared).ok).toBe(true);
  });

  it('a note over the limit or a name with a text-direction override is refused, naming the place', () => {
    const long = parseShared({ ...shared, run: { ...shared.run!, note: 'x'.repeat(2001) } });
    expect(long).toEqual({ ok: false, reason: 'invalid', message: 'the link (v2) is not valid: run.note: expected at most 2000 characters' });
    const bidi = parseSessionDoc({ ...doc, runs: [{ ...doc.runs[0], name: 'gpt\u202Etxt.exe' }] });
    expect(bidi).toEqual({ ok: false, reason: 'invalid', message: 'the session (v1) is not valid: runs.0.name: holds control or text-direction characters' });
    expect(parseSessionDoc({ ...doc, runs: [{ ...doc.runs[0], name: 42 }] }).ok).toBe(false);
  });
});
