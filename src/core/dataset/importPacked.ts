/**
 * An import as the data worker runs it: `importStream`'s trajectories packed into typed-array batches for the main
 * thread (`Packer`), the file read in pieces by several workers at once when it is a large plain JSONL file.
 *
 * Plain JSONL in a flat format (TRL prompt/completion, verl dumps: `scansFlat`) is detected by `importStream` as
 * usual; the rows are then read from the bytes by `scanJsonl` (a WebAssembly scanner), which gives the same batches
 * without building trajectories. So do the pieces of such a file.
 *
 * Parallel import. The file is cut at newlines into `pieces` byte ranges of at least `minPieceBytes`. This worker
 * reads the first piece with the usual sniffing and format detection; as soon as that has decided the format (its
 * `meta`), the later pieces start in other workers (`Parallelism.run`) with that format forced, and are read while
 * the first one is. Each piece numbers its own groups, pairs and lines; their batches are taken in file order and
 * renumbered into the import's numbering (`Packer.adopt`), so the batches that come out are the ones a sequential
 * import gives, with the same group and pair numbers, lines, issues and spans.
 *
 * The file is read sequentially instead when it is small, gzip-compressed or does not start with `{`, or when the
 * first piece turns out not to be JSONL read as a stream (`meta.spans` false: e.g. one pretty-printed JSON
 * document), holds fewer records than format detection samples, or fails before deciding its format.
 */
import { batchSizeOf, DETECTION_SAMPLE, importStream, noRows } from '../formats/import-stream';
import type { ByteSource, ColumnMapping, Detection, FormatId, ImportEvent, ImportOptions } from '../formats/types';
import { ImportError } from '../formats/types';
import type { ParseIssue, Trajectory } from '../trajectory';
import type { CategoryColumn } from './categories';
import { LabelCollector, type LabelColumn, type LabelPartial } from './labelColumns';
import { Packer, type PackedBatch, type PieceNumbering } from './packed';
import { readAhead, scanJsonl, scansFlat } from './scanJsonl';
import { inflateFile } from '../formats/inflate';

export type PackedEvent =
  | { kind: 'meta'; detection: Detection }
  /**
   * `spans`: the byte range of each row's source line (plain JSONL), from which the row can be read again;
   * `rows`: the trajectories themselves, when there are no spans.
   */
  | { kind: 'batch'; batch: PackedBatch; spans?: Float64Array; rows?: Trajectory[] }
  /**
   * First, for a gzip-compressed file: its bytes decompressed, which the rest of the import reads (spans point into
   * them, and rows are read back from them).
   */
  | { kind: 'decompressed'; blob: Blob }
  /** While a gzip file is decompressed: how far (batches say it afterwards). */
  | { kind: 'progress'; bytesRead: number; totalBytes: number }
  /**
   * Last: the columns usable as labels (`labelColumns` of every row) and the columns' categories for Group by
   * (categories.ts), collected while reading.
   */
  | { kind: 'labels'; columns: LabelColumn[]; categories: CategoryColumn[] };

/** What one piece of a parallel import gives: batches in its own numbering (spans are file offsets), then its end. */
export type PieceEvent = { kind: 'batch'; batch: PackedBatch; spans: Float64Array } | { kind: 'end'; lineCount: number; labels: LabelPartial };

export interface PieceRange {
  start: number;
  end: number;
}

export interface PieceOptions {
  format: FormatId;
  mapping?: ColumnMapping;
  batchSize?: number;
}

/** A piece being read: its events in order, and how many of its bytes it has read so far (for progress). */
export interface PieceRun {
  events: AsyncIterable<PieceEvent>;
  bytesRead(): number;
}

export interface Parallelism {
  /** How many pieces at most (one per worker, this one included). */
  pieces: number;
  /** No piece is smaller than this. */
  minPieceBytes: number;
  /**
   * The size of the first piece (read by the worker that also passes every later piece's batches on) relative to
   * each of the others; 1 when not given.
   */
  firstWeight?: number;
  /** Start reading a later piece (in a worker). It must stop when `signal` aborts. */
  run(source: ByteSource, range: PieceRange, opts: PieceOptions, signal: AbortSignal): PieceRun;
}

/** How far past a planned cut a newline is looked for before giving up on that cut. */
const CUT_WINDOW = 1 << 20;

/**
 * Byte offsets that cut a plain JSONL file into pieces at newlines: `[0, c1, …, size]`, or null when the file should
 * be read in one piece (too small, gzip, not starting with `{`, or no newline near a planned cut).
 */
export async function planPieces(blob: Blob, pieces: number, minPieceBytes: number, firstWeight = 1): Promise<number[] | null> {
  const n = Math.min(Math.floor(pieces), Math.floor(blob.size / Math.max(1, minPieceBytes)));
  if (n < 2) return null;
  const head = new Uint8Array(await blob.slice(0, 64).arrayBuffer());
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (head[i] !== 0x7b) return null; // '{': JSONL (gzip, Parquet, CSV and JSON arrays start otherwise)
  const cuts = [0];
  for (let k = 1; k < n; k++) {
    const at = Math.floor((blob.size * (firstWeight + k - 1)) / (firstWeight + n - 1));
    if (at <= cuts[cuts.length - 1]) continue;
    // Look for the newline in 64 KiB first (lines are rarely longer), then in the whole window.
    let nl = -1;
    for (const window of [CUT_WINDOW >> 4, CUT_WINDOW]) {
      nl = new Uint8Array(await blob.slice(at, at + window).arrayBuffer()).indexOf(0x0a);
      if (nl >= 0) break;
    }
    if (nl < 0) continue;
    const cut = at + nl + 1;
    if (cut < blob.size) cuts.push(cut);
  }
  if (cuts.length < 2) return null;
  cuts.push(blob.size);
  return cuts;
}

/** Of an import's progress bar, the share a gzip file's decompression takes (a million rows: ~3.7 s of ~5 s). */
const INFLATE_SHARE = 0.7;

/**
 * Import a file as packed batches, in pieces when `par` is given and the file allows it (see the file comment). A
 * gzip-compressed file is decompressed into a Blob first (core/formats/inflate.ts) and that is imported; one that
 * ends early is read as a stream as before, which reports where it was cut.
 */
export async function* importPacked(source: ByteSource, opts: ImportOptions, par?: Parallelism): AsyncGenerator<PackedEvent> {
  const total = source.blob.size;
  const inflating = inflateFile(source, opts.signal);
  let step = await inflating.next();
  for (; !step.done; step = await inflating.next()) yield { kind: 'progress', bytesRead: INFLATE_SHARE * step.value, totalBytes: total };
  const inflated = step.value;
  if (inflated === null || inflated.truncated !== null) return yield* importPlain(source, opts, par);
  yield { kind: 'decompressed', blob: inflated.blob };
  const plain = inflated.blob.size;
  for await (const e of importPlain({ name: source.name, blob: inflated.blob }, opts, par)) {
    if (e.kind === 'meta') e.detection.gzip = true;
    else if (e.kind === 'batch') {
      // Progress on the compressed file's scale: the decompression took the first part of the bar.
      e.batch.bytesRead = total * (INFLATE_SHARE + (1 - INFLATE_SHARE) * (plain > 0 ? e.batch.bytesRead / plain : 1));
      e.batch.totalBytes = total;
    }
    yield e;
  }
}

/** `importPacked` of a file that is not gzip-compressed, or one read as a stream through its decompression. */
async function* importPlain(source: ByteSource, opts: ImportOptions, par?: Parallelism): AsyncGenerator<PackedEvent> {
  const cuts = par ? await planPieces(source.blob, par.pieces, par.minPieceBytes, par.firstWeight) : null;
  if (cuts && par && (yield* importInPieces(source, opts, par, cuts)) === 'done') return;
  const packer = new Packer();
  const labels = new LabelCollector();
  // The scan's read starts while the format is decided (only a file the scan then reads makes use of it).
  const ahead = readAhead(source.blob);
  let head: IteratorResult<ImportEvent>;
  const events = importStream(source, streamOptions(opts));
  try {
    head = await events.next();
    if (!head.done && head.value.type === 'meta' && head.value.spans && scansFlat(head.value.detection.format)) {
      // Plain JSONL of a flat format: the format is decided, the rest is read from the bytes (scanJsonl).
      await events.return(undefined);
      yield { kind: 'meta', detection: head.value.detection };
      const scan = scanJsonl(source.blob, {
        name: source.name,
        format: head.value.detection.format,
        fileOffset: 0,
        fileStart: true,
        packer,
        labels,
        batchSize: opts.batchSize,
        signal: opts.signal,
        chunks: ahead.chunks,
      });
      const counts = new Counts();
      for (let r = await scan.next(); !r.done; r = await scan.next()) {
        counts.add(r.value.batch);
        yield { kind: 'batch', batch: r.value.batch, spans: r.value.spans };
      }
      if (counts.rows === 0) throw noRows(source.name, 'jsonl', counts.firstIssues, counts.issues);
      yield { kind: 'labels', columns: labels.finish(), categories: labels.categoryColumns() };
      return;
    }
  } finally {
    ahead.cancel();
  }
  const packing = new StreamPacking(packer, labels, opts);
  for (let e = head; !e.done; e = await events.next()) {
    const event = e.value;
    if (event.type === 'meta') yield { kind: 'meta', detection: event.detection };
    else if (event.type === 'rows') for (const b of packing.add(event)) yield { kind: 'batch', ...b };
  }
  for (const b of packing.end()) yield { kind: 'batch', ...b };
  yield { kind: 'labels', columns: labels.finish(), categories: labels.categoryColumns() };
}

/**
 * Rows per `importStream` batch where the import packs them: few, so that each batch's trajectories die young. With
 * the page's 2,000 at a time they outlived the young generation, and a chat import spent a quarter of its time in
 * the garbage collector (bench/README, session 25).
 */
const STREAM_ROWS = 128;

/** `opts` for the `importStream` whose rows are packed here (`StreamPacking`): its batches of at most STREAM_ROWS. */
function streamOptions(opts: ImportOptions): ImportOptions {
  return { ...opts, batchSize: Math.min(STREAM_ROWS, batchSizeOf(opts)) };
}

/** A packed batch and what the page keeps of its rows: their line spans, or the trajectories themselves. */
interface Packed {
  batch: PackedBatch;
  spans?: Float64Array;
  rows?: Trajectory[];
}

/**
 * `importStream`'s small batches of trajectories packed as they come, handed out as batches of the page's size
 * (`opts.batchSize`): the same rows, spans and issues, cut where importStream's own batches of that size were.
 */
class StreamPacking {
  private readonly size: number;
  private issues: ParseIssue[] = [];
  private spans: number[] = [];
  private rows: Trajectory[] = [];
  private withSpans = false;
  private bytesRead = 0;
  private totalBytes = 0;

  constructor(
    private readonly packer: Packer,
    private readonly labels: LabelCollector,
    opts: ImportOptions,
  ) {
    this.size = batchSizeOf(opts);
  }

  /** Take in one importStream batch; the page's batches it completes. */
  *add(e: Extract<ImportEvent, { type: 'rows' }>): Generator<Packed> {
    this.labels.add(e.rows);
    for (const issue of e.issues) this.issues.push(issue);
    this.withSpans = e.spans !== undefined;
    this.bytesRead = e.bytesRead;
    this.totalBytes = e.totalBytes;
    for (let i = 0; i < e.rows.length; i++) {
      this.packer.trajectory(e.rows[i]);
      if (e.spans) this.spans.push(e.spans[2 * i], e.spans[2 * i + 1]);
      else this.rows.push(e.rows[i]);
      if (this.packer.rows >= this.size) yield this.take();
    }
    if (this.issues.length >= this.size) yield this.take();
  }

  /** The last batch, once importStream has ended. */
  *end(): Generator<Packed> {
    if (this.packer.rows > 0 || this.issues.length > 0) {
      this.bytesRead = this.totalBytes;
      yield this.take();
    }
  }

  private take(): Packed {
    const batch = this.packer.take(this.issues, this.bytesRead, this.totalBytes);
    this.issues = [];
    if (!this.withSpans) {
      const rows = this.rows;
      this.rows = [];
      return { batch, rows };
    }
    const spans = Float64Array.from(this.spans);
    this.spans = [];
    return { batch, spans };
  }
}

/** Rows and issues of an import's batches, and its first issues (for a `no-rows` error). */
class Counts {
  rows = 0;
  issues = 0;
  readonly firstIssues: ParseIssue[] = [];

  add(b: PackedBatch): void {
    this.rows += b.line.length;
    this.issues += b.issues.length;
    for (const issue of b.issues) if (this.firstIssues.length < 20) this.firstIssues.push(issue);
  }
}

async function* importInPieces(source: ByteSource, opts: ImportOptions, par: Parallelism, cuts: number[]): AsyncGenerator<PackedEvent, 'done' | 'sequential'> {
  const piece = source.blob.slice(0, cuts[1]);
  // As in importPacked: the first piece's scan starts reading while the format is decided.
  const ahead = readAhead(piece);
  try {
    return yield* readPieces(source, opts, par, cuts, piece, ahead.chunks);
  } finally {
    ahead.cancel();
  }
}

/** importInPieces with its first piece (`piece`, whose bytes `chunks` are being read). */
async function* readPieces(
  source: ByteSource,
  opts: ImportOptions,
  par: Parallelism,
  cuts: number[],
  piece: Blob,
  chunks: AsyncGenerator<Uint8Array>,
): AsyncGenerator<PackedEvent, 'done' | 'sequential'> {
  const { name, blob } = source;
  const first = importStream({ name, blob: piece }, { ...streamOptions(opts), allowEmpty: true });
  let head: IteratorResult<ImportEvent>;
  try {
    head = await first.next();
  } catch (e) {
    if (e instanceof ImportError && e.code === 'cancelled') throw e;
    return 'sequential'; // the whole file gives the error (or the rows) a sequential import gives
  }
  const meta = !head.done && head.value.type === 'meta' ? head.value : undefined;
  if (!meta || !meta.spans || meta.sampled < DETECTION_SAMPLE) {
    await first.return(undefined);
    return 'sequential';
  }
  const abort = new AbortController();
  const stop = () => abort.abort();
  opts.signal?.addEventListener('abort', stop);
  const pieceOpts: PieceOptions = { format: meta.detection.format, mapping: opts.mapping, batchSize: opts.batchSize };
  const runs = cuts.slice(1, -1).map((start, k) => par.run(source, { start, end: cuts[k + 2] }, pieceOpts, abort.signal));
  /** Bytes read by the pieces after piece `k` (0 = the first, this worker's). */
  const readAfter = (k: number) => runs.slice(k).reduce((sum, r) => sum + r.bytesRead(), 0);
  const counts = new Counts();
  try {
    yield { kind: 'meta', detection: meta.detection };
    const packer = new Packer();
    const labels = new LabelCollector();
    let lineOffset = 0;
    if (scansFlat(meta.detection.format)) {
      await first.return(undefined);
      const scan = scanJsonl(piece, {
        name,
        format: meta.detection.format,
        fileOffset: 0,
        fileStart: true,
        packer,
        labels,
        batchSize: opts.batchSize,
        signal: opts.signal,
        chunks,
      });
      let r = await scan.next();
      for (; !r.done; r = await scan.next()) {
        const { batch, spans } = r.value;
        batch.bytesRead += readAfter(0);
        batch.totalBytes = blob.size;
        counts.add(batch);
        yield { kind: 'batch', batch, spans };
      }
      lineOffset = r.value;
    } else {
      const packing = new StreamPacking(packer, labels, opts);
      const pass = function* (packed: Iterable<Packed>): Generator<PackedEvent> {
        for (const { batch, spans } of packed) {
          batch.bytesRead += readAfter(0);
          batch.totalBytes = blob.size;
          counts.add(batch);
          yield { kind: 'batch', batch, spans };
        }
      };
      for await (const e of first) {
        if (e.type === 'rows') yield* pass(packing.add(e));
        else if (e.type === 'done') lineOffset = e.lineCount ?? 0;
      }
      yield* pass(packing.end());
    }
    for (let k = 0; k < runs.length; k++) {
      const numbering: PieceNumbering = { groups: [], pairs: [] };
      let lines = -1;
      for await (const e of runs[k].events) {
        if (e.kind === 'end') {
          lines = e.lineCount;
          labels.merge(e.labels);
          break;
        }
        const batch = packer.adopt(e.batch, lineOffset, numbering);
        batch.bytesRead = cuts[k + 1] + batch.bytesRead + readAfter(k + 1);
        batch.totalBytes = blob.size;
        counts.add(batch);
        yield { kind: 'batch', batch, spans: e.spans };
      }
      if (lines < 0) throw new Error(`piece ${k + 2} of ${name} ended without its line count`);
      lineOffset += lines;
    }
    if (counts.rows === 0) throw noRows(name, 'jsonl', counts.firstIssues, counts.issues);
    yield { kind: 'labels', columns: labels.finish(), categories: labels.categoryColumns() };
    return 'done';
  } finally {
    opts.signal?.removeEventListener('abort', stop);
    abort.abort(); // ends pieces still running when this stops early (an error, a cancel)
  }
}

/** Read one piece (this is what a piece worker runs): batches packed in the piece's own numbering, then its end. */
export async function* importPiece(source: ByteSource, range: PieceRange, opts: PieceOptions & { signal?: AbortSignal }): AsyncGenerator<PieceEvent> {
  const packer = new Packer({ pairKeys: true });
  const labels = new LabelCollector();
  const piece: ByteSource = { name: source.name, blob: source.blob.slice(range.start, range.end) };
  let lineCount = 0;
  if (scansFlat(opts.format)) {
    const scan = scanJsonl(piece.blob, { ...opts, name: source.name, fileOffset: range.start, fileStart: range.start === 0, packer, labels });
    let r = await scan.next();
    for (; !r.done; r = await scan.next()) yield { kind: 'batch', batch: r.value.batch, spans: r.value.spans };
    lineCount = r.value;
  } else {
    const packing = new StreamPacking(packer, labels, opts);
    const pass = function* (packed: Iterable<Packed>): Generator<PieceEvent> {
      for (const { batch, spans = new Float64Array(0) } of packed) {
        for (let i = 0; i < spans.length; i++) spans[i] += range.start;
        yield { kind: 'batch', batch, spans };
      }
    };
    for await (const e of importStream(piece, { ...streamOptions(opts), jsonlPiece: true })) {
      if (e.type === 'rows') yield* pass(packing.add(e));
      else if (e.type === 'done') lineCount = e.lineCount ?? 0;
    }
    yield* pass(packing.end());
  }
  yield { kind: 'end', lineCount, labels: labels.partial() };
}

/** Run a piece in this thread, concurrently with the caller (tests, and where workers cannot be started). */
export function runPieceHere(source: ByteSource, range: PieceRange, opts: PieceOptions, signal: AbortSignal): PieceRun {
  const queue = new EventQueue<PieceEvent>();
  let read = 0;
  void (async () => {
    try {
      for await (const e of importPiece(source, range, { ...opts, signal })) {
        if (e.kind === 'batch') read = e.batch.bytesRead;
        queue.push(e);
      }
      queue.end();
    } catch (e) {
      queue.fail(e);
    }
  })();
  return { events: queue, bytesRead: () => read };
}

/** An async-iterable queue: a producer pushes events (or ends or fails it), one consumer takes them in order. */
export class EventQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private ended = false;
  private error: { e: unknown } | null = null;
  private wake: (() => void) | null = null;

  push(item: T): void {
    this.items.push(item);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  fail(e: unknown): void {
    if (!this.error) this.error = { e };
    this.notify();
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    let i = 0;
    for (;;) {
      if (this.error) throw this.error.e;
      if (i < this.items.length) {
        const item = this.items[i];
        this.items[i++] = undefined as T; // do not keep what was taken
        if (i > 1024 && i * 2 > this.items.length) {
          this.items = this.items.slice(i);
          i = 0;
        }
        yield item;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
