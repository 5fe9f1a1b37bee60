/**
 * Sniff what a file's first bytes are (the name is only a hint, used elsewhere for `.tsv`).
 * Pure function over a byte window: gzip and Parquet by magic number, a UTF-8 BOM skipped, empty (only
 * whitespace), binary (NUL bytes or more than 10% control characters in the first 8 KiB), else text and its
 * first non-whitespace character, which picks JSON (`[`), JSONL (`{`) or CSV (anything else).
 */

/** How many bytes the binary check looks at. */
export const SNIFF_BYTES = 8192;

export type Sniffed =
  | { kind: 'gzip' }
  | { kind: 'parquet' }
  | { kind: 'empty' }
  | { kind: 'binary'; hint?: string }
  /** Only whitespace so far, and the window is not the whole stream: peek further. */
  | { kind: 'need-more' }
  | { kind: 'text'; first: string };

/** @param eof whether `bytes` is everything the stream holds */
export function sniffBytes(bytes: Uint8Array, eof: boolean): Sniffed {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return { kind: 'gzip' };
  if (startsWith(bytes, [0x50, 0x41, 0x52, 0x31])) return { kind: 'parquet' }; // "PAR1"
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    return { kind: 'binary', hint: 'It is UTF-16 text: save it as UTF-8 and try again.' };
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return { kind: 'binary', hint: 'It is a ZIP archive: unzip it first.' };
  const start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  if (looksBinary(bytes, start)) return { kind: 'binary' };
  for (let i = start; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09 && b !== 0x0c) return { kind: 'text', first: String.fromCharCode(b) };
  }
  return eof ? { kind: 'empty' } : { kind: 'need-more' };
}

function looksBinary(bytes: Uint8Array, start: number): boolean {
  const end = Math.min(bytes.length, start + SNIFF_BYTES);
  let control = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d) || b === 0x7f) control++;
  }
  return control > (end - start) * 0.1;
}

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic[i]) return false;
  return true;
}
