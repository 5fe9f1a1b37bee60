/**
 * Open a dataset made of several files (issue 24): a folder picked or dropped, or several files at once. The files
 * are put in reading order by core/dataset/parts.ts `planParts` (the step each name gives, then the name); files
 * that are not data files are skipped and counted, and names whose step cannot be read are listed.
 */
import { planParts } from '../core/dataset/parts';
import { useStudio } from '../store';
import { studio } from './studio';

/** A file picked or dropped, with its path inside the folder when it came from one ("run/12.jsonl"). */
export interface PickedFile {
  blob: Blob;
  path: string;
}

/** The dataset's name: the folder's (the first segment the paths share), else "N files". */
export function datasetNameOf(files: readonly PickedFile[]): string {
  const tops = new Set(files.map((f) => (f.path.includes('/') ? f.path.slice(0, f.path.indexOf('/')) : '')));
  const [top] = tops;
  return tops.size === 1 && top ? top : `${files.length} files`;
}

/** Import `files` as one dataset (one data file among them is imported as usual). Resolves false when nothing loaded. */
export async function importFiles(files: readonly PickedFile[]): Promise<boolean> {
  // One file picked or dropped on its own is imported as ever, whatever its name (the import says what it is).
  if (files.length === 1 && !files[0].path.includes('/')) return studio.importBlob(files[0].blob, files[0].path);
  const s = useStudio.getState();
  let plan;
  try {
    plan = planParts(files, (f) => f.path);
  } catch (e) {
    s.setImportError({ code: 'unreadable', message: e instanceof Error ? e.message : String(e), fileName: datasetNameOf(files) });
    return false;
  }
  const name = datasetNameOf(files);
  const skipped = plan.skipped.length;
  const said = [
    skipped > 0 ? `${skipped} file${skipped === 1 ? ' was' : 's were'} skipped (not a data file: .jsonl, .json, .csv, .tsv, .parquet, or .gz of them).` : '',
    ...plan.notes.slice(0, 5),
    plan.notes.length > 5 ? `and ${plan.notes.length - 5} more notes.` : '',
  ].filter(Boolean);
  if (plan.parts.length === 0) {
    s.setImportError({ code: 'empty', message: `No data file in ${name}. ${said.join(' ')}`.trim(), fileName: name });
    return false;
  }
  const parts = plan.parts.map((p) => ({ blob: p.file.blob, name: p.name, step: p.step }));
  const ok = await studio.importBlob(parts[0].blob, name, { parts });
  // Said once the data is in: a new dataset starts a new session, which clears the session's message.
  if (ok && said.length > 0) useStudio.getState().setSessionMessage({ kind: 'info', text: said.join(' ') });
  return ok;
}

/** Files from a file input (a folder pick gives `webkitRelativePath`). */
export function pickedFromInput(files: readonly File[]): PickedFile[] {
  return files.map((f) => ({ blob: f, path: f.webkitRelativePath || f.name }));
}

/** Every file under a dropped entry (DataTransferItem.webkitGetAsEntry), recursing into folders. */
export async function filesOfEntry(entry: FileSystemEntry, into: PickedFile[] = [], limit = 100_000): Promise<PickedFile[]> {
  if (into.length >= limit) return into;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    into.push({ blob: file, path: entry.fullPath.replace(/^\//, '') || file.name });
  } else if (entry.isDirectory) {
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    // readEntries gives a folder's entries in chunks (100 in Chromium) until it gives none.
    for (;;) {
      const chunk = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (chunk.length === 0) break;
      for (const e of chunk) await filesOfEntry(e, into, limit);
    }
  }
  return into;
}
