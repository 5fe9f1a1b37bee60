/**
 * The CLI's data: one file, one folder, or several files (issue 24). A folder is read for its data files
 * (core/dataset/parts.ts `isDataFile`), not its subfolders; several files, or a folder, make a dataset of several
 * files in step order (`planParts`). Paths are checked here, before any worker starts, so that a missing file is
 * named at once.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { planParts } from '../core/dataset/parts';
import type { ColumnMapping, Detection, FormatId } from '../core/formats/types';
import type { ParseIssue, Trajectory } from '../core/trajectory';
import type { DatasetFile, DatasetPart } from '../engine/protocol';
import { openFile } from '../engine/nodeFile';

/** What the data paths name: one file as before, or the parts of a dataset of several files. */
export type DataFiles =
  | { ok: true; single: string; parts: null; folder: null; skipped: string[]; notes: string[] }
  | { ok: true; single: null; parts: (DatasetPart & { path: string })[]; folder: string | null; skipped: string[]; notes: string[] }
  | { ok: false; message: string };

const reasonOf = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM' || code === 'ERR_ACCESS_DENIED') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
};

/** What a command line says of its data (ScoreOptions has it). */
type CliData = { dataPath: string; dataPaths?: string[] };

/** The data paths of the command line (one file, one folder, or several files). */
export const dataPathsOf = (o: CliData): string[] => o.dataPaths ?? [o.dataPath];

/** What a command line's data paths name, read once per options object: every step of a run sees one listing. */
const read = new WeakMap<object, DataFiles>();
export function dataOf(o: CliData): DataFiles {
  let d = read.get(o);
  if (!d) read.set(o, (d = dataFiles(dataPathsOf(o))));
  return d;
}

/** The command line's one data file (absolute), or null: several files, a folder, or a path that cannot be read. */
export function singleFileOf(o: CliData): string | null {
  const d = dataOf(o);
  return d.ok ? d.single : null;
}

/** Where data files are read from instead of their own paths (a gzip file's inflated copy: inflateCopy.ts), by path. */
const readFrom = new WeakMap<object, Map<string, string>>();

/** Read the data file at `path` (absolute, as `dataOf` gives it) from `copy` instead, for every step of the run. */
export function readDataFrom(o: CliData, path: string, copy: string): void {
  let m = readFrom.get(o);
  if (!m) readFrom.set(o, (m = new Map()));
  m.set(path, copy);
}

/** The path a data file's bytes are read from: its copy, else itself. */
const readAt =
  (o: CliData) =>
  (path: string): string =>
    readFrom.get(o)?.get(path) ?? path;

/** The path the one data file's bytes are read from (`singleFileOf`, or its inflated copy), or null as there. */
export function readPathOf(o: CliData): string | null {
  const single = singleFileOf(o);
  return single === null ? null : readAt(o)(single);
}

/** Whether the data's first file (the one the format is detected from) is read from a copy. */
export function firstFileCopied(o: CliData): boolean {
  const d = dataOf(o);
  const first = !d.ok ? null : (d.single ?? d.parts[0]?.path ?? null);
  return first !== null && readAt(o)(first) !== first;
}

/** Read what `paths` name (absolute paths in the result). */
export function dataFiles(paths: readonly string[]): DataFiles {
  const kinds: ('file' | 'folder')[] = [];
  for (const p of paths) {
    try {
      const st = statSync(p);
      if (st.isDirectory()) kinds.push('folder');
      else if (st.isFile()) kinds.push('file');
      else return { ok: false, message: `cannot read the data file ${p}: not a file` };
    } catch (e) {
      return { ok: false, message: `cannot read the data file ${p}: ${reasonOf(e)}` };
    }
  }
  if (paths.length === 1 && kinds[0] === 'file') return { ok: true, single: resolve(paths[0]), parts: null, folder: null, skipped: [], notes: [] };
  if (kinds.includes('folder') && paths.length > 1) return { ok: false, message: 'give one folder, or data files, not both' };
  let files: { path: string; name: string }[];
  const folder = kinds[0] === 'folder' ? resolve(paths[0]) : null;
  if (folder !== null) {
    try {
      files = readdirSync(folder, { withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => ({ path: join(folder, d.name), name: d.name }));
    } catch (e) {
      return { ok: false, message: `cannot read the folder ${paths[0]}: ${reasonOf(e)}` };
    }
  } else {
    files = paths.map((p) => ({ path: resolve(p), name: basename(p) }));
    const names = new Set<string>();
    for (const f of files) {
      if (names.has(f.name)) return { ok: false, message: `two data files are named ${f.name}: give files with distinct names, or their folder` };
      names.add(f.name);
    }
  }
  let plan;
  try {
    plan = planParts(files, (f) => f.name);
  } catch (e) {
    return { ok: false, message: reasonOf(e) };
  }
  // Named one by one, a file that is not a data file is an error; in a folder it is skipped (and counted).
  if (folder === null && plan.skipped.length > 0)
    return { ok: false, message: `${plan.skipped[0]} is not a data file (.jsonl, .json, .csv, .tsv, .parquet, or .gz of them)` };
  if (plan.parts.length === 0)
    return { ok: false, message: `no data file in ${paths[0]} (.jsonl, .json, .csv, .tsv, .parquet, or .gz of them; subfolders are not read)` };
  const parts = plan.parts.map((p) => ({ path: p.file.path, name: p.name, step: p.step }));
  return { ok: true, single: null, parts, folder, skipped: plan.skipped, notes: plan.notes };
}

/** The data's files as they are read (each from its inflated copy where it has one), or null for one file. */
export function readParts(o: CliData): (DatasetPart & { path: string })[] | null {
  const d = dataOf(o);
  if (!d.ok || d.parts === null) return null;
  const read = readAt(o);
  return d.parts.map((p) => ({ ...p, path: read(p.path) }));
}

/** The engine's descriptor of the data (workers read the files themselves, by path, from a copy where there is one). */
export function datasetFile(o: CliData & { format: FormatId | null; mapping: ColumnMapping | null }): DatasetFile {
  const d = dataOf(o);
  if (!d.ok) throw new Error(d.message);
  const { format, mapping } = o;
  if (d.single !== null) return { datasetId: 'cli', path: readAt(o)(d.single), name: basename(d.single), format, mapping };
  return { datasetId: 'cli', name: d.folder !== null ? basename(d.folder) : `${d.parts.length} files`, parts: readParts(o) ?? [], format, mapping };
}

/** Every row of the data, read here (--model scores them in this process): the parts in order, as the workers read them. */
export async function loadData(
  o: CliData & { format: FormatId | null; mapping: ColumnMapping | null },
): Promise<{ rows: Trajectory[]; issues: ParseIssue[]; detection: Detection }> {
  const d = dataOf(o);
  if (!d.ok) throw new Error(d.message);
  const read = readAt(o);
  const opts = { format: o.format ?? undefined, mapping: o.mapping ?? undefined };
  // Imported here, not at the top: the launcher (launch.ts, through sandbox.ts) needs this module but not the import.
  const { addWholePart, loadAll, partsRead } = await import('../core/dataset/loadAll');
  (await import('../core/formats/container')).useGunzip((await import('../engine/nodeGunzip')).nodeGunzip);
  if (d.single !== null) return loadAll({ name: basename(d.single), blob: await openFile(read(d.single)) }, opts);
  // As the reward workers read the parts (engine/workerRows.ts): a part that cannot be read is reported, not fatal.
  const into = partsRead();
  for (const p of d.parts) await addWholePart(into, { name: p.name, step: p.step, open: () => openFile(read(p.path)) }, opts, true);
  if (into.rows.length === 0 && into.failed !== null) throw into.failed;
  if (!into.detection) throw new Error('no data file gave a format');
  return { rows: into.rows, issues: into.issues, detection: into.detection };
}
