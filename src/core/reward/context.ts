import { numberAfter, numbersEqual, parseNumber } from './answers';
import { editDistance, extractTag, lastBoxed, similarity } from './extract';
import type { TokenCounter } from '../tokenize/tokenizers';

/** What reward code receives as its second argument. */
export interface RewardContext {
  /** Index of the rollout in the dataset. */
  readonly index: number;
  /** The first number after the LAST occurrence of `marker` (default "A:"), as written; null if none. */
  numberAfter(text: string, marker?: string): string | null;
  /** "1,000" → 1000, "1/2" → 0.5, "$5" → 5; null when not a number. */
  parseNumber(text: string | number | null | undefined): number | null;
  /** Numeric equality with tolerance: `1,000` = `1000.0`, `1/2` = `0.5`. */
  numbersEqual(a: string | number | null | undefined, b: string | number | null | undefined, tol?: { relTol?: number; absTol?: number }): boolean;
  /** Content of the last `\boxed{…}` (nested braces balanced); null if none. */
  lastBoxed(text: string): string | null;
  /** Content of the last complete `<tag>…</tag>`, or all of them with `{ all: true }`. */
  extractTag: typeof extractTag;
  /** Levenshtein distance. */
  editDistance(a: string, b: string): number;
  /** 1 − editDistance / max(length), in [0, 1]. */
  similarity(a: string, b: string): number;
  /** Number of tokens of `text` with the tokenizer picked in the studio (GPT-2, Qwen3 or Llama-3), no special tokens added. */
  tokenCount(text: string): number;
}

const noTokenizer: TokenCounter = () => {
  throw new Error('ctx.tokenCount: no tokenizer is loaded (pick one in the Tokenizer menu)');
};

/** One shared context object per worker; `index` is updated per row. */
export function createContext(tokenCount: TokenCounter = noTokenizer): RewardContext & { index: number } {
  return { index: 0, numberAfter, parseNumber, numbersEqual, lastBoxed, extractTag, editDistance, similarity, tokenCount };
}
