import type { StateCreator } from 'zustand';
import type { RunResult } from '../engine/engine';
import type { RunSummary } from '../core/reward/summary';
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
  /** The run came in a session file: its code is not the user's (see RunHistory's Restore code). */
  from?: 'link' | 'file';
}

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
  setRuns: (runs, currentRunId) => set({ runs, currentRunId }),
});
