import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { DataReply, DataRequest } from '../runtime/importProtocol';
import { serveDataWorker } from './dataWorker';

/** The worker's loop on a fake scope: what it posts, and a way to wait for a reply. */
function serve() {
  const posted: DataReply[] = [];
  const waiting: { test: (m: DataReply) => boolean; resolve: (m: DataReply) => void }[] = [];
  const scope = {
    onmessage: null as ((ev: MessageEvent<DataRequest>) => Promise<void>) | null,
    postMessage: (m: DataReply) => {
      posted.push(m);
      for (const w of waiting.splice(0))
        if (w.test(m)) w.resolve(m);
        else waiting.push(w);
    },
  };
  serveDataWorker(scope as unknown as Parameters<typeof serveDataWorker>[0]);
  const send = (req: DataRequest) => scope.onmessage!({ data: req } as MessageEvent<DataRequest>);
  const reply = (test: (m: DataReply) => boolean) => new Promise<DataReply>((resolve) => waiting.push({ test, resolve }));
  return { posted, send, reply };
}

const file = (completions: string[]) => new Blob([completions.map((c) => JSON.stringify({ prompt: 'p', completion: c })).join('\n') + '\n']);

async function imported(w: ReturnType<typeof serve>, jobId: number, completions: string[]): Promise<void> {
  const ended = w.reply((m) => 'jobId' in m && m.jobId === jobId && (m.kind === 'done' || m.kind === 'failed'));
  void w.send({ kind: 'import', jobId, blob: file(completions), name: `f${jobId}.jsonl`, opts: {} });
  expect((await ended).kind).toBe('done');
}

async function completionsOf(w: ReturnType<typeof serve>, key: number, reqId: number): Promise<string[] | null> {
  const got = w.reply((m) => m.kind === 'rows' && m.reqId === reqId);
  void w.send({ kind: 'get', reqId, key, indices: [0, 1] });
  const m = await got;
  return m.kind === 'rows' && m.rows ? m.rows.map((t) => t.completion) : null;
}

describe('the data worker', () => {
  it('over steps: the truncated rows are made here from the fields and the maximum length', async () => {
    const w = serve();
    // Two steps of two rows. Step 0: row 0's fields say cut, row 1 is long (≥ 100); step 1: row 2 says not cut though
    // long, row 3 is short. So with a maximum of 100: step 0 2/2 truncated, step 1 0/2; without one: 1/2 and 0/2.
    const columns = {
      scores: new Float64Array([1, 0, 1, 0]),
      groupOf: new Int32Array([0, 0, 1, 1]),
      groupCount: 2,
      steps: new Float64Array([0, 0, 1, 1]),
      lengths: new Int32Array([10, 150, 120, 5]),
    };
    const fields = new Float64Array([1, NaN, 0, NaN]);
    const share = async (reqId: number, maxLength: number | null) => {
      const got = w.reply((m) => m.kind === 'over-steps' && m.reqId === reqId);
      void w.send({ kind: 'over-steps', reqId, columns, truncation: { fields, maxLength } });
      const m = await got;
      return m.kind === 'over-steps' ? m.result?.steps.map((s) => s.truncated) : undefined;
    };
    expect(await share(1, 100)).toEqual([1, 0]);
    expect(await share(2, null)).toEqual([0.5, 0]);
  });

  it('keeps the shown import when the page cancels one that had already ended (the click crossed its `done`)', async () => {
    const w = serve();
    await imported(w, 1, ['a', 'b']);
    void w.send({ kind: 'adopt', key: 1 });
    await imported(w, 2, ['c', 'd']);
    void w.send({ kind: 'cancel', jobId: 2 });
    expect(await completionsOf(w, 1, 10)).toEqual(['a', 'b']);
    expect(await completionsOf(w, 2, 11)).toBeNull();
  });

  it('drops every other import once the page adopts one', async () => {
    const w = serve();
    await imported(w, 1, ['a', 'b']);
    void w.send({ kind: 'adopt', key: 1 });
    await imported(w, 2, ['c', 'd']);
    // Until the page adopts it, both are answered for (the page still shows the first).
    expect(await completionsOf(w, 1, 10)).toEqual(['a', 'b']);
    void w.send({ kind: 'adopt', key: 2 });
    expect(await completionsOf(w, 2, 11)).toEqual(['c', 'd']);
    expect(await completionsOf(w, 1, 12)).toBeNull();
  });

  it('keeps the import the page shows when the page cancels it (a dataset of several files, its first file shown)', async () => {
    const w = serve();
    await imported(w, 3, ['e', 'f']);
    void w.send({ kind: 'adopt', key: 3 });
    void w.send({ kind: 'cancel', jobId: 3 });
    expect(await completionsOf(w, 3, 10)).toEqual(['e', 'f']);
  });

  it('answers a text search from the file, and stops an older search when a newer one comes', async () => {
    const w = serve();
    await imported(
      w,
      4,
      Array.from({ length: 5000 }, (_, i) => `answer ${i}`),
    );
    const hits = (reqId: number) => w.reply((m) => m.kind === 'hits' && m.reqId === reqId);
    const first = hits(20);
    const second = hits(21);
    void w.send({ kind: 'search', reqId: 20, key: 4, needle: 'answer 1' });
    void w.send({ kind: 'search', reqId: 21, key: 4, needle: 'answer 4999' });
    expect(await first).toMatchObject({ hits: null, error: 'a newer search replaced this one' });
    const m = await second;
    expect(m.kind === 'hits' && m.hits ? Array.from(m.hits) : null).toEqual([4999]);
    // A dataset that is gone has no hits, and no error.
    const gone = hits(22);
    void w.send({ kind: 'search', reqId: 22, key: 99, needle: 'x' });
    expect(await gone).toMatchObject({ hits: null });
  });

  it('a gzip JSONL import: rows read back from its bytes decompressed, which go to the page with the spans into them', async () => {
    const w = serve();
    const text = '{"prompt":"p","completion":"a"}\n\n{"prompt":"p","completion":"bé"}\n';
    const ended = w.reply((m) => 'jobId' in m && m.jobId === 7 && (m.kind === 'done' || m.kind === 'failed'));
    void w.send({ kind: 'import', jobId: 7, blob: new Blob([gzipSync(text)]), name: 'f.jsonl.gz', opts: {} });
    const done = await ended;
    if (done.kind !== 'done') throw new Error(`import ${done.kind}`);
    // Worked by hand: line 1 is bytes 0–31, line 3 bytes 33–66 (33 bytes: é is two).
    expect(done.spans).toEqual(Float64Array.from([0, 31, 33, 66]));
    expect(await done.decompressed?.text()).toBe(text);
    expect(await completionsOf(w, 7, 30)).toEqual(['a', 'bé']);
    const hits = w.reply((m) => m.kind === 'hits' && m.reqId === 31);
    void w.send({ kind: 'search', reqId: 31, key: 7, needle: 'BÉ' });
    const m = await hits;
    expect(m.kind === 'hits' && m.hits ? Array.from(m.hits) : null).toEqual([1]);
    // A plain file has no decompressed bytes to send.
    await imported(w, 8, ['x']);
    expect(w.posted.find((r) => r.kind === 'done' && r.jobId === 8)).not.toHaveProperty('decompressed');
  });

  it("a dataset of a plain and a gzip file: the gzip part's decompressed bytes go with its spans; every row reads back", async () => {
    const w = serve();
    const lines = (cs: string[]) => cs.map((c) => JSON.stringify({ prompt: 'p', completion: c })).join('\n') + '\n';
    const parts = [
      { blob: new Blob([lines(['a', 'b'])]), name: '1.jsonl', step: 1 },
      { blob: new Blob([gzipSync(lines(['c', 'dé']))]), name: '2.jsonl.gz', step: 2 },
    ];
    const ended = w.reply((m) => 'jobId' in m && m.jobId === 9 && (m.kind === 'done' || m.kind === 'failed'));
    void w.send({ kind: 'import', jobId: 9, blob: parts[0].blob, name: 'run', opts: {}, parts });
    expect((await ended).kind).toBe('done');
    const read = w.posted.filter((m) => m.kind === 'part' && m.rows !== undefined);
    expect(read.map((m) => (m.kind === 'part' ? [m.index, m.rows, m.spans?.length, m.decompressed === undefined] : null))).toEqual([
      [0, 2, 4, true],
      [1, 2, 4, false],
    ]);
    const second = read[1];
    expect(second.kind === 'part' ? await second.decompressed?.text() : null).toBe(lines(['c', 'dé']));
    const got = w.reply((m) => m.kind === 'rows' && m.reqId === 40);
    void w.send({ kind: 'get', reqId: 40, key: 9, indices: [0, 1, 2, 3] });
    const m = await got;
    expect(m.kind === 'rows' && m.rows ? m.rows.map((t) => [t.completion, t.step]) : null).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 2],
      ['dé', 2],
    ]);
  });

  it('answers the preference check from the rows of the file, read again without keeping them', async () => {
    const w = serve();
    const rows = Array.from({ length: 6 }, (_, i) => JSON.stringify({ prompt: `q${i}`, chosen: 'a', rejected: 'b', subset: i < 3 ? 'math' : 'chat' }));
    const ended = w.reply((m) => 'jobId' in m && m.jobId === 5 && (m.kind === 'done' || m.kind === 'failed'));
    void w.send({ kind: 'import', jobId: 5, blob: new Blob([rows.join('\n') + '\n']), name: 'pairs.jsonl', opts: {} });
    expect((await ended).kind).toBe('done');
    const got = w.reply((m) => m.kind === 'pair-columns' && m.reqId === 30);
    // Rows 2i and 2i + 1 (chosen, rejected) are pair i.
    void w.send({ kind: 'pair-columns', reqId: 30, key: 5, pairOf: Int32Array.from({ length: 12 }, (_, r) => r >> 1), pairCount: 6 });
    expect(await got).toMatchObject({ columns: [{ name: 'subset', keys: ['math', 'chat'], keyOf: Int32Array.from([0, 0, 0, 1, 1, 1]) }] });
  });
});
