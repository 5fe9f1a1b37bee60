import type { StateCreator } from 'zustand';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import { DEFAULT_TOKENIZER, isTokenizerId, type TokenizerId } from '../core/tokenize/tokenizers';
import type { StudioState } from './index';

export const CODE_STORAGE_KEY = 'reward-studio:code';
export const TOKENIZER_STORAGE_KEY = 'reward-studio:tokenizer';

function loadTokenizer(): TokenizerId {
  try {
    const t = globalThis.localStorage?.getItem(TOKENIZER_STORAGE_KEY);
    return isTokenizerId(t) ? t : DEFAULT_TOKENIZER;
  } catch {
    return DEFAULT_TOKENIZER;
  }
}

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
  /** The tokenizer for `ctx.tokenCount` and token lengths. */
  tokenizer: TokenizerId;
  setCode(code: string): void;
  setTimeLimitMs(ms: number): void;
  setTokenizer(id: TokenizerId): void;
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
  tokenizer: loadTokenizer(),
  setTokenizer: (tokenizer) => {
    set({ tokenizer });
    try {
      globalThis.localStorage?.setItem(TOKENIZER_STORAGE_KEY, tokenizer);
    } catch {
      /* storage unavailable */
    }
  },
});
