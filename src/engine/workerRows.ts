import { LineRows, RecordRows, unreadable, type LineIndex } from '../core/dataset/lineRows';
import { openParquetRows, type ParquetRows } from '../core/formats/read-parquet';
import { addWholePart, partsRead } from '../core/dataset/loadAll';
import { importStream } from '../core/formats/import-stream';
import { freeBuffer, readSlice } from '../core/formats/byte-reader';
import { withPartStep } from '../core/dataset/parts';
import type { ParseIssue } from '../core/trajectory';
import type { Detection } from '../core/formats/types';
import type { DatasetFile, DatasetPart, PieceRequest } from './protocol';
import type { Trajectory } from '../core/trajectory';
import { datasetMeta, joinMetas, PackedFacts, type DatasetMeta } from '../core/dataset/meta';
import { importPiece } from '../core/dataset/importPacked';
import { scansFlat } from '../core/dataset/scanJsonl';
import { concat } from '../core/dataset/concat';

/**
 * Bytes of one read when rows are read by lines: a million rows are ~900 MB, more than one string can hold, and
 * reads of a few MB let the next one arrive while this one is parsed. Chromium's reads cost less CPU per byte as they
 * grow (913 MB: ~2.1 s of CPU by 4 MB, ~1.6 s by 16 MB): 16 MB took the first run at a million rows from 4.1 to 3.9 s.
 */
const READ_BYTES = 16 << 20;

/**
 * Rows a lean piece read (`PieceRequest.lean`) takes the facts of at once, then lets go: about one batch of the import,
 * so that they die young. Stretches of 16,384 rows outlived V8's young generation, and the garbage collector took a
 * third of the read.
 */
const LEAN_FACT_ROWS = 2000;

/** The rows of a piece read before the whole file's index came, and where its first and last rows' lines start. */
interface KeptPiece {
  datasetId: string;
  path: string;
  rows: Trajectory[];
  firstSpan: number;
  lastSpan: number;
}

/** One file's rows read back from their lines: rows [first, first + rows.size) of the dataset. */
interface ByLines {
  first: number;
  rows: LineRows;
  blob: Blob;
  name: string;
  step: number | null;
}

/**
 * Records read from a Parquet file this many at least at once: each read decodes its row group's dictionaries and
 * the page it starts in again (a 500,000-row file read by 8,192 rows took 3.8 s against 1.8 s whole; by 65,536, the
 * half of it took 1.2 s).
 */
const RECORDS_PER_READ = 1 << 16;

/** One Parquet file's rows read by ranges of its rows: rows [first, first + rows.size) of the dataset. */
interface ByRecords {
  first: number;
  rows: RecordRows;
  file: ParquetRows;
  name: string;
  step: number | null;
}

/**
 * A file of a dataset of several read whole, but only once a task asks for one of its rows: rows
 * [first, first + rows) of the dataset, as many as the import found in it.
 */
interface WholeLater {
  first: number;
  rows: number;
  blob: Blob;
  name: string;
  step: number | null;
}

/**
 * The rollouts a worker holds (reward and model workers), read from the dataset's file with the import's format and
 * mapping. With a line index `load` reads nothing and `ensure` reads only the rows asked for (docs/engine.md).
 * A dataset of several files (core/dataset/parts.ts) is read part after part, in the order given, as the import did.
 */
export class WorkerRows {
  datasetId = '';
  /** The trajectories, by row; read by lines, only the rows `ensure`d so far are there (the others undefined). */
  rows: Trajectory[] = [];
  /** Rows in the dataset. */
  size = 0;
  /** What a whole-file read found (null when read by lines): the CLI reports them. */
  found: { issues: ParseIssue[]; detection: Detection } | null = null;
  /** The files read by lines, by first row. */
  private byLines: ByLines[] = [];
  /** The Parquet files read by ranges of rows, by first row. */
  private byRecords: ByRecords[] = [];
  /** The files read whole when first asked for, by first row (each worker reads only those its tasks touch). */
  private later: WholeLater[] = [];
  /** The loaded dataset's format and mapping, which those files are read with. */
  private format: DatasetFile['format'] = undefined;
  private mapping: DatasetFile['mapping'] = undefined;
  /** A piece read before the dataset's index was known (`readPiece`): its rows, taken by the `load` that follows. */
  private piece: KeptPiece | null = null;
  /**
   * The dataset is read for each task and let go after it (`DatasetFile.lean`: a file of one run too large to keep):
   * set only when every row can be read again by its line. `held` is the range of rows read since the last `letGo`.
   */
  lean = false;
  private held: [number, number] | null = null;
  /** Bytes asked for past the last task's rows, from row `i` to row `j` of `by` (readLines). */
  private ahead: { by: ByLines; into: Trajectory[]; i: number; j: number; bytes: Promise<Uint8Array> } | null = null;

  /** `readBytes`: the size of one read of a file by lines; `leanFactRows`: LEAN_FACT_ROWS (tests make both small). */
  constructor(
    private readonly readBytes = READ_BYTES,
    private readonly leanFactRows = LEAN_FACT_ROWS,
  ) {}

  /** Throws what the read threw; `rows` is then empty. `open` reads a file given by path (Node). */
  async load(f: DatasetFile, open?: (path: string) => Promise<Blob>): Promise<void> {
    const piece = this.piece;
    this.piece = null;
    this.ahead = null;
    this.datasetId = '';
    this.rows = [];
    this.size = 0;
    this.byLines = [];
    this.byRecords = [];
    this.later = [];
    this.found = null;
    this.lean = false;
    this.held = null;
    const parts: DatasetPart[] = f.parts ?? [{ blob: f.blob, path: f.path, name: f.name, step: null, index: f.index, records: f.records }];
    const many = f.parts !== undefined;
    const format = f.format ?? undefined;
    const mapping = f.mapping ?? undefined;
    // Rows of parts read by lines are placeholders in `into.rows` until `ensure`d.
    const into = partsRead();
    const rows = into.rows;
    const byLines: ByLines[] = [];
    const byRecords: ByRecords[] = [];
    const later: WholeLater[] = [];
    for (const p of parts) {
      let blob = p.blob;
      if (!blob) {
        if (!p.path || !open) throw new Error(`no way to read ${p.name} in this worker`);
        blob = await open(p.path);
      }
      const first = rows.length;
      if (p.index && format && p.index.spans.length === 2 * p.index.lines.length) {
        const lr = new LineRows(p.index, { format, mapping });
        byLines.push({ first, rows: lr, blob, name: p.name, step: p.step });
        // Packed, not holey: an array of 100,000 holes would be a dictionary.
        for (let i = 0; i < lr.size; i++) rows.push(undefined as unknown as Trajectory);
        continue;
      }
      // A Parquet file of flat columns whose rows the import numbered (records) is read by ranges of its rows.
      const n = p.records?.length ?? 0;
      const file = p.records && n > 0 && format ? await openParquetRows(blob).catch(() => null) : null;
      if (file && p.records && format && p.records[n - 1] <= file.numRows) {
        byRecords.push({ first, rows: new RecordRows(p.records, { format, mapping }, 'row'), file, name: p.name, step: p.step });
        for (let i = 0; i < n; i++) rows.push(undefined as unknown as Trajectory);
        continue;
      }
      if (many && format && p.rows !== undefined) {
        // The import counted its rows: their places are known, and the file is read when a task reaches them.
        later.push({ first, rows: p.rows, blob, name: p.name, step: p.step });
        for (let i = 0; i < p.rows; i++) rows.push(undefined as unknown as Trajectory);
        continue;
      }
      const whole = blob;
      await addWholePart(into, { name: p.name, step: p.step, open: () => whole }, { format, mapping }, many);
    }
    if (rows.length === 0 && into.failed !== null) throw into.failed;
    if (piece && !many && byLines.length === 1 && piece.datasetId === f.datasetId && piece.path === f.path) adoptPiece(piece, byLines[0].rows.index, rows);
    this.datasetId = f.datasetId;
    this.rows = rows;
    this.size = rows.length;
    this.byLines = byLines;
    this.byRecords = byRecords;
    this.later = later;
    this.mapping = mapping;
    this.format = format;
    this.lean = f.lean === true && byLines.length === parts.length;
    if (into.whole === parts.length && into.detection) this.found = { issues: into.issues, detection: into.detection };
  }

  /**
   * Read one piece of a plain JSONL file (the CLI reads a file in pieces, one per worker, at once) and, unless the
   * request is `lean`, keep its rows for the `load` of the same file with the whole file's index, which follows.
   * Returns the rows' facts and line index (file offsets, lines numbered in the whole file).
   */
  async readPiece(m: PieceRequest, open: (path: string) => Promise<Blob>): Promise<{ meta: DatasetMeta; index: LineIndex }> {
    this.piece = null;
    const file = await open(m.path);
    const blob = file.slice(m.start, m.end);
    // The engine keeps the file's own detection (from its head); a piece's is a placeholder.
    const detection: Detection = { container: 'jsonl', format: m.format, detected: m.format, reason: '', columns: [], gzip: false };
    // Lean, in a flat format, with no label or groupBy column: the facts from the browser's scanner, no row built.
    if (m.lean && m.meta.label === null && m.meta.groupBy === null && scansFlat(m.format)) {
      const facts = new PackedFacts(m.lineOffset);
      const spans: Float64Array[] = [];
      for await (const e of importPiece({ name: m.name, blob: file }, { start: m.start, end: m.end }, { format: m.format, mapping: m.mapping ?? undefined })) {
        if (e.kind !== 'batch') continue;
        facts.add(e.batch);
        spans.push(e.spans);
      }
      return { meta: facts.finish(detection), index: { spans: concat(spans, Float64Array), lines: facts.lines() } };
    }
    const facts = (rows: Trajectory[], issues: ParseIssue[]) => datasetMeta(rows, issues, detection, m.meta.label, m.meta.groupBy);
    const metas: DatasetMeta[] = [];
    let rows: Trajectory[] = [];
    let issues: ParseIssue[] = [];
    const spans: number[] = [];
    const lines: number[] = [];
    // The first piece is read as the whole file starts (a byte-order mark, sniffing); the others as JSONL pieces.
    const later = m.start > 0;
    const opts = { format: m.format, mapping: m.mapping ?? undefined, allowEmpty: true, ...(later ? { jsonlPiece: true, lineOffset: m.lineOffset } : {}) };
    for await (const e of importStream({ name: m.name, blob }, opts)) {
      if (e.type === 'meta' && !e.spans) throw new Error(`${m.name} is not plain JSONL`);
      if (e.type !== 'rows') continue;
      if (!e.spans) throw new Error(`${m.name}: no byte spans`);
      for (const t of e.rows) {
        rows.push(t);
        lines.push(t.line);
      }
      for (const i of e.issues) issues.push(i);
      for (const s of e.spans) spans.push(s + m.start);
      if (m.lean && rows.length >= this.leanFactRows) {
        metas.push(facts(rows, issues));
        rows = [];
        issues = [];
      }
    }
    if (rows.length > 0 || issues.length > 0 || metas.length === 0) metas.push(facts(rows, issues));
    // Facts of stretches of rows join into those of all of them at once (meta.ts).
    const meta = metas.length === 1 ? metas[0] : joinMetas(metas, detection);
    const index: LineIndex = { spans: Float64Array.from(spans), lines: Int32Array.from(lines) };
    // What the rows' place in the whole file's index is checked by (the index itself goes to the engine).
    const n = lines.length;
    if (!m.lean) this.piece = { datasetId: m.datasetId, path: m.path, rows, firstSpan: n > 0 ? spans[0] : 0, lastSpan: n > 0 ? spans[2 * n - 2] : 0 };
    return { meta, index };
  }

  /**
   * Rows [start, end) of dataset `datasetId` for a task: `ensure`d, with that dataset loaded before and after the
   * read. Throws, with the reason, when it is not (or no longer) the one loaded, or when the file can no longer be
   * read as it was imported.
   */
  async ensureFor(datasetId: string, start: number, end: number, readOn = true): Promise<void> {
    if (datasetId !== this.datasetId) throw new Error(`dataset ${datasetId} is not loaded in this worker`);
    await this.ensure(start, end, readOn);
    if (datasetId !== this.datasetId) throw new Error(`dataset ${datasetId} is no longer loaded in this worker`);
  }

  /**
   * Make rows [start, end) available in `rows`. Throws when the file can no longer be read as it was imported.
   * `readOn`: a read by lines also asks for the bytes after `end` (a task's rows; not the scattered rows of a subset,
   * where each such read of 16 MB was thrown away by the next one).
   */
  async ensure(start: number, end: number, readOn = true): Promise<void> {
    const rows = this.rows;
    if (this.lean && start < end) this.held = this.held ? [Math.min(this.held[0], start), Math.max(this.held[1], end)] : [start, end];
    for (const part of this.later) {
      if (part.first >= end || part.first + part.rows <= start || rows[part.first] !== undefined) continue;
      await this.readWhole(part, rows);
      if (rows !== this.rows) return; // another dataset was loaded meanwhile
    }
    for (const by of this.byRecords) if (!(await this.readMissing(by, rows, start, end, (a, b) => this.readRecords(by, rows, a, b)))) return;
    for (const by of this.byLines) if (!(await this.readMissing(by, rows, start, end, (a, b) => this.readLines(by, rows, a, b, readOn)))) return;
  }

  /**
   * The rows of [start, end) in `by`'s file that `into` lacks, each run of them read by `read`; false once another
   * dataset was loaded meanwhile.
   */
  private async readMissing(
    by: { first: number; rows: { size: number } },
    into: Trajectory[],
    start: number,
    end: number,
    read: (a: number, b: number) => Promise<void>,
  ): Promise<boolean> {
    const b = Math.min(end, by.first + by.rows.size, this.size);
    for (let i = Math.max(start, by.first); i < b;) {
      if (into[i] !== undefined) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < b && into[j] === undefined) j++;
      await read(i, j);
      if (into !== this.rows) return false;
      i = j;
    }
    return true;
  }

  /** A lean dataset: let go of the rows read since the last call (the next task that needs them reads them again). */
  letGo(): void {
    const held = this.held;
    this.held = null;
    if (!this.lean || held === null) return;
    const rows = this.rows;
    for (let i = held[0]; i < held[1]; i++) rows[i] = undefined as unknown as Trajectory;
  }

  /**
   * Read dataset rows [a, b) (all in `by`'s file) from their Parquet rows, and the rows after them still missing up to
   * RECORDS_PER_READ records (a worker's next tasks go on from here: engine/taskQueue.ts). Throws when the file no
   * longer gives those rows.
   */
  private async readRecords(by: ByRecords, into: Trajectory[], a: number, b: number): Promise<void> {
    const rr = by.rows;
    const off = by.first;
    const lines = rr.lines;
    const from = lines[a - off] - 1;
    const limit = Math.max(lines[b - 1 - off], from + RECORDS_PER_READ);
    const fileEnd = off + rr.size;
    while (b < fileEnd && into[b] === undefined && lines[b - off] <= limit) b++;
    const to = lines[b - 1 - off];
    let records: Record<string, unknown>[];
    try {
      records = await by.file.read(from, to);
    } catch (e) {
      throw unreadable(by.name, e);
    }
    if (records.length !== to - from) throw unreadable(by.name, new Error(`it gives ${from + records.length} rows where the import read row ${to}`));
    if (into !== this.rows) return; // another dataset was loaded meanwhile
    let produced: Trajectory[] = [];
    for (let i = a; i < b; i++) {
      const k = i - off;
      if (i === a || !rr.sameLine(k)) {
        try {
          produced = rr.produce(k, records[lines[k] - 1 - from]);
        } catch (e) {
          throw unreadable(by.name, e);
        }
      }
      into[i] = placed(by, rr, i, produced);
    }
  }

  /** Read a file of the dataset whole and put its rows in their places; throws when it no longer gives them. */
  private async readWhole(part: WholeLater, into: Trajectory[]): Promise<void> {
    const got = partsRead();
    const opts = { format: this.format ?? undefined, mapping: this.mapping ?? undefined };
    await addWholePart(got, { name: part.name, step: part.step, open: () => part.blob }, opts, true);
    if (got.failed !== null) throw unreadable(part.name, got.failed);
    if (got.rows.length !== part.rows) throw unreadable(part.name, new Error(`it gives ${got.rows.length} rows where the import found ${part.rows}`));
    if (into !== this.rows) return;
    for (let k = 0; k < got.rows.length; k++) {
      const t = got.rows[k];
      t.index = part.first + k;
      into[part.first + k] = t;
    }
  }

  /**
   * Read dataset rows [a, b) (all in `by`'s file) from their lines, in reads of about `readBytes` (a longer line is
   * a read of its own); the next read is asked for before the current one is parsed, so the file's bytes arrive
   * while this thread parses. The last read of a task asks for the bytes after it too (`ahead`): a worker's next task
   * starts where this one ends (engine/taskQueue.ts), and its first read then does not wait on the browser.
   */
  private async readLines(by: ByLines, into: Trajectory[], a: number, b: number, readOn: boolean): Promise<void> {
    const lr = by.rows;
    const off = by.first;
    const fileEnd = Math.min(this.size, off + lr.size);
    /** The end of the read that starts at row i: at least one row, then rows up to `to` while within readBytes. */
    const pieceEnd = (i: number, to: number): number => {
      const limit = lr.start(i - off) + this.readBytes;
      let lo = i + 1;
      let hi = to;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (lr.end(mid - 1 - off) <= limit) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    const read = (i: number, j: number): Promise<Uint8Array> => {
      const p = readSlice(by.blob.slice(lr.start(i - off), lr.end(j - 1 - off))).then(
        (buf) => new Uint8Array(buf),
        (e: unknown) => {
          throw unreadable(by.name, e);
        },
      );
      p.catch(() => undefined); // a read ahead that is never awaited (another dataset came) must not go unhandled
      return p;
    };
    let i = a;
    const kept = this.ahead;
    const useKept = kept !== null && kept.by === by && kept.into === into && kept.i === a;
    this.ahead = null;
    let j = useKept ? kept.j : pieceEnd(i, b);
    let next = useKept ? kept.bytes : read(i, j);
    while (i < b) {
      const bytes = await next;
      if (into !== this.rows) return; // another dataset was loaded meanwhile
      const upTo = Math.min(j, b);
      const from = lr.start(i - off);
      // A read ahead that holds more rows than this task asked for: the rest stays for the next one.
      if (j > b) this.ahead = { by, into, i: b, j, bytes: Promise.resolve(bytes.subarray(lr.start(b - off) - from)) };
      let k2 = b;
      if (upTo < b) {
        k2 = pieceEnd(upTo, b);
        next = read(upTo, k2);
      } else if (readOn && this.ahead === null && b < fileEnd && into[b] === undefined) {
        const end = pieceEnd(b, fileEnd);
        this.ahead = { by, into, i: b, j: end, bytes: read(b, end) };
      }
      this.parseLines(by, into, i, upTo, bytes.subarray(0, lr.end(upTo - 1 - off) - from));
      // Parsed: its memory goes back now (`freeBuffer`), unless the rest of it waits for the next task.
      if (j <= b) freeBuffer(bytes.buffer);
      i = upTo;
      j = k2;
    }
  }

  /** Make dataset rows [a, b) of `by`'s file from `bytes`, the file from row a's line to row b − 1's. */
  private parseLines(by: ByLines, into: Trajectory[], a: number, b: number, bytes: Uint8Array): void {
    const lr = by.rows;
    const off = by.first;
    const from = lr.start(a - off);
    const decoder = new TextDecoder();
    // One decode for the whole read, not one per line (a TextDecoder call costs ~2 µs in Chromium): when every byte
    // became one UTF-16 unit (ASCII), byte offsets are string offsets and each line is a slice of it.
    const whole = decoder.decode(bytes);
    const ascii = whole.length === bytes.length;
    let produced: Trajectory[] = [];
    let previous: Record<string, unknown> | null = null;
    for (let i = a; i < b; i++) {
      const k = i - off;
      // The rows of one record (a preference pair) share its line: parsed once.
      if (i === a || !lr.sameLine(k)) {
        let record: Record<string, unknown>;
        try {
          const s = lr.start(k) - from;
          const e = lr.end(k) - from;
          record = JSON.parse(ascii ? whole.slice(s, e) : decoder.decode(bytes.subarray(s, e))) as Record<string, unknown>;
        } catch (e) {
          throw unreadable(by.name, e);
        }
        if (previous !== null) shareEqualStrings(record, previous);
        previous = record;
        produced = lr.produce(k, record);
      }
      into[i] = placed(by, lr, i, produced);
    }
  }
}

/**
 * Dataset row i of a file read by records (`by`, rows [by.first, …) of the dataset), picked from what its record
 * `produced`: numbered in the dataset, with the file's step where it has none of its own.
 */
function placed(by: { first: number; name: string; step: number | null }, rows: RecordRows, i: number, produced: Trajectory[]): Trajectory {
  const t = rows.pick(i - by.first, produced, by.name);
  if (by.first !== 0 || by.step !== null) {
    t.index = i;
    withPartStep(t, by.step);
  }
  return t;
}

/**
 * Put a piece's rows (read by `readPiece`) in their places of the whole file's rows: from the row whose line starts
 * where the piece's first row's does, when the index has the piece's rows there (their lines and the last row's
 * start agree); otherwise they are left to be read again by lines.
 */
function adoptPiece(piece: KeptPiece, index: LineIndex, into: Trajectory[]): void {
  const n = piece.rows.length;
  if (n === 0) return;
  const first = piece.firstSpan;
  let lo = 0;
  let hi = index.lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.spans[2 * mid] < first) lo = mid + 1;
    else hi = mid;
  }
  if (lo + n > index.lines.length || index.spans[2 * lo] !== first || index.spans[2 * (lo + n - 1)] !== piece.lastSpan) return;
  for (let i = 0; i < n; i++) if (index.lines[lo + i] !== piece.rows[i].line) return;
  for (let i = 0; i < n; i++) {
    const t = piece.rows[i];
    t.index = lo + i;
    into[lo + i] = t;
  }
}

/**
 * Where a string of `record` equals the string at the same place in `previous`, take that string: the rows of a group
 * repeat their prompt (and ids, model names), and a worker holding half of a million rows kept a copy of each (~14 %
 * of its heap in Node). Nested too, to SHARE_DEPTH: a chat's system and user turns (~11 % of a chat row's heap).
 * Strings are values: no reward can tell the difference.
 */
function shareEqualStrings(record: Record<string, unknown>, previous: Record<string, unknown>): void {
  shared(record, previous, 0);
}

/** How deep `shareEqualStrings` looks: a record's list of turns (1), a turn (2), its parts or tool calls (3, 4). */
const SHARE_DEPTH = 4;

/** Take the strings of `v` (an object or a list) that equal those at the same places in `p` from `p`, in place. */
function shared(v: object, p: object, depth: number): void {
  if (Array.isArray(v)) {
    if (!Array.isArray(p)) return;
    const n = Math.min(v.length, p.length);
    for (let i = 0; i < n; i++) if (takes(v[i], p[i], depth)) v[i] = p[i];
  } else if (!Array.isArray(p)) {
    const o = v as Record<string, unknown>;
    const q = p as Record<string, unknown>;
    // An own "__proto__" (JSON.parse makes one) is a data property: assigning it sets that property, not the prototype.
    for (const key in o) if (Object.hasOwn(q, key) && takes(o[key], q[key], depth)) o[key] = q[key];
  }
}

/**
 * Whether `x` is a string to be replaced by `y`, its equal (`===` compares strings by value; the assignment is what
 * keeps one of them). Otherwise, where both are objects within SHARE_DEPTH, shares inside them.
 */
function takes(x: unknown, y: unknown, depth: number): boolean {
  if (typeof x === 'string') return x.length > 16 && x === y;
  if (depth < SHARE_DEPTH && typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) shared(x, y, depth + 1);
  return false;
}
