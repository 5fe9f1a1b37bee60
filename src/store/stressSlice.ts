import type { StateCreator } from 'zustand';
import type { ProbeFigures, ThresholdSource } from '../core/probe/figures';
import type { StudioState } from './index';

/** One probe's scores, by position in the stress test's rows. */
export interface ProbeScores {
  scores: Float64Array;
  status: Uint8Array;
}

/** A finished (or cancelled) stress test of one run (issue 23). */
export interface StressResult {
  runId: number;
  datasetId: string;
  /** The dataset rows probed (a seeded sample, or all), ascending. */
  rows: Int32Array;
  /** The first rollout of the next group, per probed row (for `cross`). */
  donors: Int32Array;
  threshold: number;
  source: ThresholdSource;
  /** The label column the threshold came from, when it did. */
  label: string | null;
  maxRate: number;
  figures: ProbeFigures[];
  scores: Record<string, ProbeScores>;
  cancelled: boolean;
}

export interface StressProgress {
  probe: string;
  /** Set while a reward model scores the probed texts (before the reward runs on them). */
  model?: string;
  index: number;
  of: number;
  done: number;
  total: number;
}

export interface StressSlice {
  stress: StressResult | null;
  stressProgress: StressProgress | null;
  stressError: string | null;
  setStress(r: StressResult | null): void;
  setStressProgress(p: StressProgress | null): void;
  setStressError(e: string | null): void;
}

export const createStressSlice: StateCreator<StudioState, [], [], StressSlice> = (set) => ({
  stress: null,
  stressProgress: null,
  stressError: null,
  setStress: (stress) => set({ stress }),
  setStressProgress: (stressProgress) => set({ stressProgress }),
  setStressError: (stressError) => set({ stressError }),
});
