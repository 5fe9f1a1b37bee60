import type { RewardLanguage } from '../../store/editorSlice';
import { heldSessions, holdSession, type SessionLock } from '../../runtime/sessionLocks';
import { readStorage, sharedStorage, tabStorage, writeStorage as write } from '../webStorage';

/**
 * Several tabs of the studio share one IndexedDB and one local storage. Each tab owns the session it works on:
 * - its session id is kept in session storage (one per tab, kept across reloads), so a reload reopens this tab's
 *   session, not the one another tab opened last;
 * - it holds that session's Web Lock, so another tab does not open it for editing (it works on a copy instead);
 * - the keystrokes not yet in IndexedDB are mirrored per tab and tagged with the session they belong to, so they are
 *   never laid over another session's code after a reload.
 * The saves themselves are guarded too (sessionDb.saveSessionGuarded): see autosave.ts.
 */

const TAB_SESSION_KEY = 'reward-studio:tab-session';
const MIRROR_KEY = 'reward-studio:editor-mirror';

/** The session this tab worked on before a reload (null in a new tab). */
export function tabSessionId(): string | null {
  return readStorage(tabStorage(), TAB_SESSION_KEY);
}
export function rememberTabSession(id: string): void {
  write(tabStorage(), TAB_SESSION_KEY, id);
}

let current: SessionLock | null = null;
let claiming: Promise<unknown> = Promise.resolve();

/**
 * Hold session `id` for this tab, letting go of the one held before. False when another tab holds it (this tab
 * keeps what it held). `waitMs`: how long to wait for it (a reload's old page letting go).
 */
export function claimSession(id: string, waitMs = 0): Promise<boolean> {
  const next = claiming.then(async () => {
    if (current?.id === id) return true;
    const lock = await holdSession(id, waitMs);
    if (!lock) return false;
    current?.release();
    current = lock;
    return true;
  });
  claiming = next.catch(() => undefined);
  return next;
}

/** Sessions held by other tabs (empty without Web Locks). */
export async function openElsewhere(): Promise<Set<string>> {
  await claiming;
  const held = await heldSessions();
  if (current?.held) held.delete(current.id);
  return held;
}

export interface EditorMirror {
  sessionId: string;
  language: RewardLanguage;
  codes: Partial<Record<RewardLanguage, string>>;
}

/** Keystrokes as typed, tagged with their session: in this tab's storage, and in the shared one for a closed tab. */
export function mirrorEditor(m: EditorMirror): void {
  const text = JSON.stringify(m);
  write(tabStorage(), MIRROR_KEY, text);
  write(sharedStorage(), MIRROR_KEY, text);
}

function parseMirror(text: string | null | undefined, sessionId: string): EditorMirror | null {
  if (!text) return null;
  try {
    const m = JSON.parse(text) as Partial<EditorMirror> | null;
    if (!m || m.sessionId !== sessionId || (m.language !== 'ts' && m.language !== 'py') || typeof m.codes !== 'object' || !m.codes) return null;
    const codes: EditorMirror['codes'] = {};
    for (const l of ['ts', 'py'] as const) if (typeof m.codes[l] === 'string') codes[l] = m.codes[l];
    return { sessionId, language: m.language, codes };
  } catch {
    return null;
  }
}

/** The keystrokes last typed into session `sessionId`: this tab's own first, else the shared copy if it is that session's. */
export function mirroredEditor(sessionId: string): EditorMirror | null {
  return parseMirror(readStorage(tabStorage(), MIRROR_KEY), sessionId) ?? parseMirror(readStorage(sharedStorage(), MIRROR_KEY), sessionId);
}
