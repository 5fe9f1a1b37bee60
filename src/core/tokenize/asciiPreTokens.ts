/**
 * Hand-written pre-tokenizer splits for the exact regexes of the shipped tokenizers, on ASCII text: where each
 * pre-token ends, found by reading character codes, with no match arrays and no substrings (the regex `match` and the
 * strings it made were a third of the counter's time on real text).
 *
 * A scanner answers the end of the pre-token that starts at `i`, or −1 when deciding it means reading a non-ASCII
 * character (its class — letter, number, whitespace — would need Unicode tables): the regex itself then runs from `i`. That is the same match, because these regexes match at every position (every character is a letter, a
 * number, whitespace or another symbol, and each alternative class is covered) and have no lookbehind, so the regex's
 * matches are exactly the pre-tokens read one after another from the start.
 */

/** The end of the pre-token starting at `i` in `text` (i < text.length), or −1 when a non-ASCII character decides it. */
export type PreTokenScanner = (text: string, i: number) => number;

/** GPT-2's ByteLevel regex as tokenizers.js writes it (`\s` is JavaScript's, equal to White_Space on ASCII). */
const GPT2 = String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;
/** Llama-3's split regex after tokenizers.js rewrites `(?i:…)` and `\s`; Qwen3's is the same with one digit per piece. */
const LLAMA3 = String.raw`(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\p{White_Space}\p{L}\p{N}]+[\r\n]*|\p{White_Space}*[\r\n]+|\p{White_Space}+(?!\P{White_Space})|\p{White_Space}+`;
const QWEN3 = LLAMA3.replace(String.raw`\p{N}{1,3}`, String.raw`\p{N}`);

// Character classes of ASCII: \p{L} is A–Z a–z, \p{N} is 0–9, White_Space is \t \n \v \f \r and space; every other
// code below 128 (punctuation, controls) is in the "other" class. X: not ASCII, or past the end (undecided here).
const X = 0;
const L = 1;
const N = 2;
const S = 3;
const P = 4;
const CLASS = new Uint8Array(128).fill(P);
for (let c = 65; c <= 90; c++) CLASS[c] = CLASS[c + 32] = L;
for (let c = 48; c <= 57; c++) CLASS[c] = N;
for (const c of [9, 10, 11, 12, 13, 32]) CLASS[c] = S;

const SPACE = 32;
const QUOTE = 39;
const isNewline = (c: number) => c === 10 || c === 13;
/** Class of the code unit `c` (NaN past the end of the text: X). */
const classOf = (c: number) => (c < 128 ? CLASS[c] : X);

/** The end of the run of class `k` that starts at `j`, or −1 when a non-ASCII character could continue it. */
function runEnd(text: string, j: number, k: number): number {
  const n = text.length;
  for (; j < n; j++) {
    const kj = classOf(text.charCodeAt(j));
    if (kj === X) return -1;
    if (kj !== k) break;
  }
  return j;
}

/** `'s|'t|'re|'ve|'m|'ll|'d` at `i` (any case when `anyCase`): the end of the contraction, or −1. */
function contraction(text: string, i: number, anyCase: boolean): number {
  let a = text.charCodeAt(i + 1);
  let b = text.charCodeAt(i + 2);
  // Lower-casing ASCII capitals: | 32 maps A–Z onto a–z (and nothing else onto s t m d r e v l).
  if (anyCase) {
    if (a >= 65 && a <= 90) a |= 32;
    if (b >= 65 && b <= 90) b |= 32;
  }
  if (a === 115 || a === 116 || a === 109 || a === 100) return i + 2; // s t m d
  if ((a === 114 && b === 101) || (a === 118 && b === 101) || (a === 108 && b === 108)) return i + 3; // re ve ll
  return -1;
}

/** GPT-2: `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`. */
function scanGpt2(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  const k = classOf(c);
  if (k === X) return -1;
  if (c === QUOTE) {
    const e = contraction(text, i, false);
    if (e >= 0) return e;
  }
  // An optional space, then a run of letters, of digits, or of other symbols.
  if (k !== S) return runEnd(text, i + 1, k);
  if (c === SPACE && i + 1 < n) {
    const k1 = classOf(text.charCodeAt(i + 1));
    if (k1 === X) return -1;
    if (k1 !== S) return runEnd(text, i + 2, k1);
  }
  return whitespace(text, i, false);
}

/**
 * The whitespace alternatives from `i` (a whitespace character): with `newlines`, `\s*[\r\n]+` first (up to the
 * run's last CR or LF); then `\s+(?!\S)` (the run, less its last character unless the text ends there); then `\s+`.
 */
function whitespace(text: string, i: number, newlines: boolean): number {
  const n = text.length;
  let lastNewline = newlines && isNewline(text.charCodeAt(i)) ? i : -1;
  let j = i + 1;
  for (; j < n; j++) {
    const cj = text.charCodeAt(j);
    const kj = classOf(cj);
    if (kj === X) return -1;
    if (kj !== S) break;
    if (newlines && isNewline(cj)) lastNewline = j;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (j === n) return j;
  return j - 1 > i ? j - 1 : j;
}

/**
 * Llama-3 (`maxDigits` 3) and Qwen3 (1): `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
 * ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
 */
function scanLlama(text: string, i: number, maxDigits: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  const k = classOf(c);
  if (k === X) return -1;
  if (c === QUOTE) {
    const e = contraction(text, i, true);
    if (e >= 0) return e;
  }
  if (k === L) return runEnd(text, i + 1, L);
  if (k === N) {
    const stop = Math.min(n, i + maxDigits);
    let j = i + 1;
    for (; j < stop; j++) {
      const kj = classOf(text.charCodeAt(j));
      if (kj === X) return -1;
      if (kj !== N) break;
    }
    return j;
  }
  // One character that is not CR, LF, a letter or a digit, then letters.
  let k1 = S;
  if (!isNewline(c) && i + 1 < n) {
    k1 = classOf(text.charCodeAt(i + 1));
    if (k1 === X) return -1;
    if (k1 === L) return runEnd(text, i + 2, L);
  }
  // An optional space, other symbols, then any CR and LF.
  const start = k === P ? i : c === SPACE && k1 === P ? i + 1 : -1;
  if (start >= 0) {
    let j = runEnd(text, start + 1, P);
    if (j < 0) return -1;
    while (j < n && isNewline(text.charCodeAt(j))) j++;
    return j;
  }
  return whitespace(text, i, true);
}

/**
 * For the regex `pattern` of a shipped tokenizer (same source and flags), the end of the pre-token that starts at `i`:
 * the ASCII scanner's answer, else the regex's own match at `i` (sticky); −1 only if the regex matches nothing there.
 * Null for any other regex.
 */
export function preTokenEnd(pattern: RegExp): PreTokenScanner | null {
  if (!pattern.unicode || pattern.ignoreCase || pattern.multiline || pattern.dotAll) return null;
  const scan: PreTokenScanner | null =
    pattern.source === GPT2
      ? scanGpt2
      : pattern.source === LLAMA3
        ? (text, i) => scanLlama(text, i, 3)
        : pattern.source === QWEN3
          ? (text, i) => scanLlama(text, i, 1)
          : null;
  if (!scan) return null;
  const sticky = new RegExp(pattern.source, 'uy');
  return (text, i) => {
    const end = scan(text, i);
    if (end >= 0) return end;
    sticky.lastIndex = i;
    const m = sticky.exec(text);
    return m === null || m[0].length === 0 ? -1 : i + m[0].length;
  };
}
