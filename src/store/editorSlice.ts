import type { StateCreator } from 'zustand';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import type { StudioState } from './index';

export const CODE_STORAGE_KEY = 'reward-studio:code';

function loadCode(): string {
  try {
    return globalThis.localStorage?.getItem(CODE_STORAGE_KEY) ?? DEFAULT_REWARD_TS;
  } catch {
    return DEFAULT_REWARD_TS;
  }
}

export interface EditorSlice {
  code: string;
  /** Per-row time limit for reward code, in ms. */
  timeLimitMs: number;
  setCode(code: string): void;
  setTimeLimitMs(ms: number): void;
}

export const createEditorSlice: StateCreator<StudioState, [], [], EditorSlice> = (set) => ({
  code: loadCode(),
  timeLimitMs: 1000,
  setCode: (code) => {
    set({ code });
    try {
      globalThis.localStorage?.setItem(CODE_STORAGE_KEY, code);
    } catch {
      /* storage full or unavailable: the code stays in memory */
    }
  },
  setTimeLimitMs: (timeLimitMs) => set({ timeLimitMs }),
});
