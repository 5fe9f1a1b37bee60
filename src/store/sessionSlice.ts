import type { StateCreator } from 'zustand';
import type { RunMeta } from '../core/session/schema';
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
  /** Code that came from a link or a session file and has not been run here: shown with a notice, never auto-run. */
  origin: { from: 'link' | 'file'; at: number; run: RunMeta | null } | null;
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

export const createSessionSlice: StateCreator<StudioState, [], [], SessionSlice> = (set) => ({
  sessionId: null,
  sessionName: '',
  dataSource: { kind: 'none' },
  dataVersion: 0,
  origin: null,
  pendingFile: null,
  sessionMessage: null,
  setSession: ({ sessionId, sessionName }) => set({ sessionId, sessionName }),
  setSessionName: (sessionName) => set({ sessionName }),
  setDataSource: (dataSource, bump) => set((s) => ({ dataSource, dataVersion: bump ? s.dataVersion + 1 : s.dataVersion })),
  setDataVersion: (dataVersion) => set({ dataVersion }),
  setOrigin: (origin) => set({ origin }),
  setPendingFile: (pendingFile) => set({ pendingFile }),
  setSessionMessage: (sessionMessage) => set({ sessionMessage }),
});
