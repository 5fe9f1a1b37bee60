/// <reference lib="webworker" />
import type { LabelColumn } from '../core/dataset/labelColumns';
import type { CategoryColumn } from '../core/dataset/categories';
import { importPacked, type PackedEvent } from '../core/dataset/importPacked';
import { PairColumnCollector } from '../core/dataset/pairColumns';
import { batchTransfer } from '../core/dataset/packed';
import { importParts, type PartSource, type PartsEvent } from '../core/dataset/importParts';
import { RowStoreBuilder, rowsOfParts, type PartStore, type RowStore } from '../core/dataset/rowStore';
import { exportBytes } from '../core/table/rowExport';
import type { Detection } from '../core/formats/types';
import { preferenceAccuracy } from '../core/stats/preference';
import { truncatedRows } from '../core/stats/truncation';
import { overSteps } from '../core/steps/overSteps';
import { importFailure, type DataReply, type DataRequest } from '../runtime/importProtocol';
import { pieceWorkers } from './pieceWorkers';
import { loadTokenCounter } from './tokenizerLoader';

/** A finished import's rows and what was collected while reading them. */
interface Held {
  key: number;
  store: RowStore;
  labels: LabelColumn[];
  categories: CategoryColumn[];
}

/** What an import collects besides its rows: the format, and the columns' labels and categories (last event). */
interface Collected {
  detection: Detection | null;
  labels: LabelColumn[];
  categories: CategoryColumn[];
}
const collected = (): Collected => ({ detection: null, labels: [], categories: [] });

/** The import worker's message loop (workers/import.worker.ts only wires it to its scope). */
export function serveDataWorker(self: DedicatedWorkerGlobalScope): void {
  const running = new Map<number, AbortController>();
  /**
   * Finished imports by key: the one the page shows (`adopt`) and any finished since, until the page adopts one or
   * cancels it. A click on Cancel can cross the import's end: the page then keeps its data, and so must this worker.
   */
  const held = new Map<number, Held>();
  let adopted: number | null = null;
  /** The text search under way, if any. */
  let searching: AbortController | null = null;
  /** A job cancelled meanwhile is not held: the page dropped it. */
  const commit = (c: Held, abort: AbortController) => void (abort.signal.aborted || held.set(c.key, c));
  const post = (m: DataReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);
  const storeOf = (key: number) => held.get(key)?.store ?? null;
  const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

  /**
   * What both imports (one file, several) do with an event: the format, the columns collected, progress and a batch
   * (its rows' lines and spans kept in `kept`). False for the events each handles itself.
   */
  const onImportEvent = (jobId: number, e: PackedEvent | PartsEvent, got: Collected, kept: RowStoreBuilder): boolean => {
    if (e.kind === 'meta') {
      got.detection = e.detection;
      post({ kind: 'meta', jobId, detection: e.detection });
    } else if (e.kind === 'labels') {
      got.labels = e.columns;
      got.categories = e.categories;
    } else if (e.kind === 'progress') {
      post({ kind: 'progress', jobId, bytesRead: e.bytesRead, totalBytes: e.totalBytes });
    } else if (e.kind === 'batch') {
      kept.add(e.batch.line.slice(), e.spans, e.rows);
      post({ kind: 'batch', jobId, batch: e.batch }, batchTransfer(e.batch));
    } else return false;
    return true;
  };

  self.onmessage = async (ev: MessageEvent<DataRequest>) => {
    const m = ev.data;
    if (m.kind === 'cancel') {
      running.get(m.jobId)?.abort();
      // Rows of a dataset of several files that the page already shows stay: it keeps them after a cancel.
      if (m.jobId !== adopted) held.delete(m.jobId);
      return;
    }
    if (m.kind === 'adopt') {
      adopted = m.key;
      for (const key of held.keys()) if (key !== m.key) held.delete(key);
      return;
    }
    if (m.kind === 'get') {
      const store = storeOf(m.key);
      try {
        return post({ kind: 'rows', reqId: m.reqId, rows: store ? await store.get(m.indices) : null });
      } catch (e) {
        return post({ kind: 'rows', reqId: m.reqId, rows: null, error: messageOf(e) });
      }
    }
    if (m.kind === 'search') {
      // The page asks again as the user types: the newest search is the one that matters, and one can read the
      // whole file, so an older one still reading stops.
      searching?.abort();
      const abort = (searching = new AbortController());
      try {
        const store = storeOf(m.key);
        const hits = store ? await store.search(m.needle, abort.signal) : null;
        if (abort.signal.aborted) return post({ kind: 'hits', reqId: m.reqId, hits: null, error: 'a newer search replaced this one' });
        return post({ kind: 'hits', reqId: m.reqId, hits }, hits ? [hits.buffer] : []);
      } catch (e) {
        return post({ kind: 'hits', reqId: m.reqId, hits: null, error: messageOf(e) });
      } finally {
        if (searching === abort) searching = null;
      }
    }
    if (m.kind === 'labels') {
      // Collected during the import (copied to the page, not transferred: they stay here for the next request).
      return post({ kind: 'labels', reqId: m.reqId, columns: held.get(m.key)?.labels ?? null });
    }
    if (m.kind === 'categories') {
      try {
        // Collected during the import when the column has few values (a copy: ours stay for the next request);
        // otherwise read from the file (rowStore.ts).
        const kept = held.get(m.key)?.categories.find((c) => c.name === m.column);
        const store = kept ? null : storeOf(m.key);
        const c = kept ? { ...kept.categories, codes: kept.categories.codes.slice() } : store ? await store.categories(m.column) : null;
        return post({ kind: 'categories', reqId: m.reqId, categories: c }, c ? [c.codes.buffer] : []);
      } catch (e) {
        return post({ kind: 'categories', reqId: m.reqId, categories: null, error: messageOf(e) });
      }
    }
    if (m.kind === 'preference') {
      try {
        return post({ kind: 'preference', reqId: m.reqId, result: preferenceAccuracy(m.scores, m.status, m.pairs) });
      } catch (e) {
        return post({ kind: 'preference', reqId: m.reqId, result: null, error: e instanceof Error ? e.message : String(e) });
      }
    }
    if (m.kind === 'over-steps') {
      try {
        const t = m.truncation;
        const columns = t ? { ...m.columns, truncated: truncatedRows(t.fields, m.columns.lengths, t.maxLength) } : m.columns;
        return post({ kind: 'over-steps', reqId: m.reqId, result: overSteps(columns) });
      } catch (e) {
        return post({ kind: 'over-steps', reqId: m.reqId, result: null, error: messageOf(e) });
      }
    }
    if (m.kind === 'pair-columns') {
      try {
        const store = storeOf(m.key);
        if (!store) return post({ kind: 'pair-columns', reqId: m.reqId, columns: null });
        const columns = new PairColumnCollector(m.pairOf, m.pairCount, store.size);
        await store.each((t, i) => columns.add(i, t.fields));
        return post({ kind: 'pair-columns', reqId: m.reqId, columns: columns.finish() });
      } catch (e) {
        return post({ kind: 'pair-columns', reqId: m.reqId, columns: null, error: messageOf(e) });
      }
    }
    if (m.kind === 'field') {
      // A plain JSONL import reads that field from the file (rowStore.ts); others answer from their rows.
      try {
        const store = storeOf(m.key);
        if (!store) return post({ kind: 'field', reqId: m.reqId, column: null });
        const column = await store.field(m.name);
        return post({ kind: 'field', reqId: m.reqId, column }, column.kind === 'number' ? [column.values.buffer] : [column.ranks.buffer]);
      } catch (e) {
        return post({ kind: 'field', reqId: m.reqId, column: null, error: messageOf(e) });
      }
    }
    if (m.kind === 'export') {
      try {
        let last = performance.now();
        const bytes = exportBytes(m.format, m.input, (done, total) => {
          // At most five progress messages a second: each one is a task on the page.
          if (performance.now() - last < 200) return;
          last = performance.now();
          post({ kind: 'export-progress', reqId: m.reqId, done, total });
        });
        return post({ kind: 'export', reqId: m.reqId, bytes }, [bytes.buffer]);
      } catch (e) {
        return post({ kind: 'export', reqId: m.reqId, bytes: null, error: messageOf(e) });
      }
    }
    if (m.kind === 'tokens') {
      try {
        const store = storeOf(m.key);
        if (!store) return post({ kind: 'tokens', reqId: m.reqId, counts: null });
        const count = await loadTokenCounter(m.tokenizer);
        const counts = new Int32Array(store.size);
        let last = performance.now();
        // Row by row from the file for a plain JSONL import, none kept (and between reads the worker answers others).
        await store.each((t, i) => {
          counts[i] = count(t.completion);
          // Tokenizing runs at roughly 2,000–5,000 completions a second: tell the page how far it is.
          if ((i & 255) === 255 && performance.now() - last > 200) {
            last = performance.now();
            post({ kind: 'tokens-progress', reqId: m.reqId, done: i + 1, total: store.size });
          }
        });
        return post({ kind: 'tokens', reqId: m.reqId, counts }, [counts.buffer]);
      } catch (e) {
        return post({ kind: 'tokens', reqId: m.reqId, counts: null, error: messageOf(e) });
      }
    }
    if (m.parts) return importManyFiles(m, m.parts);
    const abort = new AbortController();
    running.set(m.jobId, abort);
    const source = { name: m.name, blob: m.blob };
    /** What the rows are read back from: the file, or its bytes decompressed. */
    let bytes = source;
    const kept = new RowStoreBuilder();
    const got = collected();
    try {
      const events = importPacked(source, { ...m.opts, signal: abort.signal }, pieceWorkers(m.minPieceBytes, m.pieces));
      for await (const e of events) {
        if (onImportEvent(m.jobId, e, got, kept)) continue;
        if (e.kind === 'decompressed') bytes = { name: m.name, blob: e.blob };
      }
      const { detection, labels, categories } = got;
      if (!detection) throw new Error('the import ended without deciding a format');
      const { store, index } = kept.finish(bytes, { format: detection.format, mapping: m.opts.mapping });
      commit({ key: m.jobId, store, labels, categories }, abort);
      // The rows' byte spans go to the page too: reward workers read from the file only the rows a run hands them
      // (from its bytes decompressed, for a gzip file: they go too).
      const spans = index?.spans.slice();
      const decompressed = bytes !== source ? { decompressed: bytes.blob } : {};
      post({ kind: 'done', jobId: m.jobId, spans, ...decompressed }, spans ? [spans.buffer] : []);
    } catch (e) {
      post({ kind: 'failed', jobId: m.jobId, error: importFailure(e) });
    } finally {
      running.delete(m.jobId);
    }
  };

  /** A dataset of several files (core/dataset/importParts): batches as for one file, and each part's start and end. */
  async function importManyFiles(m: Extract<DataRequest, { kind: 'import' }>, parts: PartSource[]): Promise<void> {
    const abort = new AbortController();
    running.set(m.jobId, abort);
    const stores: PartStore[] = [];
    let kept = new RowStoreBuilder();
    /** The part's bytes decompressed, for a gzip file. */
    let decompressed: Blob | null = null;
    let first = 0;
    const got = collected();
    try {
      for await (const e of importParts(parts, { ...m.opts, signal: abort.signal }, pieceWorkers(m.minPieceBytes, m.pieces))) {
        if (onImportEvent(m.jobId, e, got, kept)) continue;
        if (e.kind === 'part') {
          kept = new RowStoreBuilder();
          decompressed = null;
          post({ kind: 'part', jobId: m.jobId, index: e.index });
        } else if (e.kind === 'decompressed') {
          decompressed = e.blob;
        } else if (e.kind === 'part-end') {
          const p = parts[e.index];
          let spans: Float64Array | undefined;
          if (e.rows > 0 && got.detection) {
            const from = decompressed ? { name: p.name, blob: decompressed } : p;
            const { store, index } = kept.finish(from, { format: got.detection.format, mapping: m.opts.mapping });
            stores.push({ store, first, name: p.name, step: p.step });
            spans = index?.spans.slice();
            // The first part's rows are answered for at once: the page shows them while the others load.
            if (stores.length === 1) commit({ key: m.jobId, store: rowsOfParts(stores.slice()), labels: [], categories: [] }, abort);
          }
          first += e.rows;
          const reply = {
            kind: 'part' as const,
            jobId: m.jobId,
            index: e.index,
            rows: e.rows,
            ...(spans ? { spans } : {}),
            ...(decompressed && e.rows > 0 ? { decompressed } : {}),
            ...(e.failure ? { failure: e.failure } : {}),
          };
          post(reply, spans ? [spans.buffer as ArrayBuffer] : []);
        }
      }
      if (!got.detection) throw new Error('the import ended without deciding a format');
      commit({ key: m.jobId, store: rowsOfParts(stores), labels: got.labels, categories: got.categories }, abort);
      post({ kind: 'done', jobId: m.jobId });
    } catch (e) {
      post({ kind: 'failed', jobId: m.jobId, error: importFailure(e) });
    } finally {
      running.delete(m.jobId);
    }
  }
}
