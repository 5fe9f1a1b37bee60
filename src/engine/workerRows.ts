import { LineRows, unreadable } from '../core/dataset/lineRows';
import { loadAll } from '../core/dataset/loadAll';
import type { ParseIssue } from '../core/trajectory';
import type { Detection } from '../core/formats/types';
import type { DatasetFile } from './protocol';
import type { Trajectory } from '../core/trajectory';

/**
 * The rollouts a worker holds (reward and model workers), read from the dataset's file with the import's format and
 * mapping. With a line index `load` reads nothing and `ensure` reads only the rows asked for (docs/engine.md).
 */
export class WorkerRows {
  datasetId = '';
  /** The trajectories, by row; read by lines, only the rows `ensure`d so far are there (the others undefined). */
  rows: Trajectory[] = [];
  /** Rows in the dataset. */
  size = 0;
  /** What a whole-file read found (null when read by lines): the CLI reports them. */
  found: { issues: ParseIssue[]; detection: Detection } | null = null;
  private byLines: { rows: LineRows; blob: Blob; name: string } | null = null;

  /** Throws what the read threw; `rows` is then empty. `open` reads a file given by path (Node). */
  async load(f: DatasetFile, open?: (path: string) => Promise<Blob>): Promise<void> {
    this.datasetId = '';
    this.rows = [];
    this.size = 0;
    this.byLines = null;
    this.found = null;
    let blob = f.blob;
    if (!blob) {
      if (!f.path || !open) throw new Error(`no way to read ${f.name} in this worker`);
      blob = await open(f.path);
    }
    const format = f.format ?? undefined;
    const mapping = f.mapping ?? undefined;
    if (f.index && format && f.index.spans.length === 2 * f.index.lines.length) {
      const rows = new LineRows(f.index, { format, mapping });
      this.byLines = { rows, blob, name: f.name };
      // Packed, not holey: an array of 100,000 holes would be a dictionary.
      this.rows = Array.from({ length: rows.size }, () => undefined as unknown as Trajectory);
      this.size = rows.size;
      this.datasetId = f.datasetId;
      return;
    }
    const loaded = await loadAll({ name: f.name, blob }, { format, mapping });
    this.datasetId = f.datasetId;
    this.rows = loaded.rows;
    this.size = loaded.rows.length;
    this.found = { issues: loaded.issues, detection: loaded.detection };
  }

  /**
   * Rows [start, end) of dataset `datasetId` for a task: `ensure`d, with that dataset loaded before and after the
   * read. Throws, with the reason, when it is not (or no longer) the one loaded, or when the file can no longer be
   * read as it was imported.
   */
  async ensureFor(datasetId: string, start: number, end: number): Promise<void> {
    if (datasetId !== this.datasetId) throw new Error(`dataset ${datasetId} is not loaded in this worker`);
    await this.ensure(start, end);
    if (datasetId !== this.datasetId) throw new Error(`dataset ${datasetId} is no longer loaded in this worker`);
  }

  /** Make rows [start, end) available in `rows`. Throws when the file can no longer be read as it was imported. */
  async ensure(start: number, end: number): Promise<void> {
    const by = this.byLines;
    if (!by) return;
    const rows = this.rows;
    for (let i = Math.max(0, start), stop = Math.min(end, this.size); i < stop;) {
      if (rows[i] !== undefined) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < stop && rows[j] === undefined) j++;
      await this.readLines(by, rows, i, j);
      if (rows !== this.rows) return; // another dataset was loaded meanwhile
      i = j;
    }
  }

  /** Read rows [a, b) from their lines, with one read of the file. */
  private async readLines(by: { rows: LineRows; blob: Blob; name: string }, into: Trajectory[], a: number, b: number): Promise<void> {
    const lr = by.rows;
    const from = lr.start(a);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await by.blob.slice(from, lr.end(b - 1)).arrayBuffer());
    } catch (e) {
      throw unreadable(by.name, e);
    }
    if (into !== this.rows) return; // another dataset was loaded meanwhile
    const decoder = new TextDecoder();
    let produced: Trajectory[] = [];
    for (let i = a; i < b; i++) {
      // The rows of one record (a preference pair) share its line: parsed once.
      if (i === a || !lr.sameLine(i)) {
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(decoder.decode(bytes.subarray(lr.start(i) - from, lr.end(i) - from))) as Record<string, unknown>;
        } catch (e) {
          throw unreadable(by.name, e);
        }
        produced = lr.produce(i, record);
      }
      into[i] = lr.pick(i, produced, by.name);
    }
  }
}
