/// <reference lib="webworker" />
import { labelColumns } from '../src/core/dataset/labelColumns';
import { batchTransfer, Packer } from '../src/core/dataset/packed';
import { searchTrajectories } from '../src/core/dataset/search';
import { importStream } from '../src/core/formats';
import { ImportError } from '../src/core/formats/types';
import { preferenceAccuracy } from '../src/core/stats/preference';
import type { Trajectory } from '../src/core/trajectory';
import type { DataReply, DataRequest } from '../src/runtime/importProtocol';
import { loadTokenCounter } from '../src/runtime/tokenizerLoader';

declare const self: DedicatedWorkerGlobalScope;
const running = new Map<number, AbortController>();
/** The last successful import: what queries are answered from. */
let committed: { key: number; rows: Trajectory[] } | null = null;
const post = (m: DataReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);
const rowsOf = (key: number) => (committed?.key === key ? committed.rows : null);

self.onmessage = async (ev: MessageEvent<DataRequest>) => {
  const m = ev.data;
  if (m.kind === 'cancel') return void running.get(m.jobId)?.abort();
  if (m.kind === 'get') {
    const rows = rowsOf(m.key);
    return post({ kind: 'rows', reqId: m.reqId, rows: rows ? m.indices.map((i) => rows[i]).filter(Boolean) : null });
  }
  if (m.kind === 'search') {
    const rows = rowsOf(m.key);
    const hits = rows ? searchTrajectories(rows, m.needle) : null;
    return post({ kind: 'hits', reqId: m.reqId, hits }, hits ? [hits.buffer] : []);
  }
  if (m.kind === 'labels') {
    const rows = rowsOf(m.key);
    const columns = rows ? labelColumns(rows) : null;
    return post({ kind: 'labels', reqId: m.reqId, columns }, columns ? columns.map((c) => c.values.buffer as ArrayBuffer) : []);
  }
  if (m.kind === 'preference') {
    try {
      return post({ kind: 'preference', reqId: m.reqId, result: preferenceAccuracy(m.scores, m.status, m.pairs) });
    } catch (e) {
      return post({ kind: 'preference', reqId: m.reqId, result: null, error: e instanceof Error ? e.message : String(e) });
    }
  }
  if (m.kind === 'tokens') {
    const rows = rowsOf(m.key);
    if (!rows) return post({ kind: 'tokens', reqId: m.reqId, counts: null });
    try {
      const count = await loadTokenCounter(m.tokenizer);
      const counts = new Int32Array(rows.length);
      let last = performance.now();
      for (let i = 0; i < rows.length; i++) {
        counts[i] = count(rows[i].completion);
        // Tokenizing runs at roughly 2,000–5,000 completions a second: tell the page how far it is.
        if ((i & 255) === 255 && performance.now() - last > 200) {
          last = performance.now();
          post({ kind: 'tokens-progress', reqId: m.reqId, done: i + 1, total: rows.length });
        }
      }
      return post({ kind: 'tokens', reqId: m.reqId, counts }, [counts.buffer]);
    } catch (e) {
      return post({ kind: 'tokens', reqId: m.reqId, counts: null, error: e instanceof Error ? e.message : String(e) });
    }
  }
  const abort = new AbortController();
  running.set(m.jobId, abort);
  const packer = new Packer();
  const rows: Trajectory[] = [];
  try {
    for await (const e of importStream({ name: m.name, blob: m.blob }, { ...m.opts, signal: abort.signal })) {
      if (e.type === 'meta') post({ kind: 'meta', jobId: m.jobId, detection: e.detection });
      else if (e.type === 'rows') {
        for (const r of e.rows) rows.push(r);
        const batch = packer.pack(e.rows, e.issues, e.bytesRead, e.totalBytes);
        post({ kind: 'batch', jobId: m.jobId, batch }, batchTransfer(batch));
      }
    }
    committed = { key: m.jobId, rows };
    post({ kind: 'done', jobId: m.jobId });
  } catch (e) {
    const error = e instanceof ImportError ? { code: e.code, message: e.message, detail: e.detail } : { code: 'internal' as const, message: e instanceof Error ? e.message : String(e) };
    post({ kind: 'failed', jobId: m.jobId, error });
  } finally {
    running.delete(m.jobId);
  }
};
