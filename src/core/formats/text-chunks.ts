/**
 * Decode a byte stream as UTF-8, chunk by chunk, correctly across chunk boundaries: each chunk is cut after its
 * last complete character and the 1–3 bytes of a split multi-byte character are carried into the next chunk.
 * A leading BOM is dropped; invalid bytes become U+FFFD.
 *
 * Two decoders share the work: a one-shot decode is much faster on ASCII text in Node (a SIMD fast path), a
 * streaming-mode decode is faster on other text. The choice for each chunk follows the previous one (was it pure
 * ASCII: decoded length equal to byte length?). The streaming decoder may still hold the bytes of a broken
 * sequence at the end of a piece; it is flushed before the one-shot decoder takes over, and at the end.
 */
import type { ByteReader } from './byte-reader';

/** Decoded text with the bytes it was decoded from: every newline of `text` is a 0x0A byte of `bytes`, in order. */
export interface TextChunk {
  text: string;
  /** The bytes behind `text` (a view: do not keep it past the next chunk). */
  bytes: Uint8Array;
  /** Offset of `bytes[0]` in the stream. */
  start: number;
  /**
   * Whether `text[i]` came from `bytes[i]` for every i (pure ASCII, nothing carried into the chunk by the decoder),
   * so a character position is a byte position.
   */
  oneToOne: boolean;
}

export async function* textChunks(reader: ByteReader): AsyncGenerator<string> {
  for await (const c of textChunksWithBytes(reader)) yield c.text;
}

/** `textChunks`, each chunk with the bytes it came from and their offset in the stream (for byte spans of lines). */
export async function* textChunksWithBytes(reader: ByteReader): AsyncGenerator<TextChunk> {
  const oneShot = new TextDecoder('utf-8', { ignoreBOM: true });
  const streaming = new TextDecoder('utf-8', { ignoreBOM: true });
  let carry: Uint8Array | undefined;
  let first = true;
  let ascii = true;
  /** The streaming decoder may hold the bytes of a broken sequence (followed by a new lead byte, in the carry). */
  let streamingUsed = false;
  /** Stream offset of the next byte `reader.read()` returns. */
  let offset = 0;
  // Every chunk's bytes are done with (decoded, or copied into `carry`) before the next is read.
  reader.freeUsed();
  try {
    for (let bytes = await reader.read(); bytes !== undefined; bytes = await reader.read()) {
      let start = offset;
      offset += bytes.length;
      if (carry !== undefined) {
        start -= carry.length;
        const joined = new Uint8Array(carry.length + bytes.length);
        joined.set(carry);
        joined.set(bytes, carry.length);
        bytes = joined;
        carry = undefined;
      }
      if (first) {
        if (bytes.length < 3 && bytes[0] === 0xef) {
          carry = bytes.slice(); // maybe a BOM split across chunks (a copy: the reader frees what it read)
          continue;
        }
        first = false;
        if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
          bytes = bytes.subarray(3);
          start += 3;
        }
      }
      const cut = completeLength(bytes);
      if (cut < bytes.length) carry = bytes.slice(cut);
      const whole = bytes.subarray(0, cut);
      let text: string;
      let carried = false;
      if (ascii) {
        text = oneShot.decode(whole);
        ascii = text.length === whole.length;
        if (streamingUsed) {
          const flushed = streaming.decode(); // those bytes are followed by a lead byte, so they are invalid
          carried = flushed.length > 0;
          text = flushed + text;
          streamingUsed = false;
        }
      } else {
        text = streaming.decode(whole, { stream: true });
        ascii = text.length === whole.length;
        // The decoder may emit characters for bytes of the previous chunk it held back: then positions shift.
        carried = true;
        streamingUsed = true;
      }
      // Every UTF-8 sequence decodes to at most as many UTF-16 units as it has bytes, equally only for ASCII (and
      // for an invalid byte, one U+FFFD per byte): equal lengths mean one unit per byte.
      if (text.length > 0) yield { text, bytes: whole, start, oneToOne: !carried && text.length === whole.length };
    }
    let tail = streamingUsed ? streaming.decode() : '';
    let tailBytes: Uint8Array = new Uint8Array(0);
    if (carry !== undefined) {
      const bom = first && carry.length === 3 && carry[0] === 0xef && carry[1] === 0xbb && carry[2] === 0xbf;
      tailBytes = bom ? carry.subarray(3) : carry;
      tail += oneShot.decode(tailBytes);
    }
    if (tail.length > 0) yield { text: tail, bytes: tailBytes, start: offset - tailBytes.length, oneToOne: false };
  } finally {
    await reader.cancel();
  }
}

/**
 * Length of the prefix of `bytes` that ends on a character boundary: drops a trailing lead byte whose
 * continuation bytes have not arrived yet (at most 3 bytes are dropped; malformed input is left to the decoder).
 */
export function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const b = bytes[n - back];
    if (b < 0x80) return n; // ASCII: boundary
    if (b >= 0xc0) {
      // lead byte: how long is its sequence?
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return need > back ? n - back : n;
    }
    // continuation byte: keep looking back
  }
  return n;
}
