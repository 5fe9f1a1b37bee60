import type { StateCreator } from 'zustand';
import type { CodeOrigin } from '../core/session/schema';
import { storedOrigin, storeOriginOf, type RewardLanguage } from './editorSlice';
import type { StudioState } from './index';

/** Where the loaded rollouts came from (the persisted DataRef is made from this and the file). */
export type DataSource = { kind: 'demo' } | { kind: 'url'; url: string } | { kind: 'file' } | { kind: 'none' };

/** A file the open link names: the recipient must drop it; it is checked against the SHA-256 before use. */
export interface PendingFile {
  name: string;
  rows: number;
  size: number;
  sha256: string;
  format?: string;
  mapping?: unknown;
}

export interface SessionSlice {
  sessionId: string | null;
  sessionName: string;
  dataSource: DataSource;
  /** Bumped at each import into the session: runs on other data are not restored with this one. */
  dataVersion: number;
  /**
   * Code that came from a link or a session file and has not been run here: shown with a notice, never auto-run.
   * Kept in local storage with the code (see `storedOrigin`), so a page that takes the stored code up again keeps it.
   */
  origin: CodeOrigin | null;
  pendingFile: PendingFile | null;
  /** A message about sessions (a damaged link, a file that does not match), shown until dismissed. */
  sessionMessage: { kind: 'error' | 'info'; text: string } | null;
  setSession(s: { sessionId: string; sessionName: string }): void;
  setSessionName(name: string): void;
  setDataSource(d: DataSource, bumpVersion: boolean): void;
  setDataVersion(v: number): void;
  setOrigin(o: SessionSlice['origin']): void;
  setPendingFile(p: PendingFile | null): void;
  setSessionMessage(m: SessionSlice['sessionMessage']): void;
}

const LANGUAGES: readonly RewardLanguage[] = ['ts', 'py'];

/** The code of `language` came from a link or a file and has not been run here: it must wait for Run. */
export function awaitsRun(origin: CodeOrigin | null, language: RewardLanguage): boolean {
  return origin !== null && (origin.languages ?? LANGUAGES).includes(language);
}

/** The origin once the code of `language` has been run (the user pressed Run): null when no language waits any more. */
export function releaseLanguage(origin: CodeOrigin | null, language: RewardLanguage): CodeOrigin | null {
  if (!origin) return null;
  const languages = (origin.languages ?? LANGUAGES).filter((l) => l !== language);
  return languages.length ? { ...origin, languages } : null;
}

/** Both origins at once (code taken from local storage into a saved session): every language that waits in either. */
export function mergeOrigins(a: CodeOrigin | null, b: CodeOrigin | null): CodeOrigin | null {
  if (!a || !b) return a ?? b;
  if (!a.languages || !b.languages) {
    const { languages: _all, ...both } = a;
    return both;
  }
  return { ...a, languages: LANGUAGES.filter((l) => a.languages!.includes(l) || b.languages!.includes(l)) };
}

export const createSessionSlice: StateCreator<StudioState, [], [], SessionSlice> = (set, get) => ({
  sessionId: null,
  sessionName: '',
  dataSource: { kind: 'none' },
  dataVersion: 0,
  origin: storedOrigin(),
  pendingFile: null,
  sessionMessage: null,
  setSession: ({ sessionId, sessionName }) => set({ sessionId, sessionName }),
  setSessionName: (sessionName) => set({ sessionName }),
  setDataSource: (dataSource, bump) => set((s) => ({ dataSource, dataVersion: bump ? s.dataVersion + 1 : s.dataVersion })),
  setDataVersion: (dataVersion) => set({ dataVersion }),
  setOrigin: (origin) => {
    set({ origin });
    storeOriginOf(get().codes, origin);
  },
  setPendingFile: (pendingFile) => set({ pendingFile }),
  setSessionMessage: (sessionMessage) => set({ sessionMessage }),
});
