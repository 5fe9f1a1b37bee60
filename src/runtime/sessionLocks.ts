/**
 * Web Locks (navigator.locks) over sessions: a tab holds `reward-studio:session:<id>` for the session it works on, so
 * another tab of the studio can tell it is taken and never opens it for editing. The browser releases a tab's locks
 * when the tab closes or reloads. Without Web Locks every claim succeeds and the guarded save in sessionDb is the
 * only defence (docs/sessions.md, "Several tabs").
 */

/** The part of the Web Locks API used here (a fake stands in for it in unit tests). */
export interface Locks {
  request(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => Promise<void>): Promise<unknown>;
  query(): Promise<{ held?: { name?: string }[] }>;
}

export interface SessionLock {
  readonly id: string;
  /** False when the browser has no Web Locks: nothing is held, other tabs cannot see this one. */
  readonly held: boolean;
  release(): void;
}

const PREFIX = 'reward-studio:session:';

export function browserLocks(): Locks | null {
  const l = (globalThis.navigator as { locks?: Locks } | undefined)?.locks;
  return l && typeof l.request === 'function' ? l : null;
}

/**
 * Hold session `id` for this tab. null when another tab holds it (after waiting up to `waitMs`: a reloading tab's
 * old page may not have let go yet).
 */
export function holdSession(id: string, waitMs = 0, locks: Locks | null = browserLocks()): Promise<SessionLock | null> {
  if (!locks) return Promise.resolve({ id, held: false, release: () => {} });
  return new Promise((resolve) => {
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    const abort = waitMs > 0 ? new AbortController() : null;
    const timer = abort ? setTimeout(() => abort.abort(), waitMs) : null;
    locks
      .request(PREFIX + id, abort ? { signal: abort.signal } : { ifAvailable: true }, async (lock) => {
        if (timer) clearTimeout(timer);
        if (!lock) return resolve(null);
        resolve({ id, held: true, release });
        await held;
      })
      .catch(() => resolve(null)); // the wait ran out
  });
}

/** The sessions some tab holds (this one's included). Empty without Web Locks. */
export async function heldSessions(locks: Locks | null = browserLocks()): Promise<Set<string>> {
  if (!locks) return new Set();
  const { held = [] } = await locks.query();
  return new Set(held.flatMap((l) => (l.name?.startsWith(PREFIX) ? [l.name.slice(PREFIX.length)] : [])));
}
