import { numberAfter, numbersEqual, parseNumber } from './answers';

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
}

/** One shared context object per worker; `index` is updated per row. */
export function createContext(): RewardContext & { index: number } {
  return { index: 0, numberAfter, parseNumber, numbersEqual };
}
