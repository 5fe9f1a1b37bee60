import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { pieceCounter } from './pieceCounter';
import { TOKENIZER_IDS, TOKENIZERS, type TokenizerId } from './tokenizers';

const require = createRequire(import.meta.url);
function load(id: TokenizerId): { tok: Tokenizer; json: object } {
  const dir = join(dirname(require.resolve(TOKENIZERS[id].pkg)), '..', 'models');
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as object;
  const json = read('tokenizer.json');
  return { tok: new Tokenizer(json, read('tokenizer_config.json')), json };
}

// Real text: every prompt and completion of the GSM8K demo, and the paragraphs of this repository's prose (Markdown
// with code, tables, URLs, arrows, non-breaking spaces), counted twice (the second time from the memo).
const demo = readFileSync('public/demo/gsm8k-rollouts.jsonl', 'utf8')
  .split('\n')
  .filter(Boolean)
  .flatMap((l) => {
    const r = JSON.parse(l) as { prompt: string; completion: string };
    return [r.prompt, r.completion];
  });
const prose = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
].flatMap((f) => readFileSync(f, 'utf8').split(/\n{2,}/));
// Edge cases of the pre-tokenizers and added tokens: contractions in any case, digit runs (Llama-3 cuts at 3, Qwen3
// at 1), whitespace before newlines, CRLF, decomposed accents (Qwen3 applies NFC), emoji and CJK, lone surrogates,
// added tokens inside text and alone.
const edge = [
  "I'M HERE, you'Re there, they'LL go; it's 'quoted'",
  '1234567890 12,345.678 3.14159e-10',
  'a  b\t\tc   \n\n   d \r\n e\r\r\n',
  'e\u0301 vs \u00e9, A\u030a, \u1e9b\u0323',
  '🙂👍🏽 family 👨‍👩‍👧 数学很好。日本語のテキスト',
  'lone \ud800 surrogate \udfff',
  'before<|endoftext|>after',
  '<|endoftext|>',
  '<think>reasoning</think> <|im_start|>user\nhi<|im_end|>',
  '<|begin_of_text|>x<|eot_id|>',
  '    ',
  '\n',
];
const TEXTS = [...demo, ...prose, ...edge];

describe('pieceCounter gives the tokenizer library’s own counts', () => {
  for (const id of TOKENIZER_IDS) {
    it(`${TOKENIZERS[id].label}: ${TEXTS.length} texts, equal to encode().ids.length, cold and from the memo`, () => {
      const { tok, json } = load(id);
      const count = pieceCounter(tok, json);
      expect(count).not.toBeNull();
      const expected = TEXTS.map((t) => tok.encode(t, { add_special_tokens: false }).ids.length);
      expect(TEXTS.map((t) => count!(t))).toEqual(expected);
      expect(TEXTS.map((t) => count!(t))).toEqual(expected);
      expect(count!('')).toBe(0);
      // Sanity on the reference itself: the demo is not trivially short.
      expect(expected.reduce((a, b) => a + b, 0)).toBeGreaterThan(100_000);
    });
  }

  it('declines a tokenizer of another shape (the caller then counts with encode)', () => {
    const { tok, json } = load('gpt2');
    const other = { ...json, pre_tokenizer: { type: 'Whitespace' } };
    expect(pieceCounter(tok, other)).toBeNull();
    const fused = { ...json, model: { ...(json as { model: object }).model, fuse_unk: true } };
    expect(pieceCounter(tok, fused)).toBeNull();
  });
});
