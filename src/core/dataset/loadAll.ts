import { importStream } from '../formats';
import type { ByteSource, Detection, ImportOptions } from '../formats/types';
import type { ParseIssue, Trajectory } from '../trajectory';
import { nameIssue, unreadablePart, withPartStep } from './parts';

/** Read a whole file into trajectories (reward workers and the CLI; the UI streams with importStream). */
export async function loadAll(source: ByteSource, opts: ImportOptions = {}): Promise<{ rows: Trajectory[]; issues: ParseIssue[]; detection: Detection }> {
  const rows: Trajectory[] = [];
  const issues: ParseIssue[] = [];
  let detection: Detection | null = null;
  for await (const e of importStream(source, opts)) {
    if (e.type === 'meta') detection = e.detection;
    else if (e.type === 'rows') {
      for (const r of e.rows) rows.push(r);
      for (const i of e.issues) issues.push(i);
    }
  }
  if (!detection) throw new Error(`no format detected for ${source.name}`);
  return { rows, issues, detection };
}

/** One file of a dataset of several, read whole: its name, its step, and how to open it. */
export interface WholePart {
  name: string;
  step: number | null;
  open(): Blob | Promise<Blob>;
}

/** What the parts read whole so far gave; `failed` is the first error of a part that could not be read. */
export interface PartsRead {
  rows: Trajectory[];
  issues: ParseIssue[];
  detection: Detection | null;
  failed: unknown;
  /** Parts read whole (read or reported unreadable). */
  whole: number;
}

export const partsRead = (): PartsRead => ({ rows: [], issues: [], detection: null, failed: null, whole: 0 });

/**
 * Read part `p` whole and add its rows to `into`, as the import reads several files (importParts.ts): with the format
 * the first part was read with; of several (`many`), rows numbered across the parts and given the part's step, issues
 * named by file, and a part that cannot be read reported by name while the others load. The reward workers and the
 * CLI's own reads share this, so both skip the same parts.
 */
export async function addWholePart(into: PartsRead, p: WholePart, opts: ImportOptions, many: boolean): Promise<void> {
  let got: Awaited<ReturnType<typeof loadAll>>;
  try {
    got = await loadAll({ name: p.name, blob: await p.open() }, { ...opts, format: opts.format ?? into.detection?.format });
  } catch (e) {
    if (!many) throw e;
    into.failed ??= e;
    into.issues.push(unreadablePart(p.name, e));
    into.whole++;
    return;
  }
  into.detection ??= got.detection;
  into.whole++;
  for (const t of got.rows) {
    if (many) {
      t.index = into.rows.length;
      withPartStep(t, p.step);
    }
    into.rows.push(t);
  }
  for (const i of got.issues) into.issues.push(many ? nameIssue(i, p.name) : i);
}
