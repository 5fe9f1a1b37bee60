import { numberAfter, numbersEqual, parseNumber } from './answers';
import { editDistance, extractTag, lastBoxed, similarity } from './extract';
import type { TokenCounter } from '../tokenize/tokenizers';
import { ensembleOfRow, type EnsembleRow } from '../models/ensemble';
import { ENSEMBLE_NAME } from '../models/naming';

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
  /**
   * Each loaded reward model's score for this rollout, by the model's name (`ctx.models.tiny_reward`); with ≥ 2
   * models also `ctx.models.ensemble` (mean, min, population std across them).
   */
  readonly models: ModelScores;
}

/** `ctx.models`: numbers by model name, plus the ensemble object (never a model's name: see core/models/naming). */
export type ModelScores = Readonly<Record<string, number>> & { readonly ensemble: EnsembleScores };

/** The models' scores for the row combined: mean, min (worst case) and population std (their disagreement). */
export interface EnsembleScores {
  readonly mean: number;
  readonly min: number;
  readonly std: number;
}

/** Reward-model score columns for a range of rows: `columns[name][i - offset]` is row i's score (NaN: none). */
export interface ModelColumns {
  columns: Record<string, Float64Array>;
  offset: number;
}

/** Names a caller may probe without meaning a model (promises, JSON, string conversion). */
const NOT_MODELS = new Set(['then', 'toJSON', 'constructor', 'valueOf', 'toString']);

/**
 * `ctx.models`: reads the current row's score from the columns. An unknown name or a rollout the model has no
 * score for throws with the reason, so that row fails with a message instead of scoring NaN silently.
 */
function modelScores(ctx: { index: number }, m: ModelColumns | undefined): ModelScores {
  const cols = m?.columns ?? {};
  const offset = m?.offset ?? 0;
  const names = Object.keys(cols);
  const read = (name: string): number => {
    const col = cols[name];
    if (!col) {
      const have = names.length ? `the loaded ones are ${names.join(', ')}` : 'load one under "Reward models" and let it score the rollouts';
      throw new Error(`ctx.models.${name}: no reward model named "${name}" has scored these rollouts (${have})`);
    }
    const v = col[ctx.index - offset];
    if (v === undefined || Number.isNaN(v))
      throw new Error(`ctx.models.${name}: the model has no score for rollout ${ctx.index} (its scoring failed or was cancelled)`);
    return v;
  };
  // Read from the same validated columns as the models themselves, so nothing new crosses the worker boundary.
  const ensemble = (): EnsembleRow => {
    if (names.length < 2)
      throw new Error(
        `ctx.models.${ENSEMBLE_NAME}: needs at least 2 reward models (${names.length ? `only ${names[0]} has` : 'none has'} scored these rollouts)`,
      );
    const e = ensembleOfRow(names.map(read));
    return Object.freeze(e);
  };
  const get = (name: string): number | EnsembleRow => (name === ENSEMBLE_NAME && !(name in cols) ? ensemble() : read(name));
  return new Proxy({} as ModelScores, {
    get: (_, name) => (typeof name !== 'string' || NOT_MODELS.has(name) ? undefined : get(name)),
    // The ensemble is not enumerable: Object.values(ctx.models) stays the models' numbers.
    has: (_, name) => typeof name === 'string' && (name in cols || (name === ENSEMBLE_NAME && names.length >= 2)),
    ownKeys: () => names,
    getOwnPropertyDescriptor: (_, name) => (typeof name === 'string' && name in cols ? { value: read(name), enumerable: true, configurable: true } : undefined),
  });
}

const noTokenizer: TokenCounter = () => {
  throw new Error('ctx.tokenCount: no tokenizer is loaded (pick one in the Tokenizer menu)');
};

/** One shared context object per worker; `index` is updated per row. */
export function createContext(tokenCount: TokenCounter = noTokenizer, models?: ModelColumns): RewardContext & { index: number } {
  const ctx = { index: 0, numberAfter, parseNumber, numbersEqual, lastBoxed, extractTag, editDistance, similarity, tokenCount } as RewardContext & {
    index: number;
  };
  (ctx as { models: RewardContext['models'] }).models = modelScores(ctx, models);
  return ctx;
}
