/**
 * What a raw JSONL line must contain for a row it gives to match a text search (search.ts: the needle, case-insensitive,
 * in the prompt, the completion or any value of the record), so that a search of a large file parses only the lines
 * that may match. The test is exact by construction, never a guess: the reasoning is in docs/import.md, "Text search".
 */

import { byteNeedle, fold, type ByteNeedle } from './searchBytes';

/**
 * Characters the normalizer's text views add around the record's strings, in a record that holds a list: flattened
 * turns (`role: content`, `→ name(…)`) and tool calls' arguments written again as JSON.
 */
const ADDED = ':(){}[],→';
/** Characters JSON.stringify escapes again in those arguments, which may stand for other text there. */
const ESCAPED = '"\\';

/** Units of the text `String(x)` of a finite number. */
const NUMBER_UNITS = new Set(Array.from('0123456789.e+-', (c) => c.charCodeAt(0)));

/** A `\u` escape of a control character, which JSON.stringify writes back as a short escape (`\n`), in any case. */
export const CONTROL_ESCAPE = /\\u00[01][0-9a-f]/i;

export interface LineFilter {
  /** The needle as JSON.stringify writes it: a line without `\u` or `\/` whose values hold it holds this (global, case-insensitive). */
  plain: RegExp;
  /** The needle with every character in each way a JSON string may spell it (for lines with `\u` or `\/`). */
  spelled: RegExp;
  /** The needle as bytes, when it is ASCII and its regex matches exactly its ASCII letters in either case. */
  ascii: ByteNeedle | null;
  /**
   * The needle could be in text the normalizer adds where the record holds a list (ADDED, a space at an end): a line
   * with a `[` is a candidate too.
   */
  arrays: boolean;
  /**
   * The needle could be in a number's text `String(x)`: a line is also a candidate when it holds a number that may
   * not be written as `String(x)` writes it (searchBytes.ts, NUMBER).
   */
  numbers: boolean;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every UTF-16 unit, in order, for finding which units a case-insensitive regex of one character matches. */
let allUnits: string | null = null;

/** The units `new RegExp(c, 'i')` matches: c and its case variants, as the search's own regex decides them. */
function caseVariants(c: string): number[] {
  if (allUnits === null) {
    const parts: string[] = [];
    for (let i = 0; i < 65536; i += 4096) parts.push(String.fromCharCode(...Array.from({ length: 4096 }, (_, k) => i + k)));
    allUnits = parts.join('');
  }
  const re = new RegExp(literal(c), 'gi');
  const out: number[] = [];
  for (let m = re.exec(allUnits); m !== null; m = re.exec(allUnits)) out.push(m.index);
  return out;
}

/** Regex sources of the short escapes a JSON string may use (`\/` for `/` is optional; the others are required). */
const SHORT_ESCAPES: Record<number, string> = {
  0x22: String.raw`\\"`,
  0x5c: String.raw`\\\\`,
  0x2f: String.raw`\\/`,
  0x08: String.raw`\\b`,
  0x0c: String.raw`\\f`,
  0x0a: String.raw`\\n`,
  0x0d: String.raw`\\r`,
  0x09: String.raw`\\t`,
};

/** Regex sources of every way a JSON string may spell unit u: itself where JSON lets it stand, a short escape, `\uXXXX`. */
function spellings(u: number): string[] {
  const out: string[] = [];
  if (u >= 0x20 && u !== 0x22 && u !== 0x5c) out.push(literal(String.fromCharCode(u)));
  if (SHORT_ESCAPES[u]) out.push(SHORT_ESCAPES[u]);
  out.push(String.raw`\\u` + u.toString(16).padStart(4, '0')); // the regex's i flag takes the hex digits in either case
  return out;
}

/**
 * The filter for a search of `needle`, or null when no test of the raw line is exact (the empty needle, which every
 * row holds).
 */
export function lineFilter(needle: string): LineFilter | null {
  if (needle === '') return null;
  let arrays = needle.startsWith(' ') || needle.endsWith(' ');
  // -Infinity is the text of a number too large for a double, written with an exponent (1e400).
  const infinity = new RegExp(literal(needle), 'i').test('-Infinity');
  // The needle as a line without `\u` or `\/` must write it: the escapes JSON requires are the only ones it has (a
  // surrogate stays as it is: half of a pair the line holds as it is).
  const written = Array.from(needle, (c) => (c === '"' || c === '\\' || c < ' ' ? JSON.stringify(c).slice(1, -1) : c)).join('');
  const parts: string[] = [];
  let numberLike = true;
  let ascii = true;
  for (let i = 0; i < needle.length; i++) {
    const c = needle.charCodeAt(i);
    // Text the normalizer adds, and escapes tool calls' arguments written again as JSON may spell otherwise than
    // the line, come only with a list in the record.
    arrays ||= c < 0x20 || ESCAPED.includes(needle[i]) || ADDED.includes(needle[i]);
    const variants = caseVariants(needle[i]);
    numberLike &&= variants.some((u) => NUMBER_UNITS.has(u));
    // Bytes can stand for the regex where it matches just the character's ASCII cases (no other unit folds to them).
    const letter = fold(c) >= 0x61 && fold(c) <= 0x7a;
    ascii &&= c < 0x80 && variants.length === (letter ? 2 : 1) && variants.every((u) => fold(u) === fold(c));
    const alts = new Set<string>();
    for (const u of variants) for (const s of spellings(u)) alts.add(s);
    parts.push(`(?:${[...alts].join('|')})`);
  }
  const numbers = numberLike || infinity;
  // Numbers are looked for in the bytes only (such a needle is ASCII: digits, . e + -, letters of Infinity).
  const bytes = ascii ? byteNeedle(written) : null;
  if (numbers && !bytes) return null;
  return { plain: new RegExp(literal(written), 'gi'), spelled: new RegExp(parts.join(''), 'i'), ascii: bytes, numbers, arrays };
}
