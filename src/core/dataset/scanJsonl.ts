/**
 * The fast path of a large JSONL import: packed batches straight from the file's bytes for flat-record formats,
 * never decoding the file to one string nor parsing rows into objects (docs/import.md).
 */
import { READING } from '../formats/byte-reader';
import { throwIfCancelled } from '../formats/cancel';
import { GROUP_COLUMNS, keyOfValue } from '../formats/group-key';
import {
  BLANK,
  FIELD_WORDS,
  F_WIDE,
  HEADER_WORDS,
  LineScanner,
  nextLine,
  PARSE,
  T_FALSE,
  T_NULL,
  T_NUMBER,
  T_OBJECT,
  T_ARRAY,
  T_STRING,
  T_TRUE,
  type ScannedLines,
} from '../formats/jsonl-scan/scanner';
import { NORMALIZERS } from '../formats/normalize';
import { parseJsonlLine } from '../formats/read-jsonl';
import { stepValue } from '../formats/record-fields';
import { FINISH_REASON_FIELDS, TRUNCATED_FIELDS, truncatedFromFields } from '../stats/truncation';
import type { FormatId } from '../formats/types';
import type { ParseIssue, Trajectory } from '../trajectory';
import { cutCategory, type CategorySeen } from './categories';
import type { FieldSeen, LabelCollector } from './labelColumns';
import { PREVIEW_CHARS, type PackedBatch, type Packer } from './packed';

/** The formats read this way, with the columns their normalizer takes the prompt and the completion from. */
const FLAT_FORMATS: Partial<Record<FormatId, { prompt: string; completion: string }>> = {
  'trl-standard': { prompt: 'prompt', completion: 'completion' },
  'trl-completions': { prompt: 'prompt', completion: 'completion' },
  'trl-conversational': { prompt: 'prompt', completion: 'completion' },
  'verl-dump': { prompt: 'input', completion: 'output' },
};

export function scansFlat(format: FormatId): boolean {
  return FLAT_FORMATS[format] !== undefined;
}

/** Bytes fed to the scanner at once (see readChunks). */
const FEED_BYTES = 1 << 20;
/** Bytes per read where the file cannot be read into a buffer of ours (see readChunks). */
const SLICE_BYTES = 16 << 20;
/**
 * Rows per batch sent to the page (unless `batchSize` says otherwise). Each batch is a message the page's thread
 * takes in and new arrays to transfer: with batches of 8,192 rows a 100,000-row import took 0.84–0.86× the time it
 * took with importStream's 2,000 (bench/README.md).
 */
const SCAN_BATCH_ROWS = 8192;

export interface ScanOptions {
  name: string;
  format: FormatId;
  /** Offset of `blob` in the file (spans are file offsets). */
  fileOffset: number;
  /** `blob` starts the file: a UTF-8 byte-order mark is skipped. */
  fileStart: boolean;
  packer: Packer;
  labels: LabelCollector;
  batchSize?: number;
  signal?: AbortSignal;
  /**
   * Bytes fed to the scanner at once, and per read where the file is read by slices (tests cut lines, characters and
   * escapes across feeds with small ones).
   */
  sliceBytes?: number;
  /** `blob`'s bytes from a read already started (`readAhead`), instead of a read of its own. */
  chunks?: AsyncIterable<Uint8Array>;
}

export interface ScannedBatch {
  batch: PackedBatch;
  spans: Float64Array;
}

/** Role of a key in a row. */
const NONE = 0;
const PROMPT = 1;
const COMPLETION = 2;
const STEP = 3;
/** GROUP + k: the k-th group column (GROUP_COLUMNS order). */
const GROUP = 4;
/** CUT + k: the k-th field that tells truncation (CUT_FIELDS order). */
const CUT = 16;
const CUT_FIELDS: readonly string[] = [...TRUNCATED_FIELDS, ...FINISH_REASON_FIELDS];

/**
 * Import `blob` (whole lines of a JSONL file in `format`) as packed batches. Returns the number of physical lines.
 * `bytesRead` / `totalBytes` of the batches count the bytes of `blob`.
 */
export async function* scanJsonl(blob: Blob, opts: ScanOptions): AsyncGenerator<ScannedBatch, number> {
  const flat = FLAT_FORMATS[opts.format];
  if (!flat) throw new Error(`scanJsonl: ${opts.format} is not a flat format`);
  const { name, packer, labels, signal } = opts;
  const normalize = NORMALIZERS[opts.format];
  const batchSize = opts.batchSize !== undefined && opts.batchSize >= 1 ? Math.floor(opts.batchSize) : SCAN_BATCH_ROWS;
  const scanner = await LineScanner.create(PREVIEW_CHARS);
  scanner.previewKey(flat.completion);

  /** Per key id: its role, and its label column once it had a value that is not null. */
  const roles: number[] = [];
  const slots: (FieldSeen | undefined)[] = [];
  const learnKeys = () => {
    const keys = scanner.keys;
    for (let id = roles.length; id < keys.length; id++) {
      const k = keys[id];
      const g = (GROUP_COLUMNS as readonly string[]).indexOf(k);
      const cut = CUT_FIELDS.indexOf(k);
      roles.push(k === flat.prompt ? PROMPT : k === flat.completion ? COMPLETION : k === 'step' ? STEP : g >= 0 ? GROUP + g : cut >= 0 ? CUT + cut : NONE);
      slots.push(undefined);
    }
  };

  let line = 0;
  const spans = new Spans();
  let issues: ParseIssue[] = [];
  let bytesRead = 0;
  const out: ScannedBatch[] = [];
  const flush = () => {
    out.push({ batch: packer.take(issues, bytesRead, blob.size), spans: spans.take() });
    issues = [];
  };

  /** A line for JSON.parse and the format's normalizer, as importStream reads it. */
  const parseLine = (s: ScannedLines, start: number, end: number) => {
    let text = scanner.decode(s.bytes, s.base + start, s.base + end);
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    const r = parseJsonlLine(text);
    if (r === undefined) return;
    if (typeof r === 'string') return void issues.push({ line, reason: r });
    let rows: Trajectory[];
    try {
      rows = normalize(r, { line });
    } catch (e) {
      return void issues.push({ line, reason: e instanceof Error ? e.message : String(e) });
    }
    labels.add(rows);
    for (const t of rows) {
      packer.trajectory(t);
      spans.push(s.streamBase + start, s.streamBase + end);
    }
  };

  /** The text of string field `f` as a group key; rows of a GRPO group usually follow each other (LastText). */
  const groupKeys = new LastText();
  const shortTextAt = (s: ScannedLines, f: number): string => scanner.shortTextAt(s, f);
  const keyAt = (s: ScannedLines, f: number): string => groupKeys.of(s, f, shortTextAt);

  /**
   * Row `row`'s value of field `f` for the collected categories (categories.ts). Per key id, the last string (LastText)
   * or the last number: a row whose value repeats the previous row's (most do) costs a compare, no string.
   */
  const cats = labels.categories;
  const catSlots: (CategorySeen | undefined)[] = [];
  const lastTexts: LastText[] = [];
  const categoryText = (s: ScannedLines, f: number): string => cutCategory(shortTextAt(s, f));
  const lastNumber: number[] = [];
  const lastNumberText: string[] = [];
  const categoryAt = (s: ScannedLines, f: number, row: number): void => {
    const { i32 } = s;
    const id = i32[f];
    const type = i32[f + 1];
    if (type === T_NULL) return;
    let c = catSlots[id];
    if (c === undefined) c = catSlots[id] = cats.column(scanner.keys[id]);
    if (!c.ok) return;
    if (type === T_OBJECT || type === T_ARRAY) return cats.giveUp(c);
    if (type === T_STRING) return cats.put(c, row, (lastTexts[id] ??= new LastText()).of(s, f, categoryText));
    if (type === T_NUMBER) {
      const x = scanner.numberAt(s, f);
      if (x !== lastNumber[id]) {
        lastNumber[id] = x;
        lastNumberText[id] = Number.isFinite(x) ? String(x) : 'null'; // as JSON.stringify writes it
      }
      return cats.put(c, row, lastNumberText[id]);
    }
    cats.put(c, row, type === T_TRUE ? 'true' : 'false');
  };

  /** A group column's value as a group key (field `f`, −1 when the row has none): undefined when it does not count. */
  const groupOf = (s: ScannedLines, f: number): string | undefined => {
    if (f < 0) return undefined;
    if (s.i32[f + 1] !== T_STRING) return keyOfValue(scanner.literalAt(s, f));
    return s.i32[f + 4] > 0 ? keyAt(s, f) : undefined;
  };

  const take = (s: ScannedLines) => {
    learnKeys();
    const { i32 } = s;
    for (let r = s.first; r < s.end; r = nextLine(i32, r)) {
      const status = i32[r + 2];
      const start = i32[r];
      const end = i32[r + 1];
      const fields = i32[r + 3];
      const f0 = r + HEADER_WORDS;
      line++;
      if (status === BLANK) continue;
      if (status === PARSE) parseLine(s, start, end);
      else
        fast: {
          let p = -1;
          let c = -1;
          let st = -1;
          let g0 = -1;
          let g1 = -1;
          let g2 = -1;
          let g3 = -1;
          let cut: Record<string, unknown> | null = null;
          for (let k = 0; k < fields; k++) {
            const f = f0 + k * FIELD_WORDS;
            const role = roles[i32[f]];
            if (role >= CUT) {
              // Only rows that carry a finish reason or a truncated flag pay for reading it.
              cut ??= {};
              cut[CUT_FIELDS[role - CUT]] = i32[f + 1] === T_STRING ? scanner.textAt(s, f) : scanner.literalAt(s, f);
              continue;
            }
            switch (role) {
              case PROMPT:
                p = f;
                break;
              case COMPLETION:
                c = f;
                break;
              case STEP:
                st = f;
                break;
              case GROUP:
                g0 = f;
                break;
              case GROUP + 1:
                g1 = f;
                break;
              case GROUP + 2:
                g2 = f;
                break;
              case GROUP + 3:
                g3 = f;
                break;
            }
          }
          if (p < 0 || c < 0 || i32[p + 1] !== T_STRING || i32[c + 1] !== T_STRING) {
            parseLine(s, start, end); // a missing column, or messages: the normalizer says what it makes of it
            break fast;
          }
          // The group key: the first group column whose value counts (group-key.ts, GROUP_COLUMNS order), else the prompt.
          const group = groupOf(s, g0) ?? groupOf(s, g1) ?? groupOf(s, g2) ?? groupOf(s, g3) ?? keyAt(s, p);
          const step = st >= 0 ? stepValue(i32[st + 1] === T_STRING ? scanner.textAt(s, st) : scanner.literalAt(s, st)) : undefined;
          const length = i32[c + 4];
          // The preview's UTF-16 units, written by the scanner.
          const truncated = cut ? truncatedFromFields(cut) : Number.NaN;
          const wide = (i32[c + 5] & F_WIDE) !== 0;
          packer.rowUnits(line, group, length, step ?? Number.NaN, s.u16, s.previewBase + i32[c + 7], Math.min(length, PREVIEW_CHARS), truncated, wide);
          spans.push(s.streamBase + start, s.streamBase + end);
          const row = labels.row();
          for (let k = 0; k < fields; k++) categoryAt(s, f0 + k * FIELD_WORDS, row);
          for (let k = 0; k < fields; k++) {
            const f = f0 + k * FIELD_WORDS;
            const id = i32[f];
            let slot = slots[id];
            if (slot?.ok === false) continue; // known not to be a label column (most are text)
            const type = i32[f + 1];
            if (type === T_NULL) continue;
            if (slot === undefined) slot = slots[id] = labels.field(scanner.keys[id]);
            if (type === T_NUMBER) labels.put(slot, row, scanner.numberAt(s, f));
            else if (type === T_TRUE) labels.put(slot, row, 1);
            else if (type === T_FALSE) labels.put(slot, row, 0);
            else labels.reject(slot);
          }
        }
      if (packer.rows >= batchSize || issues.length >= batchSize) flush();
    }
    packer.copyUnits(); // the next scan writes over the preview area
  };

  let offset = 0;
  for await (const chunk of opts.chunks ?? readChunks(blob, opts.sliceBytes ?? FEED_BYTES, opts.sliceBytes)) {
    throwIfCancelled(signal, name);
    const end = offset + chunk.length;
    let bytes = chunk;
    let from = offset;
    if (offset === 0 && opts.fileStart && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = bytes.subarray(3);
      from = 3;
    }
    bytesRead = end;
    scanner.feed(bytes, opts.fileOffset + from, end >= blob.size, take);
    offset = end;
    yield* handOut(out, signal, name);
  }
  if (packer.rows > 0 || issues.length > 0) flush();
  yield* handOut(out, signal, name);
  return line;
}

/**
 * The string last made from a string field's raw bytes, given again while the next field's bytes are the same (equal
 * bytes without escapes, or with the same escapes, are equal strings): that spares decoding and hashing a new string.
 */
class LastText {
  private bytes = new Uint8Array(64);
  private length = -1;
  private text = '';

  of(s: ScannedLines, f: number, make: (s: ScannedLines, f: number) => string): string {
    const { bytes } = s;
    const a = s.base + s.i32[f + 2]; // its opening quote
    const n = s.base + s.i32[f + 3] - a;
    if (n === this.length) {
      let k = 0;
      while (k < n && bytes[a + k] === this.bytes[k]) k++;
      if (k === n) return this.text;
    }
    if (n > this.bytes.length) this.bytes = new Uint8Array(2 * n);
    this.bytes.set(bytes.subarray(a, a + n));
    this.length = n;
    return (this.text = make(s, f));
  }
}

/**
 * The bytes of `blob`, in chunks of `size` bytes (the last one shorter), each valid until the next is asked for.
 *
 * They are read with a BYOB reader into one buffer of ours, used again for every chunk. In Chromium this takes about
 * 20 % less CPU than reading by `slice().arrayBuffer()` calls, which get a new buffer each; the saving is kernel
 * time, as if from faulting in and zeroing those buffers' pages (bench/README.md). An import is bound by the
 * machine's CPU, shared by the workers that scan and the browser's own threads that read the file. Where a blob's
 * stream has no BYOB reader, the file is read by slices of `sliceSize`, two in flight.
 */
export async function* readChunks(blob: Blob, size: number, sliceSize = SLICE_BYTES): AsyncGenerator<Uint8Array> {
  // The first chunk holds a whole byte-order mark.
  const first = Math.min(blob.size, Math.max(3, size));
  let reader: ReadableStreamBYOBReader | undefined;
  let stream: ReadableStream | undefined;
  try {
    stream = blob.stream();
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    reader = undefined;
  }
  if (reader) {
    const held = { stream, reader, blob };
    READING.add(held); // see READING
    try {
      let buffer = new ArrayBuffer(first);
      let filled = 0;
      let read = 0;
      while (read < blob.size) {
        const { done, value } = await reader.read(new Uint8Array(buffer, filled, buffer.byteLength - filled));
        if (value) {
          buffer = value.buffer as ArrayBuffer;
          filled += value.byteLength;
        }
        if (done && read + filled < blob.size) throw new Error(`the file ended after ${read + filled} of its ${blob.size} bytes`);
        if (filled < buffer.byteLength && read + filled < blob.size) continue;
        yield new Uint8Array(buffer, 0, filled);
        read += filled;
        filled = 0;
        if (buffer.byteLength !== size && read < blob.size) buffer = new ArrayBuffer(size);
      }
    } finally {
      READING.delete(held);
      await reader.cancel().catch(() => undefined);
    }
    return;
  }
  const reads: Promise<ArrayBuffer>[] = [];
  let requested = 0;
  const request = () => {
    if (requested >= blob.size) return;
    const end = Math.min(blob.size, requested + (requested === 0 ? first : sliceSize));
    reads.push(blob.slice(requested, end).arrayBuffer());
    requested = end;
  };
  request();
  request();
  while (reads.length > 0) {
    const buffer = await reads.shift()!;
    request();
    yield new Uint8Array(buffer);
  }
}

/** A read of a file started before its bytes are wanted: `chunks` are `readChunks(blob)`'s; `cancel` ends it unused. */
export interface ReadAhead {
  chunks: AsyncGenerator<Uint8Array>;
  cancel(): void;
}

/**
 * Start reading `blob` now, for a scan that starts later: the import decides the format from the file's head first
 * (a read of its own), and a blob stream's first read takes ~7 ms to come back (bench/README.md); this way the two
 * overlap. `chunks` must be read, or `cancel` called (both may be): an unread stream is held until then.
 */
export function readAhead(blob: Blob): ReadAhead {
  const inner = readChunks(blob, FEED_BYTES);
  const first = inner.next();
  // A failure of a read never taken is no unhandled rejection; a taken one is thrown where the chunks are read.
  first.catch(() => undefined);
  const chunks = (async function* () {
    try {
      const r = await first;
      if (r.done) return;
      yield r.value;
      yield* inner;
    } finally {
      await inner.return(undefined);
    }
  })();
  // An async generator's return waits for the read in progress, then runs readChunks' finally (the reader cancelled).
  return { chunks, cancel: () => void inner.return(undefined).catch(() => undefined) };
}

/** Yield the batches made so far (emptying `out`), stopping when the import is cancelled. */
function* handOut(out: ScannedBatch[], signal: AbortSignal | undefined, name: string): Generator<ScannedBatch> {
  for (let i = 0; i < out.length; i++) {
    throwIfCancelled(signal, name);
    yield out[i];
  }
  out.length = 0;
}

/** Byte spans (start, end per row) of the batch being built. */
class Spans {
  private a = new Float64Array(4096);
  private n = 0;

  push(start: number, end: number): void {
    if (this.n + 2 > this.a.length) {
      const bigger = new Float64Array(2 * this.a.length);
      bigger.set(this.a);
      this.a = bigger;
    }
    this.a[this.n++] = start;
    this.a[this.n++] = end;
  }

  take(): Float64Array {
    const out = this.a.slice(0, this.n);
    this.n = 0;
    return out;
  }
}
