import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTokenCounter, TOKENIZER_IDS, TOKENIZERS, type TokenizerId } from './tokenizers';

const require = createRequire(import.meta.url);
function load(id: TokenizerId) {
  const dir = join(dirname(require.resolve(TOKENIZERS[id].pkg)), '..', 'models');
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8'));
  return makeTokenCounter(read('tokenizer.json'), read('tokenizer_config.json'));
}

// Expected counts from the reference implementation, Hugging Face's Rust `tokenizers` (Python binding 0.22):
//   Tokenizer.from_file(".../models/tokenizer.json").encode(text, add_special_tokens=False).ids
const TEXTS = ['Hello world', 'Natalia sold clips to 48 of her friends in April.\n\nA: 72', 'Ünïcödé 数学 🙂 <think>x</think>'];
const EXPECTED: Record<TokenizerId, number[]> = {
  gpt2: [2, 17, 21],
  qwen3: [2, 20, 13], // <think> is one added token in Qwen3
  llama3: [2, 18, 16],
};

describe('token counts match the Rust tokenizers', () => {
  for (const id of TOKENIZER_IDS) {
    it(TOKENIZERS[id].label, () => {
      const count = load(id);
      expect(TEXTS.map(count)).toEqual(EXPECTED[id]);
      expect(count('')).toBe(0);
    });
  }
});
