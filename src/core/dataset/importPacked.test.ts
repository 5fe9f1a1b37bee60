import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ImportError, type ByteSource, type ImportOptions } from '../formats/types';
import { labelColumns, type LabelColumn } from './labelColumns';
import { loadAll } from './loadAll';
import { importPacked, planPieces, runPieceHere, type PackedEvent, type Parallelism } from './importPacked';
import { Packer, previewsOf, type PackedBatch } from './packed';

const source = (text: string | Uint8Array, name = 'data.jsonl'): ByteSource => ({ name, blob: new Blob([text as BlobPart]) });
const jsonl = (rows: unknown[], eol = '\n') => rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join(eol) + eol;

/** Pieces run in this thread (the data worker runs them in workers: same code, `runPieceHere` instead of postMessage). */
const inPieces = (pieces: number, minPieceBytes = 1): Parallelism & { started: number } => {
  const par = {
    pieces,
    minPieceBytes,
    started: 0,
    run: (...args: Parameters<Parallelism['run']>) => {
      par.started++;
      return runPieceHere(...args);
    },
  };
  return par;
};

/** Everything an import gives, concatenated over its batches (what the main thread's DatasetBuilder assembles). */
async function collect(src: ByteSource, par?: Parallelism, opts: ImportOptions = {}) {
  const out = {
    detection: null as unknown,
    line: [] as number[],
    groupOf: [] as number[],
    charLength: [] as number[],
    step: [] as number[],
    previews: [] as string[],
    groups: [] as string[],
    pairOf: [] as number[],
    pairSide: [] as number[],
    pairs: [] as (string | null)[],
    issues: [] as { line: number; reason: string }[],
    spans: [] as number[],
    progress: [] as number[],
    labels: null as LabelColumn[] | null,
  };
  for await (const e of importPacked(src, opts, par) as AsyncGenerator<PackedEvent>) {
    if (e.kind === 'meta') out.detection = e.detection;
    else if (e.kind === 'labels') out.labels = e.columns;
    else if (e.kind === 'batch') {
      const b = e.batch;
      out.line.push(...b.line);
      out.groupOf.push(...b.groupOf);
      out.charLength.push(...b.charLength);
      out.step.push(...b.step);
      out.previews.push(...previewsOf(b));
      out.groups.push(...b.newGroups);
      out.pairOf.push(...b.pairOf);
      out.pairSide.push(...b.pairSide);
      out.pairs.push(...b.newPairs);
      out.issues.push(...b.issues);
      out.spans.push(...(e.spans ?? []));
      out.progress.push(b.bytesRead);
      expect(b.newPairKeys).toBeUndefined();
    }
  }
  return out;
}

/** GRPO-style rows: groups of 3 by `uid`, with a step, unicode, and a malformed line every 97 lines. */
function grpoText(n: number, eol = '\n'): string {
  const rows: unknown[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 97 === 50) rows.push('{"prompt": broken');
    // Label-like fields: `correct` from row 10 on, `score` numbers, `mixed` a number until row 450, then a string.
    const labels = { ...(i >= 10 ? { correct: i % 4 === 0 } : {}), score: i / 8, mixed: i < 450 ? i : 'text' };
    rows.push({
      prompt: `Question ${Math.floor(i / 3)}: ${'why '.repeat(i % 5)}?`,
      completion: `réponse ${i} ${'日本'.repeat(i % 9)}\nA: ${i % 10}`,
      uid: `q${Math.floor(i / 3)}`,
      step: Math.floor(i / 100),
      ...labels,
    });
  }
  return jsonl(rows, eol);
}

describe('planPieces', () => {
  it('cuts after the first newline at or past each even share of the bytes', async () => {
    // 40 bytes: lines of 10 bytes ({"k":123}\n). Three pieces: planned cuts at 13 and 26 → the newlines at 19 and 29.
    const blob = new Blob(['{"k":123}\n'.repeat(4)]);
    expect(await planPieces(blob, 3, 1)).toEqual([0, 20, 30, 40]);
    expect(await planPieces(blob, 2, 1)).toEqual([0, 30, 40]); // planned 20 is the start of a line: cut at the next newline
    expect(await planPieces(blob, 2, 21)).toBeNull(); // two pieces of at least 21 bytes do not fit in 40
    expect(await planPieces(blob, 1, 1)).toBeNull();
  });

  it('gives the first piece its weight relative to the others', async () => {
    const blob = new Blob(['{"k":123}\n'.repeat(4)]);
    // Weight 0.5, two pieces: planned cut at 40 × 0.5 / 1.5 = 13 → the newline at 19. Three pieces: 40 × 0.5 / 2.5 = 8
    // and 40 × 1.5 / 2.5 = 24 → the newlines at 9 and 29.
    expect(await planPieces(blob, 2, 1, 0.5)).toEqual([0, 20, 40]);
    expect(await planPieces(blob, 3, 1, 0.5)).toEqual([0, 10, 30, 40]);
  });

  it('reads in one piece what is not plain JSONL', async () => {
    const lines = '{"k":123}\n'.repeat(8);
    expect(await planPieces(new Blob([gzipSync(lines)]), 2, 1)).toBeNull();
    expect(await planPieces(new Blob(['[' + lines.replace(/\n/g, ',') + '1]']), 2, 1)).toBeNull();
    expect(await planPieces(new Blob(['prompt,completion\n' + 'a,b\n'.repeat(20)]), 2, 1)).toBeNull();
    expect(await planPieces(new Blob(['\ufeff \n' + lines]), 2, 1)).not.toBeNull(); // BOM and blank line first: still JSONL
    expect(await planPieces(new Blob(['{"k":"' + 'x'.repeat(100) + '"}']), 2, 1)).toBeNull(); // no newline to cut at
  });
});

describe('importPacked in pieces', () => {
  it('gives exactly what a sequential import gives (groups and lines across cuts, issues, unicode, spans)', async () => {
    for (const eol of ['\n', '\r\n']) {
      const src = source(grpoText(600, eol));
      const one = await collect(src);
      for (const pieces of [2, 3, 4]) {
        const par = inPieces(pieces);
        const many = await collect(src, par);
        expect(par.started).toBe(pieces - 1);
        const { progress: p1, ...a } = one;
        const { progress: p2, ...b } = many;
        expect(b).toEqual(a);
        expect(p2.at(-1)).toBe(src.blob.size);
        expect(p1.at(-1)).toBe(src.blob.size);
      }
      expect(one.issues.map((i) => i.line)).toEqual([51, 149, 247, 345, 443, 541]);
      // 200 uids, of which q33, q66, q133 and q166 (rows 99–101, 198–200, 399–401, 498–500) straddle a step: a group
      // never spans two steps, so each of those is two groups.
      expect(one.groups.length).toBe(204);
      // The label columns collected while reading are labelColumns() of all the rows.
      expect(one.labels).toEqual(labelColumns((await loadAll(src)).rows));
      expect(one.labels?.map((c) => [c.name, c.binary])).toEqual([
        ['score', false],
        ['correct', true],
      ]);
      expect(one.labels?.[1].values.slice(8, 13)).toEqual(new Float64Array([Number.NaN, Number.NaN, 0, 0, 1]));
    }
  });

  it('numbers preference pairs across pieces as one import does, a pair id repeated in a later piece included', async () => {
    const rows: unknown[] = [];
    for (let i = 0; i < 300; i++)
      rows.push({ id: `p${i % 120}`, prompt: `q${i % 40}`, chosen: `good ${i}`, rejected: `bad ${i}`, subset: i % 2 ? 'math' : 'chat' });
    const src = source(jsonl(rows));
    const one = await collect(src);
    const many = await collect(src, inPieces(3));
    expect(many.pairOf).toEqual(one.pairOf);
    expect(many.pairs).toEqual(one.pairs);
    expect(one.pairs.length).toBe(120);
    expect(many.pairSide).toEqual(one.pairSide);
    expect(many.groupOf).toEqual(one.groupOf);
  });

  it('falls back to one piece when the first piece cannot decide alone', async () => {
    // A pretty-printed JSON document starting with "{": one record, container json.
    const pretty = JSON.stringify({ prompt: 'p', completion: 'c', pad: 'x'.repeat(200) }, null, 2);
    const a = await collect(source(pretty, 'doc.json'), inPieces(2));
    expect(a.detection).toMatchObject({ container: 'json' });
    expect(a.line).toEqual([1]);
    // Fewer records than format detection samples in the first piece (long lines): the sequential import decides.
    const long = jsonl(Array.from({ length: 60 }, (_, i) => ({ prompt: `p${i}`, completion: 'c'.repeat(i < 30 ? 5000 : 10) })));
    const par = inPieces(2);
    const b = await collect(source(long), par);
    expect(par.started).toBe(0);
    expect(b.line.length).toBe(60);
  });

  it('fails with no usable rows when no piece gives a row, listing the first issues', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ prompt: `p${i}`, text: 'no completion column' }));
    const err = await collect(source(jsonl(rows)), inPieces(2), { format: 'trl-standard' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('no-rows');
    expect((err as ImportError).message).toBe('No usable rows in data.jsonl: 200 lines failed (first: line 1: completion: missing).');
    expect((err as ImportError).detail?.issues?.length).toBe(20);
  });

  it('stops every piece when cancelled', async () => {
    const src = source(grpoText(3000));
    const abort = new AbortController();
    const seen: number[] = [];
    const run = (async () => {
      for await (const e of importPacked(src, { signal: abort.signal, batchSize: 100 }, inPieces(3))) {
        if (e.kind === 'batch') {
          seen.push(e.batch.line.length);
          abort.abort();
        }
      }
    })();
    const err = await run.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect((err as ImportError).code).toBe('cancelled');
    expect(seen.length).toBe(1);
  });
});

describe('Packer.adopt', () => {
  it('renumbers a later piece into the first-seen order of the whole file (worked by hand)', () => {
    const t = (line: number, group: string, pairId?: string, side?: 'chosen' | 'rejected') =>
      ({
        id: String(line),
        index: -1,
        line,
        group,
        prompt: '',
        completion: 'c',
        messages: [],
        fields: {},
        ...(pairId ? { pairId, preference: side } : {}),
      }) as never;
    const whole = new Packer();
    whole.pack([t(1, 'a', 'x', 'chosen'), t(1, 'a', 'x', 'rejected'), t(2, 'b')], [], 0, 0);
    // The piece starts at file line 3 (lineOffset 2); its own numbering: c=0, a=1; pairs y=0, x=1.
    const piece = new Packer({ pairKeys: true });
    const b: PackedBatch = piece.pack([t(1, 'c', 'y', 'chosen'), t(1, 'c', 'y', 'rejected'), t(2, 'a', 'x', 'chosen')], [{ line: 3, reason: 'bad' }], 0, 0);
    expect([...b.groupOf]).toEqual([0, 0, 1]);
    expect(b.newPairKeys).toEqual(['y', 'x']);
    const numbering = { groups: [], pairs: [] };
    whole.adopt(b, 2, numbering);
    expect([...b.line]).toEqual([3, 3, 4]);
    expect([...b.groupOf]).toEqual([2, 2, 0]); // c is new (2), a was group 0
    expect(b.newGroups).toEqual(['c']);
    expect([...b.pairOf]).toEqual([1, 1, 0]); // y is new (1), x was pair 0
    expect(b.newPairs).toEqual([null]);
    expect(b.issues).toEqual([{ line: 5, reason: 'bad' }]);
    expect(numbering).toEqual({ groups: [2, 0], pairs: [1, 0] });
  });
});

describe('importPacked of a gzip-compressed file', () => {
  /** Every event of an import, and the decompressed bytes it handed out. */
  async function events(src: ByteSource, par?: Parallelism) {
    const kinds: string[] = [];
    let decompressed: Uint8Array | null = null;
    for await (const e of importPacked(src, {}, par)) {
      if (kinds.at(-1) !== e.kind) kinds.push(e.kind);
      if (e.kind === 'decompressed') decompressed = new Uint8Array(await e.blob.arrayBuffer());
    }
    return { kinds, decompressed };
  }

  it('imports the decompressed bytes as the plain file: same rows, groups, issues and spans (into those bytes)', async () => {
    for (const text of [grpoText(900), grpoText(300, '\r\n')]) {
      const plainBytes = new TextEncoder().encode(text);
      const gz = source(gzipSync(plainBytes), 'data.jsonl.gz');
      const { detection: plainDetection, progress: plainProgress, ...plain } = await collect(source(text));
      const { detection, progress, ...got } = await collect(gz);
      expect(got).toEqual(plain);
      expect(plain.spans.length).toBeGreaterThan(0);
      expect(detection).toEqual({ ...(plainDetection as object), gzip: true });
      // Progress is on the compressed file's scale and ends at its size; the plain import's ended at its own.
      expect(plainProgress.at(-1)).toBe(plainBytes.length);
      expect(progress.at(-1)).toBe(gz.blob.size);
      for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
      // The decompressed bytes come first, before the format is decided, and in pieces too.
      for (const par of [undefined, inPieces(3)]) {
        const { kinds, decompressed } = await events(gz, par);
        expect(kinds.slice(0, 3)).toEqual(['decompressed', 'meta', 'batch']);
        expect(decompressed).toEqual(plainBytes);
      }
    }
  });

  it('a chat format (read by the stream, not the scanner) and CSV: the same rows as the plain file', async () => {
    const chat = jsonl(
      Array.from({ length: 40 }, (_, i) => ({
        messages: [
          { role: 'user', content: `q${i}` },
          { role: 'assistant', content: `a${i} ü`, tool_calls: i % 3 ? undefined : [{ type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
        ],
      })),
    );
    const csv = 'prompt,completion\n"a, b",c\nd,"e\nf"\n';
    for (const [text, name] of [
      [chat, 'chat.jsonl'],
      [csv, 'rows.csv'],
    ]) {
      const { detection: d0, progress: p0, ...plain } = await collect(source(text, name));
      const { detection, progress, ...got } = await collect(source(gzipSync(text), `${name}.gz`));
      expect(got).toEqual(plain);
      expect(detection).toMatchObject({ container: (d0 as { container: string }).container, gzip: true });
      expect(p0.length).toBe(progress.length);
    }
  });

  it('a file cut short is read as a stream, as before: the rows before the cut and an issue saying where', async () => {
    const text = grpoText(600);
    const gz = gzipSync(text);
    const cut = source(gz.subarray(0, gz.length - 2000), 'data.jsonl.gz');
    const { kinds } = await events(cut);
    expect(kinds).not.toContain('decompressed');
    const got = await collect(cut);
    expect(got.line.length).toBeGreaterThan(100);
    expect(got.spans).toEqual([]);
    expect(got.issues.at(-1)?.reason).toMatch(/^the gzip stream ends early, so the file is cut short \(.+\): the rows before this point were loaded$/);
  });
});

describe('importPacked of a format read by the stream (packed as the rows come)', () => {
  /** A chat dump: groups by uid, steps, a tool call every third row, and broken or invalid lines among them. */
  function chatText(n: number): string {
    const rows: unknown[] = [];
    for (let i = 0; i < n; i++) {
      if (i % 211 === 7) rows.push('{"messages": broken');
      if (i % 307 === 11) rows.push({ messages: [{ role: 'user', content: 'no answer' }] }); // no assistant turn
      rows.push({
        messages: [
          { role: 'user', content: `q${Math.floor(i / 4)} ${'é'.repeat(i % 3)}` },
          { role: 'assistant', content: `a${i}`, tool_calls: i % 3 ? undefined : [{ type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
        ],
        uid: `u${Math.floor(i / 4)}`,
        step: Math.floor(i / 500),
        correct: i % 2 === 0,
      });
    }
    return jsonl(rows);
  }

  /** What the page is given of a batch. */
  const seen = (b: PackedBatch, spans: Iterable<number> | undefined) => ({
    rows: b.line.length,
    issues: b.issues.map((x) => x.line),
    spans: [...(spans ?? [])],
    line: [...b.line],
    groupOf: [...b.groupOf],
    bytesRead: b.bytesRead,
  });

  /** The page's batches as before: importStream's own batches of `batchSize`, each packed whole. */
  async function packedWhole(src: ByteSource, batchSize?: number) {
    const { importStream } = await import('../formats/import-stream');
    const packer = new Packer();
    const batches: ReturnType<typeof seen>[] = [];
    for await (const e of importStream(src, { batchSize })) {
      if (e.type === 'rows') batches.push(seen(packer.pack(e.rows, e.issues, e.bytesRead, e.totalBytes), e.spans));
    }
    return batches;
  }

  async function packedHere(src: ByteSource, batchSize?: number) {
    const batches: ReturnType<typeof seen>[] = [];
    for await (const e of importPacked(src, { batchSize })) if (e.kind === 'batch') batches.push(seen(e.batch, e.spans));
    return batches;
  }

  it.each([undefined, 300, 128, 50, 1])('gives the batches importStream gives at that size, with their issues and spans (batchSize %s)', async (batchSize) => {
    const src = source(chatText(4500), 'chat.jsonl');
    const want = await packedWhole(src, batchSize);
    const got = await packedHere(src, batchSize);
    // The same rows, groups, spans and issues in the same order, in batches of the same sizes. (An issue may come one
    // batch earlier than before: importStream now hands out rows before it has read as far.)
    const joined = (bs: typeof got) => ({
      rows: bs.map((b) => b.rows),
      line: bs.flatMap((b) => b.line),
      groupOf: bs.flatMap((b) => b.groupOf),
      spans: bs.flatMap((b) => b.spans),
      issues: bs.flatMap((b) => b.issues),
      bytesRead: bs.at(-1)?.bytesRead,
    });
    expect(joined(got)).toEqual(joined(want));
    // The page's batches keep their size: 2,000 rows unless asked otherwise, though importStream now gives 128 at a time.
    const size = batchSize ?? 2000;
    expect(got.map((b) => b.rows)).toEqual([...Array<number>(Math.floor(4500 / size)).fill(size), ...(4500 % size ? [4500 % size] : [])]);
    expect(joined(got).issues).toHaveLength(22 + 15);
    expect(joined(got).issues).toEqual([...joined(got).issues].sort((a, b) => a - b));
  });

  it('hands the trajectories to the page where there are no spans (a JSON document), in the same batches', async () => {
    const rows = Array.from({ length: 700 }, (_, i) => ({
      messages: [
        { role: 'user', content: `q${i}` },
        { role: 'assistant', content: `a${i}` },
      ],
    }));
    const got: number[][] = [];
    for await (const e of importPacked(source(JSON.stringify(rows), 'chat.json'), { batchSize: 300 })) {
      if (e.kind !== 'batch') continue;
      expect(e.spans).toBeUndefined();
      expect(e.rows?.map((t) => t.line)).toEqual([...e.batch.line]);
      got.push([...e.batch.line]);
    }
    expect(got.map((l) => l.length)).toEqual([300, 300, 100]);
    expect(got.flat()).toEqual(Array.from({ length: 700 }, (_, i) => i + 1));
  });

  it('in pieces, gives what one piece gives', async () => {
    const src = source(chatText(3000), 'chat.jsonl');
    const { progress: p1, ...one } = await collect(src, undefined, { batchSize: 300 });
    const { progress: p3, ...three } = await collect(src, inPieces(3), { batchSize: 300 });
    expect(three).toEqual(one);
    expect(p1.at(-1)).toBe(p3.at(-1));
  });
});
