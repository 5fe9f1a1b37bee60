import type { StateCreator } from 'zustand';
import type { RunResult } from '../engine/engine';
import type { RunSummary } from '../core/reward/summary';
import { cleanRunText } from '../core/session/runLabels';
import type { WeightedFunction } from '../core/reward/weighted';
import type { StudioState } from './index';

export interface RunRecord {
  id: number;
  code: string;
  language: 'ts' | 'py';
  /** Python: the function that was called. */
  pyFunction?: string;
  /** Several reward functions (a `reward_funcs` list): each one's name (its column in components) and weight. */
  functions?: WeightedFunction[];
  datasetId: string;
  startedAt: number;
  elapsedMs: number;
  cancelled: boolean;
  summary: RunSummary;
  /** Typed arrays; never copied into React state. */
  result: RunResult;
  /** The studio started the run itself (after an import or on opening a session), not the user's Run. */
  auto?: boolean;
  /** The run came in a session file: its code is not the user's (see RunHistory's Restore code). */
  from?: 'link' | 'file';
  /** The user's name and note for the run (absent when empty); bounded and cleaned (core/session/runLabels). */
  name?: string;
  note?: string;
}

/** Runs the Distribution histogram shows at most: the current one and three others. */
export const MAX_OVERLAID = 4;

export interface RunProgressState {
  done: number;
  total: number;
  rowsPerSecond: number;
}

export interface RunsSlice {
  runs: RunRecord[];
  currentRunId: number | null;
  running: RunProgressState | null;
  /** Why the last run produced no results (code that does not compile, or a worker that could not read the data). */
  runError: { message: string; line?: number; compile: boolean } | null;
  setRunning(p: RunProgressState | null): void;
  setRunError(e: { message: string; line?: number; compile: boolean } | null): void;
  addRun(r: RunRecord): void;
  selectRun(id: number): void;
  setRuns(runs: RunRecord[], currentRunId: number | null): void;
  /** Name or note a run (what is given replaces what it had; empty text removes it). */
  setRunLabels(id: number, labels: { name?: string; note?: string }): void;
  /** Runs the user picked to draw with the current one in the Distribution histogram; null: the previous run. */
  overlayRuns: number[] | null;
  setOverlayRuns(ids: number[] | null): void;
}

export const createRunsSlice: StateCreator<StudioState, [], [], RunsSlice> = (set) => ({
  runs: [],
  currentRunId: null,
  running: null,
  runError: null,
  setRunning: (running) => set({ running }),
  setRunError: (runError) => set({ runError }),
  addRun: (r) => set((s) => ({ runs: [...s.runs, r], currentRunId: r.id, runError: null })),
  selectRun: (currentRunId) => set({ currentRunId }),
  setRuns: (runs, currentRunId) => set({ runs, currentRunId, overlayRuns: null }),
  setRunLabels: (id, labels) =>
    set((s) => ({
      runs: s.runs.map((r) => {
        if (r.id !== id) return r;
        const next = { ...r };
        for (const kind of ['name', 'note'] as const) {
          const text = labels[kind];
          if (text === undefined) continue;
          const clean = cleanRunText(text, kind);
          if (clean.trim()) next[kind] = clean;
          else delete next[kind];
        }
        return next;
      }),
    })),
  overlayRuns: null,
  // The current run is always drawn: at most MAX_OVERLAID − 1 others.
  setOverlayRuns: (ids) => set({ overlayRuns: ids ? [...new Set(ids)].slice(0, MAX_OVERLAID - 1) : null }),
});
