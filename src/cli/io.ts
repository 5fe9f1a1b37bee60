/** The CLI's output channels and the few failure helpers every command shares (no heavy imports: the launcher uses it). */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const fail = (io: Io, message: string) => {
  io.stderr(`reward-studio: ${message}\n`);
  return 1;
};

/** Why --out cannot be written (its folder is missing), or null. */
export function checkOut(out: string | null): string | null {
  if (out === null) return null;
  try {
    if (!statSync(dirname(resolve(out))).isDirectory()) throw new Error('its folder is not a folder');
  } catch (e) {
    return `cannot write ${out}: ${reason(e)}`;
  }
  return null;
}

export function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return 'no such file or folder';
  if (err?.code === 'EACCES') return 'permission denied';
  if (err?.code === 'EISDIR') return 'is a folder';
  return err instanceof Error ? err.message : String(e);
}
