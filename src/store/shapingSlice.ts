import type { StateCreator } from 'zustand';
import type { ShapeSpec } from '../core/shaping/spec';
import type { StudioState } from './index';

export interface ShapingSlice {
  /** The Shaping list (issue 25), normalised (core/shaping/spec.ts); empty: the reward as it is. */
  shaping: ShapeSpec[];
  setShaping(list: ShapeSpec[]): void;
  /** The other diagnostics tabs show the shaped reward (the Shaping tab always shows both). */
  shapeDiagnostics: boolean;
  setShapeDiagnostics(on: boolean): void;
}

export const createShapingSlice: StateCreator<StudioState, [], [], ShapingSlice> = (set) => ({
  shaping: [],
  setShaping: (shaping) => set({ shaping }),
  shapeDiagnostics: false,
  setShapeDiagnostics: (shapeDiagnostics) => set({ shapeDiagnostics }),
});
