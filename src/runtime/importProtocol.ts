import type { ImportErrorCode, ImportEvent, ImportOptions } from '../core/formats/types';
import type { Result } from './result';

/** Failure of a whole import, as it crosses the worker boundary. */
export interface ImportFailure {
  code: ImportErrorCode | 'internal';
  message: string;
  detail?: { columns?: string[]; sample?: Record<string, unknown>[]; issues?: { line: number; reason: string }[]; container?: string };
}

/** The API the import worker exposes through comlink. */
export interface ImportWorkerApi {
  /** Stream a file's rows to `onEvent` (a comlink proxy); resolves when the file is done or failed. */
  run(jobId: number, blob: Blob, name: string, opts: Omit<ImportOptions, 'signal'>, onEvent: (e: ImportEvent) => void): Promise<Result<null, ImportFailure>>;
  cancel(jobId: number): void;
}
