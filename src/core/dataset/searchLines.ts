/**
 * A text search of a plain JSONL import read from the file, no row kept: each block of lines is tested as raw text
 * (searchFilter.ts) and only the lines that may match are parsed into their rows and tested as searchTrajectories
 * tests them. At a million rows, keeping every parsed row for the search held ~1.2 GB in the data worker.
 */
import type { ByteSource } from '../formats/types';
import { lineBlocks } from './lineBlocks';
import type { LineRows } from './lineRows';
import { rowMatcher } from './search';
import { ARRAY, BACKSLASH, ByteFinder, MATCH, NUMBER, SLASH, U } from './searchBytes';
import { CONTROL_ESCAPE, lineFilter } from './searchFilter';

/**
 * Indices of the rows (the lines `rows` lists in `source`) whose prompt, completion or any field contains `needle`,
 * case-insensitively; null when `signal` aborted it. Throws when a line is no longer what the import read.
 */
export async function searchLines(source: ByteSource, rows: LineRows, needle: string, signal?: AbortSignal, readBytes?: number): Promise<Int32Array | null> {
  if (needle === '') return Int32Array.from({ length: rows.size }, (_, i) => i);
  const filter = lineFilter(needle);
  const matches = rowMatcher(needle);
  const hits: number[] = [];
  const finder = filter?.ascii ? await ByteFinder.create() : null;
  for await (const block of lineBlocks(source, rows, readBytes)) {
    if (signal?.aborted) return null;
    const { n } = block;
    let maybe: Uint8Array;
    if (filter?.ascii && finder) {
      const flags = finder.flags(block.bytes, block.starts, block.ends, filter.ascii, filter);
      let texts = 0;
      for (let k = 0; k < n; k++) if (flags[k] !== 0) texts++;
      if (texts <= n / 4) block.fewLines();
      maybe = new Uint8Array(n);
      for (let k = 0; k < n; k++) {
        if (flags[k] & (MATCH | NUMBER | ARRAY)) maybe[k] = 1;
        else if (flags[k] !== 0 && !block.sameLine(k)) maybe[k] = escapesMayHide(block.line(k), flags[k], filter.spelled) ? 1 : 0;
      }
    } else if (filter) {
      const w = block.text();
      maybe = candidates(w.text, w.starts, w.ends, filter);
    } else maybe = new Uint8Array(n).fill(1);
    for (let k = 0; k < n; k++) {
      if (block.sameLine(k)) maybe[k] = maybe[k - 1]; // a record's rows share their line's answer
      if (maybe[k] && matches(block.row(k))) hits.push(block.first + k);
    }
  }
  return Int32Array.from(hits);
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
  // Text the normalizer adds comes only from a list in the record.
  if (filter.arrays) mark(text, starts, ends, '[', 1, maybe);
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
