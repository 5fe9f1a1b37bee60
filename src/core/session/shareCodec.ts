/**
 * Share-link codec. The link's fragment (`#s=…`, never sent to a server) is base64url of one frame:
 *
 *   "RS" · version (1 byte) · deflate-raw( jsonLength (u32 LE) · JSON (UTF-8) · data bytes ) · CRC-32 (u32 LE)
 *
 * The CRC covers everything before it, so a changed character anywhere, or a link cut short, is caught before
 * anything is inflated or parsed; the version byte is read before inflating, so a link from a newer studio gets
 * its own message even if a later version changes the body. The data bytes are the dataset file itself when it is
 * small enough to travel inside the link (see `INLINE_LIMIT`).
 */
import { deflateSync, inflateSync } from 'fflate';
import { crc32 } from './crc32';
import { parseShared, SHARE_VERSION, type SharedSession } from './schema';

/** A link's body may inflate to at most this many bytes (the inline data is at most 8 MiB before compression). */
export const MAX_PLAIN_BYTES = 64 * 2 ** 20;
/** Largest compressed body (bytes) that carries the dataset inline; bigger data is named by its hash instead. */
export const INLINE_LIMIT = 200_000;
const MAGIC0 = 0x52; // R
const MAGIC1 = 0x53; // S
const HEADER = 3;
const TRAILER = 4;

export type DecodedShare =
  | { ok: true; session: SharedSession; data: Uint8Array | null; migratedFrom?: number }
  | { ok: false; reason: 'damaged' | 'newer' | 'invalid'; message: string };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) t[ALPHABET.charCodeAt(i)] = i;
  return t;
})();

/** RFC 4648 §5 base64url, no padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  const parts: string[] = [];
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += ALPHABET[n >>> 18] + ALPHABET[(n >>> 12) & 63] + ALPHABET[(n >>> 6) & 63] + ALPHABET[n & 63];
    if (out.length >= 8192) {
      parts.push(out);
      out = '';
    }
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    out += ALPHABET[n >>> 18] + ALPHABET[(n >>> 12) & 63];
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    out += ALPHABET[n >>> 18] + ALPHABET[(n >>> 12) & 63] + ALPHABET[(n >>> 6) & 63];
  }
  parts.push(out);
  return parts.join('');
}

/** Inverse of `toBase64Url`; null when the text holds a character outside the alphabet or has an impossible length. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? LOOKUP[c] : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

/** The frame for a session at `version` (tests and fixtures build older versions with it). */
export function encodeFrame(json: string, data: Uint8Array | null, version: number): Uint8Array {
  const text = new TextEncoder().encode(json);
  const plain = new Uint8Array(4 + text.length + (data?.length ?? 0));
  new DataView(plain.buffer).setUint32(0, text.length, true);
  plain.set(text, 4);
  if (data) plain.set(data, 4 + text.length);
  const body = deflateSync(plain, { level: 9 });
  const frame = new Uint8Array(HEADER + body.length + TRAILER);
  frame[0] = MAGIC0;
  frame[1] = MAGIC1;
  frame[2] = version;
  frame.set(body, HEADER);
  new DataView(frame.buffer).setUint32(HEADER + body.length, crc32(frame.subarray(0, HEADER + body.length)), true);
  return frame;
}

/** Encode a session (and, optionally, the dataset's bytes) as the text that follows `#s=`. */
export function encodeShare(session: SharedSession, data: Uint8Array | null = null): string {
  return toBase64Url(encodeFrame(JSON.stringify(session), data, SHARE_VERSION));
}

/** Size in bytes of the compressed body a link would have: compare with `INLINE_LIMIT`. */
export function frameBodySize(encoded: string): number {
  return Math.floor((encoded.length * 3) / 4) - HEADER - TRAILER;
}

const DAMAGED = 'the link is damaged: its checksum does not match, so a character was changed or the link was cut short';

/** Decode and validate a link (the text after `#s=`). Never throws. */
export function decodeShare(text: string): DecodedShare {
  const frame = fromBase64Url(text.trim());
  if (!frame) return { ok: false, reason: 'damaged', message: 'the link is damaged: it holds characters that a share link never has, or it was cut short' };
  if (frame.length < HEADER + TRAILER + 2 || frame[0] !== MAGIC0 || frame[1] !== MAGIC1) {
    return {
      ok: false,
      reason: frame.length < HEADER + TRAILER + 2 ? 'damaged' : 'invalid',
      message: frame.length < HEADER + TRAILER + 2 ? 'the link is damaged: it is too short, it was probably cut off' : 'this is not a Reward Studio share link',
    };
  }
  const end = frame.length - TRAILER;
  const stored = new DataView(frame.buffer, frame.byteOffset, frame.length).getUint32(end, true);
  if (crc32(frame.subarray(0, end)) !== stored) return { ok: false, reason: 'damaged', message: DAMAGED };
  const version = frame[2];
  if (version > SHARE_VERSION) {
    return {
      ok: false,
      reason: 'newer',
      message: `this link was made by a newer version of Reward Studio (link v${version}; this studio reads up to v${SHARE_VERSION}). Update the studio to open it.`,
    };
  }
  let plain: Uint8Array;
  const body = frame.subarray(HEADER, end);
  try {
    // Inflated into a buffer one byte past the cap (deflate cannot grow more than 1,032-fold): a bomb is cut, then refused.
    plain = inflateSync(body, { out: new Uint8Array(Math.min(MAX_PLAIN_BYTES, body.length * 1032) + 1) });
  } catch {
    return { ok: false, reason: 'damaged', message: 'the link is damaged: its compressed body cannot be read' };
  }
  if (plain.length > MAX_PLAIN_BYTES) {
    return { ok: false, reason: 'invalid', message: `the link was refused: its body would inflate past ${MAX_PLAIN_BYTES / 2 ** 20} MiB` };
  }
  if (plain.length < 4) return { ok: false, reason: 'damaged', message: 'the link is damaged: its body is empty' };
  const jsonLength = new DataView(plain.buffer, plain.byteOffset, plain.length).getUint32(0, true);
  if (4 + jsonLength > plain.length) return { ok: false, reason: 'damaged', message: 'the link is damaged: its body is shorter than it says' };
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plain.subarray(4, 4 + jsonLength)));
  } catch {
    return { ok: false, reason: 'invalid', message: 'the link does not hold a valid session (its JSON cannot be read)' };
  }
  const parsed = parseShared(raw);
  if (!parsed.ok) return { ok: false, reason: parsed.reason, message: parsed.message };
  if (parsed.value.data.kind === 'file' && !parsed.value.data.sha256) {
    return { ok: false, reason: 'invalid', message: 'the link names a data file without its SHA-256, so the file could not be checked' };
  }
  const data = plain.length > 4 + jsonLength ? plain.slice(4 + jsonLength) : null;
  if (parsed.value.data.kind === 'inline' && (!data || data.length !== parsed.value.data.size)) {
    return {
      ok: false,
      reason: 'damaged',
      message: `the link is damaged: it should carry ${parsed.value.data.size} bytes of data and carries ${data?.length ?? 0}`,
    };
  }
  return parsed.migratedFrom ? { ok: true, session: parsed.value, data, migratedFrom: parsed.migratedFrom } : { ok: true, session: parsed.value, data };
}
