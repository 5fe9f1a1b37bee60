import * as Comlink from 'comlink';
import { buildDataset, type Dataset } from '../core/dataset';
import type { Detection, ImportEvent, ImportOptions } from '../core/formats/types';
import type { ParseIssue, Trajectory } from '../core/trajectory';
import type { ImportFailure, ImportWorkerApi } from './importProtocol';
import type { Result } from './result';

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  rows: number;
  issues: number;
}

export interface ImportJob {
  done: Promise<Result<Dataset, ImportFailure>>;
  cancel(): void;
}

let worker: Comlink.Remote<ImportWorkerApi> | null = null;
let nextJob = 1;
let nextDataset = 1;

function api(): Comlink.Remote<ImportWorkerApi> {
  worker ??= Comlink.wrap<ImportWorkerApi>(new Worker(new URL('../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' }));
  return worker;
}

/**
 * Import a file in the import worker. Rows arrive in batches (each batch is a small structured clone, so the
 * main thread never blocks long); the Dataset is assembled once the file is done.
 */
export function startImport(blob: Blob, name: string, opts: Omit<ImportOptions, 'signal'>, onProgress: (p: ImportProgress) => void): ImportJob {
  const jobId = nextJob++;
  const rows: Trajectory[] = [];
  const issues: ParseIssue[] = [];
  let detection: Detection | null = null;
  const onEvent = (e: ImportEvent) => {
    if (e.type === 'meta') detection = e.detection;
    else if (e.type === 'rows') {
      for (const r of e.rows) rows.push(r);
      for (const i of e.issues) issues.push(i);
      onProgress({ bytesRead: e.bytesRead, totalBytes: e.totalBytes, rows: rows.length, issues: issues.length });
    }
  };
  const remote = api();
  const done = remote.run(jobId, blob, name, opts, Comlink.proxy(onEvent)).then((res): Result<Dataset, ImportFailure> => {
    if (!res.ok) return res;
    if (!detection) return { ok: false, error: { code: 'internal', message: 'import finished without detecting a format' } };
    return { ok: true, value: buildDataset({ id: `ds${nextDataset++}`, name, rows, issues, detection, bytes: blob.size }) };
  });
  return { done, cancel: () => void remote.cancel(jobId) };
}
