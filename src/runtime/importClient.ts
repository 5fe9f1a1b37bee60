import type { Categories } from '../core/dataset/categories';
import type { LabelColumn } from '../core/dataset/labelColumns';
import type { PairColumn } from '../core/dataset/pairColumns';
import type { TokenizerId } from '../core/tokenize/tokenizers';
import { DatasetBuilder, type Dataset } from '../core/dataset/dataset';
import { groupsFromColumn } from '../core/dataset/groupLabels';
import type { Detection, ImportOptions } from '../core/formats/types';
import type { PreferenceAccuracy, PreferencePairs } from '../core/stats/preference';
import type { OverSteps, StepColumns } from '../core/steps/overSteps';
import type { ColumnValues } from '../core/table/columns';
import type { ExportFormat, ExportInput } from '../core/table/rowExport';
import type { Trajectory } from '../core/trajectory';
import { sharedColumns } from './sharedColumns';
import type { DataReply, DataRequest, ImportFailure } from './importProtocol';
import type { Result } from './result';

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  rows: number;
  issues: number;
  /** A dataset of several files: the part being read (0-based), of how many, and the step its name gives. */
  part?: { index: number; count: number; step: number | null };
  /** A gzip file is being decompressed before its rows come (core/formats/inflate.ts). */
  decompressing?: boolean;
}

/** A file of a dataset of several files, in reading order (core/dataset/parts.ts `planParts`). */
export interface ImportPart {
  blob: Blob;
  name: string;
  step: number | null;
}

export interface ImportJob {
  done: Promise<Result<Dataset, ImportFailure>>;
  cancel(): void;
}

let worker: Worker | null = null;
const jobs = new Map<number, (m: DataReply) => void>();
const requests = new Map<number, (m: DataReply) => void>();
/** Progress callbacks of long requests (token counting, Download rows), by request id. */
const progress = new Map<number, (done: number, total: number) => void>();
let nextJob = 1;
let nextRequest = 1;

function dataWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
    worker.onmessage = (ev: MessageEvent<DataReply>) => {
      const m = ev.data;
      if ('jobId' in m) jobs.get(m.jobId)?.(m);
      else if (m.kind === 'tokens-progress' || m.kind === 'export-progress') progress.get(m.reqId)?.(m.done, m.total);
      else {
        requests.get(m.reqId)?.(m);
        requests.delete(m.reqId);
      }
    };
  }
  return worker;
}

const send = (m: DataRequest) => dataWorker().postMessage(m);

/**
 * Import a file in the data worker. Batches arrive packed (typed-array columns transferred, short previews), so
 * each message is cheap for the main thread; the trajectories stay in the worker.
 */
export function startImport(
  blob: Blob,
  name: string,
  opts: Omit<ImportOptions, 'signal'>,
  onProgress: (p: ImportProgress) => void,
  parts?: readonly ImportPart[],
  /** Several files: the dataset of the first file that gave rows, as soon as it is read (the rest still loading). */
  onFirstPart?: (ds: Dataset) => void,
): ImportJob {
  const jobId = nextJob++;
  const builder = new DatasetBuilder();
  let detection: Detection | null = null;
  /** Several files: the one being read, the bytes of those before it, and each one's first row and rows. */
  let part: ImportProgress['part'];
  let bytesBefore = 0;
  const totalBytes = parts ? parts.reduce((n, p) => n + p.blob.size, 0) : blob.size;
  const read: { first: number; rows: number; spans?: Float64Array; decompressed?: Blob }[] = [];
  let shownFirst = false;
  /** What `finish` takes, with the parts read so far. */
  const init = () => {
    const done = parts?.flatMap((p, i) => (read[i] ? [{ ...p, ...read[i] }] : []));
    return { id: `ds${jobId}`, key: jobId, name, blob, detection: detection as Detection, mapping: opts.mapping, parts: done };
  };
  const done = new Promise<Result<Dataset, ImportFailure>>((resolve) => {
    jobs.set(jobId, (m) => {
      if (m.kind === 'meta') {
        detection = m.detection;
        builder.labelAsRead(groupsFromColumn(m.detection, opts.mapping));
      } else if (m.kind === 'part' && parts && m.index >= 0 && m.index < parts.length) {
        if (m.rows === undefined) part = { index: m.index, count: parts.length, step: parts[m.index].step };
        else {
          read[m.index] = { first: builder.size - m.rows, rows: m.rows, ...bytesFound(m) };
          bytesBefore += parts[m.index].blob.size;
          if (m.failure) builder.addIssue(m.failure);
          if (!shownFirst && m.rows > 0 && detection && onFirstPart && m.index < parts.length - 1) {
            shownFirst = true;
            // An id apart from the whole dataset's (the data worker's key is the same: it answers for these rows).
            onFirstPart(builder.finish({ ...init(), id: `ds${jobId}-first` }));
          }
        }
        onProgress({ bytesRead: bytesBefore, totalBytes, rows: builder.size, issues: builder.issueCount, part });
      } else if (m.kind === 'progress') {
        const bytesRead = parts ? bytesBefore + m.bytesRead : m.bytesRead;
        onProgress({ bytesRead, totalBytes: parts ? totalBytes : m.totalBytes, rows: builder.size, issues: builder.issueCount, part, decompressing: true });
      } else if (m.kind === 'batch') {
        builder.append(m.batch);
        const bytesRead = parts ? bytesBefore + m.batch.bytesRead : m.batch.bytesRead;
        onProgress({ bytesRead, totalBytes: parts ? totalBytes : m.batch.totalBytes, rows: builder.size, issues: builder.issueCount, part });
      } else if (m.kind === 'done' || m.kind === 'failed') {
        jobs.delete(jobId);
        if (m.kind === 'failed') resolve({ ok: false, error: m.error });
        else if (!detection) resolve({ ok: false, error: { code: 'internal', message: 'import finished without detecting a format' } });
        else resolve({ ok: true, value: builder.finish({ ...init(), ...bytesFound(m) }) });
      }
    });
  });
  send({
    kind: 'import',
    jobId,
    blob,
    name,
    opts: { ...opts, batchSize: opts.batchSize ?? numberAsked('batchRows') },
    minPieceBytes: numberAsked('pieceBytes'),
    pieces: numberAsked('pieces'),
    ...(parts ? { parts: parts.map((p) => ({ blob: p.blob, name: p.name, step: p.step })) } : {}),
  });
  // Settled here, not when the worker replies: the import may have ended meanwhile, its `done` already on its way.
  const cancel = () => {
    const settle = jobs.get(jobId);
    if (!settle) return;
    send({ kind: 'cancel', jobId });
    settle({ kind: 'failed', jobId, error: { code: 'cancelled', message: `Import of ${name} was cancelled.` } });
  };
  return { done, cancel };
}

/** The page now shows the import with this key: the data worker keeps its rows and drops those of any other. */
export function adoptImport(key: number): void {
  send({ kind: 'adopt', key });
}

/**
 * `?pieceBytes=N` and `?pieces=N` in the page address: the smallest piece of a parallel import (default 16 MB) and
 * how many pieces at most (default: one fewer than the cores), so that tests and benchmarks can have small files
 * read in pieces, or large ones not; `?batchRows=N`: rows per batch sent to the page (benchmarks compare sizes).
 */
function numberAsked(name: string): number | undefined {
  const asked = typeof location !== 'undefined' ? Number(new URLSearchParams(location.search).get(name)) : NaN;
  return Number.isFinite(asked) && asked >= 1 ? Math.floor(asked) : undefined;
}

function request<T>(build: (reqId: number) => DataRequest, pick: (m: DataReply) => T): Promise<T> {
  const reqId = nextRequest++;
  return new Promise<T>((resolve, reject) => {
    requests.set(reqId, (m) => {
      try {
        resolve(pick(m));
      } catch (e) {
        reject(e);
      }
    });
    send(build(reqId));
  });
}

/** A reply's value, or its error thrown: the worker could not read the rows (the file changed on disk). */
function orThrow<T>(m: { error?: string }, value: T): T {
  if (m.error !== undefined) throw new Error(m.error);
  return value;
}

/** Whole trajectories, from the data worker (null when that dataset is no longer there). */
export function fetchTrajectories(ds: Dataset, indices: number[]): Promise<Trajectory[] | null> {
  return request(
    (reqId) => ({ kind: 'get', reqId, key: ds.key, indices }),
    (m) => (m.kind === 'rows' ? orThrow(m, m.rows) : null),
  );
}

/** Rows whose prompt, completion or any field contains `needle` (case-insensitive). */
export function searchRows(ds: Dataset, needle: string): Promise<Int32Array | null> {
  return request(
    (reqId) => ({ kind: 'search', reqId, key: ds.key, needle }),
    (m) => (m.kind === 'hits' ? orThrow(m, m.hits) : null),
  );
}

/** Columns of the source records usable as a trusted label (booleans and numbers), collected during the import. */
export function fetchLabelColumns(ds: Dataset): Promise<LabelColumn[] | null> {
  return request(
    (reqId) => ({ kind: 'labels', reqId, key: ds.key }),
    (m) => (m.kind === 'labels' ? m.columns : null),
  );
}

/**
 * The values of column `column` per row, as categories (core/dataset/categories), read by the data worker; checked
 * here like any message that crosses a boundary: a code per row, each −1 or an index into the values.
 */
export async function fetchCategories(ds: Dataset, column: string): Promise<Categories> {
  const r = await request(
    (reqId) => ({ kind: 'categories', reqId, key: ds.key, column }),
    (m) => (m.kind === 'categories' ? m : null),
  );
  const c = r?.categories;
  if (!c) throw new Error(r?.error ?? 'the data worker no longer holds this dataset');
  const ok =
    c.codes instanceof Int32Array &&
    c.codes.length === ds.size &&
    Array.isArray(c.values) &&
    c.values.every((v) => typeof v === 'string') &&
    c.codes.every((k) => k >= -1 && k < c.values.length);
  if (!ok) throw new Error('the data worker sent column values that do not fit this dataset');
  return c;
}

/** One top-level field of every row as a table column (numbers, or text with sort ranks), read by the data worker. */
export async function fetchFieldColumn(ds: Dataset, name: string): Promise<ColumnValues> {
  const r = await request(
    (reqId) => ({ kind: 'field', reqId, key: ds.key, name }),
    (m) => (m.kind === 'field' ? m : null),
  );
  if (!r?.column) throw new Error(r?.error ?? 'the data worker no longer holds this dataset');
  return r.column;
}

/** Token count of every completion with this tokenizer (the data worker loads the tokenizer once); `onProgress` hears rows done. */
export async function fetchTokenCounts(ds: Dataset, tokenizer: TokenizerId, onProgress?: (done: number, total: number) => void): Promise<Int32Array> {
  let id = -1;
  const r = await request(
    (reqId) => {
      id = reqId;
      if (onProgress) progress.set(reqId, onProgress);
      return { kind: 'tokens', reqId, key: ds.key, tokenizer };
    },
    (m) => (m.kind === 'tokens' ? m : null),
  );
  progress.delete(id);
  if (!r?.counts) throw new Error(r?.error ?? 'the data worker no longer holds this dataset');
  return r.counts;
}

/**
 * Preference accuracy with its bootstrap intervals (core/stats/preference), computed in the data worker: 2,000
 * resamples of 50k pairs take seconds, which would freeze the page. The scores are copied, not transferred: they
 * belong to a run that stays on screen.
 */
export async function computePreferenceAccuracy(scores: Float64Array, status: Uint8Array, pairs: PreferencePairs): Promise<PreferenceAccuracy> {
  const r = await request(
    (reqId) => ({ kind: 'preference', reqId, scores, status, pairs }),
    (m) => (m.kind === 'preference' ? m : null),
  );
  if (!r?.result) throw new Error(r?.error ?? 'the data worker did not answer');
  return r.result;
}

/**
 * The Over steps figures (core/steps overSteps), computed in the data worker: over 500k rows they take a few hundred
 * ms, which would block the page.
 * `truncation`: the truncated rows made there from the fields' verdicts and the maximum length (a loop over every row).
 * The columns go as shared copies made once (sharedColumns): a run's and a dataset's arrays are sent at every visit.
 */
export async function computeOverSteps(columns: StepColumns, truncation?: { fields: Float64Array; maxLength: number | null }): Promise<OverSteps> {
  const r = await request(
    (reqId) => ({
      kind: 'over-steps',
      reqId,
      columns: sharedColumns(columns),
      ...(truncation ? { truncation: sharedColumns(truncation) } : {}),
    }),
    (m) => (m.kind === 'over-steps' ? m : null),
  );
  if (!r?.result) throw new Error(r?.error ?? 'the data worker did not answer');
  return r.result;
}

/** Categorical columns of the pairs' records (subset, model…), read from the rows in the data worker. */
export async function fetchPairColumns(ds: Dataset): Promise<PairColumn[]> {
  const r = await request(
    (reqId) => ({ kind: 'pair-columns', reqId, key: ds.key, pairOf: ds.pairOf, pairCount: ds.pairSubsets.length }),
    (m) => (m.kind === 'pair-columns' ? m : null),
  );
  if (!r?.columns) throw new Error(r?.error ?? 'the data worker no longer holds this dataset');
  return r.columns;
}

/**
 * The bytes of a **Download rows** file, built in the data worker: 100,000 rows take seconds to write, which froze the
 * page when built here. The columns are copied (they stay on screen); the bytes come back transferred.
 */
export async function buildRowsFile(
  format: ExportFormat,
  input: ExportInput,
  onProgress?: (done: number, total: number) => void,
): Promise<Uint8Array<ArrayBuffer>> {
  let id = -1;
  const r = await request(
    (reqId) => {
      id = reqId;
      if (onProgress) progress.set(reqId, onProgress);
      return { kind: 'export', reqId, format, input };
    },
    (m) => (m.kind === 'export' ? m : null),
  );
  progress.delete(id);
  if (!r?.bytes || !(r.bytes instanceof Uint8Array)) throw new Error(r?.error ?? 'the data worker did not answer');
  return r.bytes;
}

/** A reply's row spans and decompressed bytes, where they are what they should be. */
function bytesFound(m: { spans?: Float64Array; decompressed?: Blob }): { spans?: Float64Array; decompressed?: Blob } {
  return { ...(m.spans instanceof Float64Array ? { spans: m.spans } : {}), ...(m.decompressed instanceof Blob ? { decompressed: m.decompressed } : {}) };
}
