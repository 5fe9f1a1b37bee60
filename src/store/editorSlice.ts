import type { StateCreator } from 'zustand';
import type { RewardCandidate } from '../core/python/signatures';
import { DEFAULT_REWARD_TS } from '../core/reward/defaultReward';
import { DEFAULT_REWARD_PY } from '../core/reward/defaultRewardPy';
import { originSchema, type CodeOrigin } from '../core/session/schema';
import { DEFAULT_TOKENIZER, isTokenizerId, type TokenizerId } from '../core/tokenize/tokenizers';
import type { StudioState } from './index';

export const CODE_STORAGE_KEY = 'reward-studio:code';
export const TOKENIZER_STORAGE_KEY = 'reward-studio:tokenizer';

function loadTokenizer(): TokenizerId {
  const t = storedLocal(TOKENIZER_STORAGE_KEY);
  return isTokenizerId(t) ? t : DEFAULT_TOKENIZER;
}

export const PY_CODE_STORAGE_KEY = 'reward-studio:code-py';
export const LANGUAGE_STORAGE_KEY = 'reward-studio:language';

export type RewardLanguage = 'ts' | 'py';
const KEYS: Record<RewardLanguage, string> = { ts: CODE_STORAGE_KEY, py: PY_CODE_STORAGE_KEY };
const TEMPLATES: Record<RewardLanguage, string> = { ts: DEFAULT_REWARD_TS, py: DEFAULT_REWARD_PY };

/** Local storage that never throws (unavailable or full: null / the value stays in memory). */
export function storedLocal(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}
export function storeLocal(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    /* storage full or unavailable: the value stays in memory */
  }
}
/**
 * Where the code in local storage came from (JSON of a `CodeOrigin`, or `null`: the user's own). Written with the code
 * itself, so that code copied there from a link or a session file keeps its provenance when it is taken up again
 * without its session (a `?data=` address opened next, a new session that keeps the editor's code, a reload).
 */
export const ORIGIN_STORAGE_KEY = 'reward-studio:code-origin';
/** A stored origin that cannot be read: the code is treated as not the user's (it waits for Run). */
const UNKNOWN_ORIGIN: CodeOrigin = { from: 'link', at: 0, run: null };

/** The provenance of the code in local storage: null when it is the user's own (or nothing was ever stored). */
export function storedOrigin(): CodeOrigin | null {
  const raw = storedLocal(ORIGIN_STORAGE_KEY);
  if (raw === null) return null;
  try {
    const json: unknown = JSON.parse(raw);
    if (json === null) return null;
    const r = originSchema.safeParse(json);
    return r.success ? r.data : UNKNOWN_ORIGIN;
  } catch {
    return UNKNOWN_ORIGIN;
  }
}

/**
 * Write the editor's code of both languages and their origin to local storage, as one picture of this editor. (A
 * language never stored that still has its template is left out: it keeps following the template.)
 */
export function storeEditorCode(codes: Record<RewardLanguage, string>, origin: CodeOrigin | null): void {
  storeLocal(ORIGIN_STORAGE_KEY, JSON.stringify(origin));
  for (const l of ['ts', 'py'] as const) if (storedLocal(KEYS[l]) !== null || codes[l] !== TEMPLATES[l]) storeLocal(KEYS[l], codes[l]);
}

/**
 * Record a new origin for this editor's code, if local storage holds this editor's code (another tab may have written
 * its own since: then that tab's code keeps that tab's origin).
 */
export function storeOriginOf(codes: Record<RewardLanguage, string>, origin: CodeOrigin | null): void {
  if (loadCode('ts') === codes.ts && loadCode('py') === codes.py) storeLocal(ORIGIN_STORAGE_KEY, JSON.stringify(origin));
}

function loadLanguage(): RewardLanguage {
  return storedLocal(LANGUAGE_STORAGE_KEY) === 'py' ? 'py' : 'ts';
}
function loadCode(lang: RewardLanguage): string {
  return storedLocal(KEYS[lang]) ?? TEMPLATES[lang];
}

export interface EditorSlice {
  /** The reward code in the editor, in `language`; each language keeps its own code. */
  code: string;
  language: RewardLanguage;
  /** The code of each language (`code` is `codes[language]`). */
  codes: Record<RewardLanguage, string>;
  /** Put a whole editor state in place (a session restored, a link opened); mirrored to local storage. */
  loadEditor(e: {
    language: RewardLanguage;
    codes: Record<RewardLanguage, string>;
    tokenizer: TokenizerId;
    timeLimitMs: number;
    pyFunction: string | null;
    pyBatchSize: number;
  }): void;
  /** Python: the function picked among those the code defines (null: the first one), and the candidates found. */
  pyFunction: string | null;
  pyCandidates: RewardCandidate[] | null;
  /** Python: rows per call for the batch conventions (TRL, verl-batch, OpenRLHF). */
  pyBatchSize: number;
  setLanguage(lang: RewardLanguage): void;
  setPyFunction(name: string | null): void;
  setPyCandidates(c: RewardCandidate[] | null): void;
  setPyBatchSize(n: number): void;
  /** Per-row time limit for reward code, in ms. */
  timeLimitMs: number;
  /** The tokenizer for `ctx.tokenCount` and token lengths. */
  tokenizer: TokenizerId;
  setCode(code: string): void;
  setTimeLimitMs(ms: number): void;
  setTokenizer(id: TokenizerId): void;
}

export const createEditorSlice: StateCreator<StudioState, [], [], EditorSlice> = (set, get) => ({
  language: loadLanguage(),
  code: loadCode(loadLanguage()),
  codes: { ts: loadCode('ts'), py: loadCode('py') },
  pyFunction: null,
  pyCandidates: null,
  pyBatchSize: 32,
  timeLimitMs: 1000,
  setCode: (code) => {
    const language = get().language;
    const codes = { ...get().codes, [language]: code };
    set({ code, codes });
    storeEditorCode(codes, get().origin);
  },
  setLanguage: (language) => {
    if (language === get().language) return;
    storeLocal(LANGUAGE_STORAGE_KEY, language);
    set({ language, code: get().codes[language], runError: null });
  },
  loadEditor: (e) => {
    set({
      language: e.language,
      codes: e.codes,
      code: e.codes[e.language],
      tokenizer: e.tokenizer,
      timeLimitMs: e.timeLimitMs,
      pyFunction: e.pyFunction,
      pyBatchSize: e.pyBatchSize,
      pyCandidates: null,
      runError: null,
    });
    storeLocal(LANGUAGE_STORAGE_KEY, e.language);
    storeEditorCode(e.codes, get().origin);
    storeLocal(TOKENIZER_STORAGE_KEY, e.tokenizer);
  },
  setPyFunction: (pyFunction) => set({ pyFunction }),
  setPyCandidates: (pyCandidates) => set({ pyCandidates }),
  setPyBatchSize: (pyBatchSize) => set({ pyBatchSize }),
  setTimeLimitMs: (timeLimitMs) => set({ timeLimitMs }),
  tokenizer: loadTokenizer(),
  setTokenizer: (tokenizer) => {
    set({ tokenizer });
    storeLocal(TOKENIZER_STORAGE_KEY, tokenizer);
  },
});
