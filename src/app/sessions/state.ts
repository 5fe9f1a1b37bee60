import type { UiState } from '../../core/session/schema';
import type { SeenRevision } from '../../runtime/sessionDb';
import { storedLocal, storeLocal } from '../../store/editorSlice';

/**
 * Sessions: autosaved in IndexedDB (document, data file, runs), switched and deleted from the session list, shared by
 * link (`#s=…`), exported and imported as one file (docs/sessions.md). This is what their modules share.
 */
export const session: {
  /** True while a session is being put in place: autosave waits, so a half-applied state is never written. */
  restoring: boolean;
  /** Runs already written to IndexedDB, by session. */
  savedRuns: Set<string>;
  /** Runs named or noted after they were written: the next save writes them again (app/runLabels.ts). */
  relabelled: Set<string>;
  saveTimer: ReturnType<typeof setTimeout> | null;
  createdAt: Map<string, number>;
  /** What this tab last read or wrote of each session: a save over anything else is refused (a conflict). */
  revision: Map<string, SeenRevision>;
  autosaveInstalled: boolean;
  /** A link's UI state, applied once its data has loaded. */
  pendingUi: UiState | null;
} = {
  restoring: false,
  savedRuns: new Set(),
  relabelled: new Set(),
  saveTimer: null,
  createdAt: new Map(),
  revision: new Map(),
  autosaveInstalled: false,
  pendingUi: null,
};

const CURRENT_KEY = 'reward-studio:session';
/** Files up to this size are tried inline in a share link (the compressed body must stay under INLINE_LIMIT). */
export const INLINE_TRY_BYTES = 8 * 1024 * 1024;

export const newId = () => globalThis.crypto?.randomUUID?.() ?? `s${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
export const rememberCurrent = (id: string) => storeLocal(CURRENT_KEY, id);
export const currentIdFromStorage = () => storedLocal(CURRENT_KEY);
