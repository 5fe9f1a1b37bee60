/**
 * A plain JSONL data file read in pieces, one per worker, all at once: this process cuts the file after newlines,
 * decides the format from its head and counts the lines before each cut; each worker reads its piece and sends back
 * its rows' facts and line index; joined, they are the facts a whole-file read gives (`joinMetas`) and the index
 * with which every worker reads the rows its tasks need (docs/engine.md, "Pieces").
 */
import { open } from 'node:fs/promises';
import { joinMetas, type DatasetMeta } from '../core/dataset/meta';
import type { LineIndex } from '../core/dataset/lineRows';
import type { ColumnMapping, Detection, FormatId } from '../core/formats/types';
import type { PieceRequest } from '../engine/protocol';
import { openFile } from '../engine/nodeFile';
import { MIN_PIECE_BYTES, SCANNED_LEAN_PIECE_BYTES } from './pieceCount';
import { scansFlat } from '../core/dataset/scanJsonl';
import { nameIssue } from '../core/dataset/parts';

/** What the workers are asked to read, and the file's format, as a whole-file read detects it. */
export interface PiecePlan {
  detection: Detection;
  requests: Omit<PieceRequest, 'kind'>[];
  /** Whether the pieces are read lean (then so is the dataset loaded after them). */
  lean: boolean;
}

/**
 * The pieces of `path` for `workers` workers, or null when the file is to be read whole by one worker: too small,
 * not plain JSONL (gzip, CSV, a JSON document), a first piece with fewer records than format detection samples, or
 * a head that does not import (the whole-file read then reports why, as before).
 */
export async function planFilePieces(
  path: string,
  name: string,
  workers: number,
  o: { format: FormatId | null; mapping: ColumnMapping | null; label: string | null; groupBy: string | null },
  tooLarge = false,
  scannedLeanBytes = SCANNED_LEAN_PIECE_BYTES,
): Promise<PiecePlan | null> {
  // The import's code, loaded only here: the launcher and the workers' whole-file path do not need it in this process.
  const [{ planPieces }, { DETECTION_SAMPLE }] = await Promise.all([import('../core/dataset/importPacked'), import('../core/formats/import-stream')]);
  const blob = await openFile(path);
  // One piece: a file too large to keep, read lean by one worker (pieceCount checked that it starts with `{`).
  const cuts = workers === 1 ? [0, blob.size] : await planPieces(blob, workers, MIN_PIECE_BYTES);
  if (!cuts) return null;
  const head = await jsonlHead(name, blob.slice(0, cuts[1]), o.format, o.mapping);
  if (!head || head.sampled < DETECTION_SAMPLE) return null;
  const { detection } = head;
  // Lean when too large to keep, or where the scanner gives the facts and the pieces are large enough to gain by it.
  const scanned = o.label === null && o.groupBy === null && scansFlat(detection.format);
  const smallest = Math.min(...cuts.slice(1).map((c, k) => c - cuts[k]));
  const lean = tooLarge || (scanned && smallest >= scannedLeanBytes);
  const offsets = await linesBefore(path, cuts.slice(1, -1));
  const requests = cuts.slice(0, -1).map((start, k) => ({
    datasetId: 'cli',
    path,
    name,
    start,
    end: cuts[k + 1],
    lineOffset: k === 0 ? 0 : offsets[k - 1],
    format: detection.format,
    mapping: o.mapping,
    meta: { label: o.label, groupBy: o.groupBy },
    ...(lean ? { lean } : {}),
  }));
  return { detection, requests, lean };
}

/** The physical lines before each of `cuts` (ascending byte offsets, each just after a newline): newlines counted. */
async function linesBefore(path: string, cuts: number[]): Promise<number[]> {
  const out: number[] = [];
  if (cuts.length === 0) return out;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(4 << 20);
    let pos = 0;
    let lines = 0;
    for (const cut of cuts) {
      while (pos < cut) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, cut - pos), pos);
        if (bytesRead === 0) throw new Error(`${path} is shorter than it was`);
        for (let at = buf.indexOf(10, 0); at >= 0 && at < bytesRead; at = buf.indexOf(10, at + 1)) lines++;
        pos += bytesRead;
      }
      out.push(lines);
    }
  } finally {
    await fh.close();
  }
  return out;
}

/**
 * The whole file's facts and line index from its pieces' (in order), or null when they do not fit together: a row
 * outside its piece's bytes or lines, or no row at all (the whole-file read then gives its own error).
 */
export function joinPieces(plan: PiecePlan, reads: readonly { meta: DatasetMeta; index: LineIndex }[]): { meta: DatasetMeta; index: LineIndex } | null {
  if (reads.length !== plan.requests.length) return null;
  let n = 0;
  for (const r of reads) n += r.meta.rows;
  if (n === 0) return null;
  const spans = new Float64Array(2 * n);
  const lines = new Int32Array(n);
  let at = 0;
  for (let k = 0; k < reads.length; k++) {
    const { index } = reads[k];
    const q = plan.requests[k];
    const next = plan.requests[k + 1];
    const m = index.lines.length;
    // Rows come back with ascending starts and lines (protocol.ts): only the first and last are checked against the piece.
    if (m > 0) {
      if (index.spans[0] < q.start || index.spans[2 * m - 1] > q.end) return null;
      if (index.lines[0] <= q.lineOffset || (next && index.lines[m - 1] > next.lineOffset)) return null;
    }
    spans.set(index.spans, 2 * at);
    lines.set(index.lines, at);
    at += m;
  }
  return {
    meta: joinMetas(
      reads.map((r) => r.meta),
      plan.detection,
    ),
    index: { spans, lines },
  };
}

/**
 * A dataset of several plain JSONL files read lean (pieceCount.ts `leanParts`): one request per file, the first's
 * format (as detected from its head, or as given) for all of them, as a whole read of the parts uses. Null when a part
 * is not plain JSONL read as a stream or the first one's head does not decide a format: the parts are then read whole.
 */
export async function planPartPieces(
  parts: readonly { path: string; name: string }[],
  o: { format: FormatId | null; mapping: ColumnMapping | null; label: string | null; groupBy: string | null },
): Promise<PiecePlan | null> {
  const { DETECTION_SAMPLE } = await import('../core/formats/import-stream');
  let detection: Detection | null = null;
  const sizes: number[] = [];
  for (const p of parts) {
    const blob = await openFile(p.path);
    sizes.push(blob.size);
    // The head decides the format and whether the file is JSONL read as a stream (a few MB, as for a piece).
    const head = await jsonlHead(p.name, blob.slice(0, Math.min(blob.size, HEAD_BYTES)), o.format ?? detection?.format ?? null, o.mapping);
    if (!head) return null;
    if (!detection) {
      if (head.sampled < DETECTION_SAMPLE && blob.size > HEAD_BYTES) return null;
      detection = head.detection;
    }
  }
  if (!detection) return null;
  const format = detection.format;
  const meta = { label: o.label, groupBy: o.groupBy };
  const requests = parts.map((p, k) => ({
    datasetId: 'cli',
    path: p.path,
    name: p.name,
    start: 0,
    end: sizes[k],
    lineOffset: 0,
    format,
    mapping: o.mapping,
    meta,
    lean: true,
  }));
  return { detection, requests, lean: true };
}

/**
 * What the head of a file gives read as the import reads it (`format` forced, else detected): its format and how many
 * records decided it, or null when it is not JSONL read as a stream or does not import.
 */
async function jsonlHead(
  name: string,
  head: Blob,
  format: FormatId | null,
  mapping: ColumnMapping | null,
): Promise<{ detection: Detection; sampled: number } | null> {
  const { importStream } = await import('../core/formats/import-stream');
  const events = importStream({ name, blob: head }, { format: format ?? undefined, mapping: mapping ?? undefined, allowEmpty: true });
  try {
    const first = await events.next();
    return first.done || first.value.type !== 'meta' || !first.value.spans ? null : { detection: first.value.detection, sampled: first.value.sampled };
  } catch {
    return null;
  } finally {
    await events.return(undefined);
  }
}

/** Bytes of a part's head read to decide its format (and of the first, its detection). */
const HEAD_BYTES = 4 << 20;

/**
 * The facts of a dataset of several files from each file's lean read (in order), as a whole read of the parts gives
 * them (loadAll.ts `addWholePart`): rows without a step take their file's, issues are named by file. Null when a read
 * does not fit its file or a file gave no row (a whole read then says why).
 */
export function joinPartPieces(
  plan: PiecePlan,
  reads: readonly { meta: DatasetMeta; index: LineIndex }[],
  parts: readonly { name: string; step: number | null }[],
): { meta: DatasetMeta; indexes: LineIndex[] } | null {
  if (reads.length !== plan.requests.length || reads.length !== parts.length) return null;
  const metas: DatasetMeta[] = [];
  for (let k = 0; k < reads.length; k++) {
    const { meta, index } = reads[k];
    const m = index.lines.length;
    if (m === 0 || m !== meta.rows || index.spans[2 * m - 1] > plan.requests[k].end || index.lines[0] < 1) return null;
    const { step, name } = parts[k];
    const steps = step === null ? meta.steps : meta.steps.map((s) => (Number.isNaN(s) ? step : s));
    metas.push({ ...meta, steps, issues: meta.issues.map((i) => nameIssue(i, name)) });
  }
  return { meta: joinMetas(metas, plan.detection), indexes: reads.map((r) => r.index) };
}
