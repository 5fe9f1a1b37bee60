/**
 * The fast path of a large JSONL import: packed batches straight from the file's bytes, for the formats whose rows
 * are flat records with a string prompt and completion (TRL standard and completions logs, verl rollout dumps).
 *
 * The bytes are read by slices and walked by the WebAssembly line scanner (formats/jsonl-scan), which validates
 * each line and gives the span and type of every top-level field. Of each row only what the main thread needs is
 * decoded: its group key, the completion's first PREVIEW_CHARS characters, its step and the numbers and booleans of
 * label columns; the completion's length comes from the scanner. The file is neither decoded to one string nor
 * parsed into objects, and no trajectory is built (the data worker reads rows back from their spans on demand).
 *
 * A line the scanner leaves to JSON.parse (invalid JSON, a value that is not an object, escapes in keys, repeated
 * keys…), and a row whose prompt or completion is not a string (a conversational row), goes the usual way:
 * `parseJsonlLine`, the format's normalizer, `Packer.trajectory`. So the batches, issues, spans, line count and label
 * columns are the ones `importStream` + `Packer` give for the same bytes (a test compares them on every fixture).
 */
import { throwIfCancelled } from '../formats/cancel';
import { GROUP_COLUMNS, keyOfValue } from '../formats/group-key';
import {
  BLANK,
  FIELD_WORDS,
  F_ESCAPE,
  F_INEXACT,
  HEADER_WORDS,
  LineScanner,
  PARSE,
  T_FALSE,
  T_NULL,
  T_NUMBER,
  T_STRING,
  T_TRUE,
  TextStage,
  type ScannedLines,
} from '../formats/jsonl-scan/scanner';
import { NORMALIZERS } from '../formats/normalize';
import { parseJsonlLine } from '../formats/read-jsonl';
import { stepValue } from '../formats/record-fields';
import type { FormatId } from '../formats/types';
import type { ParseIssue, Trajectory } from '../trajectory';
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

/** Bytes per read. */
const SLICE_BYTES = 16 << 20;
const DEFAULT_BATCH_SIZE = 2000;

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
  /** Bytes per read (tests cut lines, characters and escapes across reads with small ones). */
  sliceBytes?: number;
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

/** Kinds of what a scanned line gives (see `pending`). */
const FAST = 0;
const PARSED = 1;
const ISSUE = 2;

/**
 * Import `blob` (whole lines of a JSONL file in `format`) as packed batches. Returns the number of physical lines.
 * `bytesRead` / `totalBytes` of the batches count the bytes of `blob`.
 */
export async function* scanJsonl(blob: Blob, opts: ScanOptions): AsyncGenerator<ScannedBatch, number> {
  const flat = FLAT_FORMATS[opts.format];
  if (!flat) throw new Error(`scanJsonl: ${opts.format} is not a flat format`);
  const { name, packer, labels, signal } = opts;
  const normalize = NORMALIZERS[opts.format];
  const batchSize = opts.batchSize !== undefined && opts.batchSize >= 1 ? Math.floor(opts.batchSize) : DEFAULT_BATCH_SIZE;
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
      roles.push(k === flat.prompt ? PROMPT : k === flat.completion ? COMPLETION : k === 'step' ? STEP : g >= 0 ? GROUP + g : NONE);
      slots.push(undefined);
    }
  };
  /** Field word offsets of the current row, by role. */
  const at = new Int32Array(GROUP + GROUP_COLUMNS.length);

  let line = 0;
  let spans: number[] = [];
  let issues: ParseIssue[] = [];
  let bytesRead = 0;
  const out: ScannedBatch[] = [];
  const flush = () => {
    out.push({ batch: packer.take(issues, bytesRead, blob.size), spans: Float64Array.from(spans) });
    spans = [];
    issues = [];
  };

  /**
   * What the lines of one scan call give, in line order, until their strings are decoded (`stage`): rows read
   * from the scanner's fields (FAST), trajectories of lines parsed by JSON.parse (PARSED) and issues (ISSUE).
   */
  const stage = new TextStage();
  const pending = {
    kind: [] as number[],
    line: [] as number[],
    start: [] as number[],
    end: [] as number[],
    /** FAST: the group key, or its staged text (`groupText` −1 when `group` holds it). */
    group: [] as string[],
    groupText: [] as number[],
    preview: [] as number[],
    length: [] as number[],
    step: [] as number[],
    /** PARSED: the trajectory; ISSUE: the issue. */
    item: [] as (Trajectory | ParseIssue | undefined)[],
  };
  const push = (kind: number, start: number, end: number, item?: Trajectory | ParseIssue) => {
    pending.kind.push(kind);
    pending.line.push(line);
    pending.start.push(start);
    pending.end.push(end);
    pending.item.push(item);
    if (kind === FAST) return;
    pending.group.push('');
    pending.groupText.push(-1);
    pending.preview.push(-1);
    pending.length.push(0);
    pending.step.push(0);
  };

  /** A line for JSON.parse and the format's normalizer, as importStream reads it. */
  const parseLine = (s: ScannedLines, start: number, end: number) => {
    let text = scanner.decode(s.bytes, s.base + start, s.base + end);
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    const r = parseJsonlLine(text);
    if (r === undefined) return;
    if (typeof r === 'string') return push(ISSUE, 0, 0, { line, reason: r });
    let rows: Trajectory[];
    try {
      rows = normalize(r, { line });
    } catch (e) {
      return push(ISSUE, 0, 0, { line, reason: e instanceof Error ? e.message : String(e) });
    }
    labels.add(rows);
    for (const t of rows) push(PARSED, s.streamBase + start, s.streamBase + end, t);
  };

  /** A number field's value (word offset `f`). */
  const numberAt = (s: ScannedLines, f: number): number =>
    (s.i32[f + 5] & F_INEXACT) === 0 ? s.f64[(f + 6) >> 1] : Number(scanner.decode(s.bytes, s.base + s.i32[f + 2], s.base + s.i32[f + 3]));

  /** A string field's text. */
  const textAt = (s: ScannedLines, f: number): string => scanner.text(s.bytes, s.base + s.i32[f + 2], s.base + s.i32[f + 3], s.i32[f + 5]);

  /** A field's value as JSON.parse gives it, for numbers and literals (undefined for strings and containers). */
  const literalAt = (s: ScannedLines, f: number): unknown => {
    switch (s.i32[f + 1]) {
      case T_NUMBER:
        return numberAt(s, f);
      case T_TRUE:
        return true;
      case T_FALSE:
        return false;
      case T_NULL:
        return null;
      default:
        return undefined;
    }
  };

  /** Stage the text of string field `f` up to byte `end` (its closing quote, or its preview end). */
  const stageText = (s: ScannedLines, f: number, end: number, escaped: boolean) => stage.add(s.bytes, s.base + s.i32[f + 2] + 1, s.base + end, escaped);

  const take = (s: ScannedLines) => {
    learnKeys();
    const { i32 } = s;
    for (let r = s.first; r < s.end; ) {
      const status = i32[r + 2];
      const start = i32[r];
      const end = i32[r + 1];
      const fields = i32[r + 3];
      const f0 = r + HEADER_WORDS;
      r = f0 + (status === PARSE || status === BLANK ? 0 : fields * FIELD_WORDS);
      line++;
      if (status === BLANK) continue;
      if (status === PARSE) {
        parseLine(s, start, end);
        continue;
      }
      at.fill(-1);
      for (let k = 0; k < fields; k++) {
        const f = f0 + k * FIELD_WORDS;
        const role = roles[i32[f]];
        if (role !== NONE) at[role] = f;
      }
      const p = at[PROMPT];
      const c = at[COMPLETION];
      if (p < 0 || c < 0 || i32[p + 1] !== T_STRING || i32[c + 1] !== T_STRING) {
        parseLine(s, start, end); // a missing column, or messages: the normalizer says what it makes of it
        continue;
      }
      // The group key: the first group column whose value counts (group-key.ts), else the prompt.
      let group: string | undefined;
      let groupText = -1;
      for (let g = 0; g < GROUP_COLUMNS.length && group === undefined && groupText < 0; g++) {
        const f = at[GROUP + g];
        if (f < 0) continue;
        if (i32[f + 1] !== T_STRING) group = keyOfValue(literalAt(s, f));
        else if (i32[f + 4] > 0) groupText = stageText(s, f, i32[f + 3] - 1, (i32[f + 5] & F_ESCAPE) !== 0);
      }
      if (group === undefined && groupText < 0) groupText = stageText(s, p, i32[p + 3] - 1, (i32[p + 5] & F_ESCAPE) !== 0);
      const length = i32[c + 4];
      const preview = s.previewBase + i32[c + 7]; // its units, written by the scanner
      const st = at[STEP];
      const step = st >= 0 ? stepValue(i32[st + 1] === T_STRING ? textAt(s, st) : literalAt(s, st)) : undefined;
      push(FAST, s.streamBase + start, s.streamBase + end);
      pending.group.push(group ?? '');
      pending.groupText.push(groupText);
      pending.preview.push(preview);
      pending.length.push(length);
      pending.step.push(step ?? Number.NaN);
      const row = labels.row();
      for (let k = 0; k < fields; k++) {
        const f = f0 + k * FIELD_WORDS;
        const type = i32[f + 1];
        if (type === T_NULL) continue;
        const id = i32[f];
        let slot = slots[id];
        if (slot === undefined) slot = slots[id] = labels.field(scanner.keys[id]);
        if (!slot.ok) continue;
        if (type === T_NUMBER) labels.put(slot, row, numberAt(s, f));
        else if (type === T_TRUE) labels.put(slot, row, 1);
        else if (type === T_FALSE) labels.put(slot, row, 0);
        else labels.reject(slot);
      }
    }
    settle(s);
  };

  /** Decode the staged strings and pack what is pending, in line order. */
  const settle = (s: ScannedLines) => {
    const texts = scanner.finish(stage);
    const n = pending.kind.length;
    for (let i = 0; i < n; i++) {
      const kind = pending.kind[i];
      if (kind === ISSUE) issues.push(pending.item[i] as ParseIssue);
      else {
        if (kind === FAST) {
          const g = pending.groupText[i];
          const length = pending.length[i];
          const group = g < 0 ? pending.group[i] : texts[g];
          packer.rowUnits(pending.line[i], group, length, pending.step[i], s.u16, pending.preview[i], Math.min(length, PREVIEW_CHARS));
        } else packer.trajectory(pending.item[i] as Trajectory);
        spans.push(pending.start[i], pending.end[i]);
      }
      if (packer.rows >= batchSize || issues.length >= batchSize) flush();
    }
    for (const k in pending) (pending as Record<string, unknown[]>)[k].length = 0;
  };

  const sliceBytes = opts.sliceBytes ?? SLICE_BYTES;
  let offset = 0;
  // The first read holds a whole byte-order mark.
  let next: Promise<ArrayBuffer> | undefined = blob.size > 0 ? blob.slice(0, Math.min(blob.size, Math.max(3, sliceBytes))).arrayBuffer() : undefined;
  while (next !== undefined) {
    const buffer = await next;
    throwIfCancelled(signal, name);
    const end = offset + buffer.byteLength;
    next = end < blob.size ? blob.slice(end, Math.min(blob.size, end + sliceBytes)).arrayBuffer() : undefined;
    let bytes = new Uint8Array(buffer);
    let from = offset;
    if (offset === 0 && opts.fileStart && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      bytes = bytes.subarray(3);
      from = 3;
    }
    bytesRead = end;
    scanner.feed(bytes, opts.fileOffset + from, next === undefined, take);
    offset = end;
    yield* handOut(out, signal, name);
  }
  if (packer.rows > 0 || issues.length > 0) flush();
  yield* handOut(out, signal, name);
  return line;
}

/** Yield the batches made so far (emptying `out`), stopping when the import is cancelled. */
function* handOut(out: ScannedBatch[], signal: AbortSignal | undefined, name: string): Generator<ScannedBatch> {
  for (let i = 0; i < out.length; i++) {
    throwIfCancelled(signal, name);
    yield out[i];
  }
  out.length = 0;
}
