/**
 * A text search of a plain JSONL import read from the file, no row kept: each block of lines is tested as raw text
 * (searchFilter.ts) and only the lines that may match are parsed into their rows and tested as searchTrajectories
 * tests them. At a million rows, keeping every parsed row for the search held ~1.2 GB in the data worker.
 */
import type { ByteSource } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { unreadable, type LineRows } from './lineRows';
import { rowMatcher } from './search';
import { BACKSLASH, ByteFinder, MATCH, NUMBER, SLASH, U } from './searchBytes';
import { CONTROL_ESCAPE, lineFilter } from './searchFilter';

/** Bytes of one read, and reads asked for ahead of the one being searched (the browser reads while this thread works). */
const READ_BYTES = 8 << 20;
const READS_AHEAD = 2;

/**
 * Indices of the rows (the lines `rows` lists in `source`) whose prompt, completion or any field contains `needle`,
 * case-insensitively; null when `signal` aborted it. Throws when a line is no longer what the import read.
 */
export async function searchLines(
  source: ByteSource,
  rows: LineRows,
  needle: string,
  signal?: AbortSignal,
  readBytes = READ_BYTES,
): Promise<Int32Array | null> {
  const { size } = rows;
  if (needle === '') return Int32Array.from({ length: size }, (_, i) => i);
  const filter = lineFilter(needle);
  const matches = rowMatcher(needle);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const hits: number[] = [];
  const bounds = blocks(rows, readBytes);
  const finder = filter?.ascii ? await ByteFinder.create() : null;
  const read = (b: number): Promise<Uint8Array> => {
    const [i, j] = [bounds[b], bounds[b + 1]];
    const p = source.blob
      .slice(rows.start(i), rows.end(j - 1))
      .arrayBuffer()
      .then((buf) => new Uint8Array(buf));
    p.catch(() => undefined); // reads ahead of an aborted search are never awaited
    return p;
  };
  const pending: Promise<Uint8Array>[] = [];
  let asked = 0;
  for (let b = 0; b + 1 < bounds.length; b++) {
    while (asked + 1 < bounds.length && asked <= b + READS_AHEAD) pending.push(read(asked++));
    let bytes: Uint8Array;
    try {
      bytes = await pending.shift()!;
    } catch (e) {
      throw unreadable(source.name, e);
    }
    if (signal?.aborted) return null;
    const i = bounds[b];
    const n = bounds[b + 1] - i;
    if (bytes.length !== rows.end(i + n - 1) - rows.start(i)) throw unreadable(source.name, new Error('it is shorter than it was'));
    // Each row's line as text: from one decode of the block when many are needed, else decoded on its own.
    let whole: { text: string; starts: Int32Array; ends: Int32Array } | null = null;
    const decodeAll = () => {
      const text = decoder.decode(bytes);
      return (whole = { text, ...lineRanges(rows, i, n, bytes, text) });
    };
    let lineOf = (k: number): string => {
      const w = whole ?? decodeAll();
      return w.text.slice(w.starts[k], w.ends[k]);
    };
    let maybe: Uint8Array;
    if (filter?.ascii && finder) {
      const base = rows.start(i);
      const starts = new Int32Array(n);
      const ends = new Int32Array(n);
      for (let k = 0; k < n; k++) {
        starts[k] = rows.start(i + k) - base;
        ends[k] = rows.end(i + k) - base;
      }
      const flags = finder.flags(bytes, starts, ends, filter.ascii, filter.numbers);
      let texts = 0;
      for (let k = 0; k < n; k++) if (flags[k] !== 0) texts++;
      if (texts <= n / 4) lineOf = (k) => decoder.decode(bytes.subarray(starts[k], ends[k]));
      maybe = new Uint8Array(n);
      for (let k = 0; k < n; k++) {
        if (flags[k] & (MATCH | NUMBER)) maybe[k] = 1;
        else if (flags[k] !== 0 && (k === 0 || starts[k] !== starts[k - 1])) maybe[k] = escapesMayHide(lineOf(k), flags[k], filter.spelled) ? 1 : 0;
      }
    } else if (filter) {
      const w = decodeAll();
      maybe = candidates(w.text, w.starts, w.ends, filter);
    } else maybe = new Uint8Array(n).fill(1);
    let produced: Trajectory[] = [];
    for (let k = 0; k < n; k++) {
      const row = i + k;
      if (rows.sameLine(row) && k > 0) maybe[k] = maybe[k - 1]; // a record's rows share their line's answer
      if (!maybe[k]) continue;
      if (k === 0 || !rows.sameLine(row) || !maybe[k - 1]) {
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(lineOf(k)) as Record<string, unknown>;
        } catch (e) {
          throw unreadable(source.name, e);
        }
        produced = rows.produce(row, record);
      }
      if (matches(rows.pick(row, produced, source.name))) hits.push(row);
    }
  }
  return Int32Array.from(hits);
}

/** Row boundaries of the reads: rows [bounds[b], bounds[b + 1]), at least one row each, within `bytes` when they can. */
function blocks(rows: LineRows, bytes: number): number[] {
  const bounds = [0];
  for (let i = 0; i < rows.size;) {
    const limit = rows.start(i) + bytes;
    let j = i + 1;
    while (j < rows.size && rows.end(j) <= limit) j++;
    bounds.push(j);
    i = j;
  }
  return bounds;
}

/**
 * Where each of rows [i, i + n) lies in `text`, the decoded bytes of their lines. When every byte became one unit
 * (ASCII) offsets carry over; otherwise each row is found by counting the newlines before it, which decoding keeps.
 */
function lineRanges(rows: LineRows, i: number, n: number, bytes: Uint8Array, text: string): { starts: Int32Array; ends: Int32Array } {
  const base = rows.start(i);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const ascii = text.length === bytes.length;
  let at = 0; // in text: the end of the previous row's line
  let byteAt = base;
  for (let k = 0; k < n; k++) {
    const s = rows.start(i + k);
    if (ascii) {
      starts[k] = s - base;
      ends[k] = rows.end(i + k) - base;
      continue;
    }
    if (k > 0 && rows.sameLine(i + k)) {
      starts[k] = starts[k - 1];
      ends[k] = ends[k - 1];
      continue;
    }
    // Lines between the previous row and this one (its newline, blank or broken lines): skip as many in the text.
    for (let p = bytes.indexOf(10, byteAt - base); p >= 0 && p < s - base; p = bytes.indexOf(10, p + 1)) at = text.indexOf('\n', at) + 1;
    const e = text.indexOf('\n', at);
    starts[k] = at;
    ends[k] = e < 0 ? text.length : e;
    at = ends[k];
    byteAt = rows.end(i + k);
  }
  return { starts, ends };
}

/** Which rows of a block may match: their line holds the needle as it is, or spelled with escapes that may hide it. */
function candidates(text: string, starts: Int32Array, ends: Int32Array, filter: NonNullable<ReturnType<typeof lineFilter>>): Uint8Array {
  const n = starts.length;
  const maybe = new Uint8Array(n);
  const { plain, spelled } = filter;
  plain.lastIndex = 0;
  let k = 0;
  for (let m = plain.exec(text); m !== null; m = plain.exec(text)) {
    while (k < n && ends[k] <= m.index) k++;
    if (k === n) break;
    if (m.index < starts[k]) {
      plain.lastIndex = starts[k]; // in a line that gave no row
      continue;
    }
    maybe[k] = 1;
    plain.lastIndex = ends[k];
  }
  // A line with escapes may spell the needle otherwise, or hold JSON in a string (a tool call's arguments, which the
  // prompt shows parsed and written again): docs/import.md, "Text search". Most lines' escapes (\n, \") cannot.
  const escapes = new Uint8Array(n);
  mark(text, starts, ends, '\\u', U, escapes);
  mark(text, starts, ends, '\\/', SLASH, escapes);
  mark(text, starts, ends, '\\\\', BACKSLASH, escapes);
  for (k = 0; k < n; k++) if (!maybe[k] && escapes[k] !== 0) maybe[k] = escapesMayHide(text.slice(starts[k], ends[k]), escapes[k], spelled) ? 1 : 0;
  return maybe;
}

/** Set `flag` in `into` for each row whose line holds `pattern`. */
function mark(text: string, starts: Int32Array, ends: Int32Array, pattern: string, flag: number, into: Uint8Array): void {
  const n = starts.length;
  let k = 0;
  for (let p = text.indexOf(pattern); p >= 0;) {
    while (k < n && ends[k] <= p) k++;
    if (k === n) return;
    if (p < starts[k]) {
      p = text.indexOf(pattern, starts[k]); // in a line that gave no row
      continue;
    }
    into[k] |= flag;
    p = text.indexOf(pattern, ends[k]);
  }
}

/** Whether a line with these escapes may hold the needle where the plain test could not see it. */
function escapesMayHide(line: string, escapes: number, spelled: RegExp): boolean {
  const u = (escapes & U) !== 0;
  // JSON in a string has escapes of its own, spelled with an escaped backslash (only a tool call's arguments are
  // parsed again): parse the line.
  if ((escapes & BACKSLASH && (u || line.includes('arguments'))) || (u && /\\u005c/i.test(line))) return true;
  if (!u && (escapes & SLASH) === 0) return false;
  // A control character's \u escape comes back as a short escape where arguments are written again as JSON.
  return CONTROL_ESCAPE.test(line) || spelled.test(line);
}
