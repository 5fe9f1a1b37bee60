/**
 * Gzip for the CLI's reads (core/formats/container.ts `useGunzip`). Node's DecompressionStream hands zlib's output on
 * in 16 KiB chunks, each through the web stream's promises: 913 MB took 4.1 s of one core, against 1.9 s for zlib's
 * own stream in 256 KiB chunks (bench/README, session 33). Both are zlib: the same bytes and errors.
 */
import { Duplex } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Gunzip } from '../core/formats/container';

const CHUNK_BYTES = 1 << 18;

export const nodeGunzip: Gunzip = () => {
  const zlib = Duplex.toWeb(createGunzip({ chunkSize: CHUNK_BYTES })) as unknown as TransformStream<Uint8Array, Uint8Array>;
  // Each chunk copied out: zlib's chunks are views of shared 256 KiB buffers, which outlived their rows' parse and
  // held V8's external memory up (a million rows took 8.8–13.7 s and 12–21 s of CPU uncopied, 8.9–10.5 s copied).
  const copy = new TransformStream<Uint8Array, Uint8Array>({ transform: (c, out) => out.enqueue(new Uint8Array(c)) });
  return { writable: zlib.writable, readable: zlib.readable.pipeThrough(copy) };
};
