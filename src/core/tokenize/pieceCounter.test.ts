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
// Added tokens of the three tokenizers in awkward places: at the start and end, adjacent, inside words, repeated,
// beside whitespace and newlines, cut short, inside longer look-alikes, next to a decomposed accent (Qwen3's NFC).
const ADDED = [
  '<|endoftext|>',
  '<|im_start|>',
  '<|im_end|>',
  '<think>',
  '</think>',
  '<tool_call>',
  '<|eot_id|>',
  '<|begin_of_text|>',
  '<|start_header_id|>',
  '<|end_header_id|>',
  '<|reserved_special_token_1|>',
  '<|reserved_special_token_10|>',
];
const added = [
  ...ADDED.flatMap((a) => [
    a,
    `${a}${a}`,
    `x${a}`,
    `${a}x`,
    ` ${a} `,
    `\n${a}\n`,
    `word${a}word`,
    `${a}  hello ${a}\n\n${a}`,
    a.slice(0, -1),
    `<${a}>`,
    `e\u0301${a}e\u0301`,
    `${a}'s`,
  ]),
  ADDED.join(''),
  ADDED.join(' '),
  '<|start_header_id|>assistant<|end_header_id|>\n\nThe answer is 42.<|eot_id|>',
  '<|im_start|>assistant\n<think>\nhmm\n</think>\n\n42<|im_end|>\n<|endoftext|>',
  '<|reserved_special_token_1|>0<|reserved_special_token_10|><|reserved_special_token_100|>',
  '<|endoftext|<|endoftext|>|>',
  ...demo.slice(0, 200).flatMap((t) => [`${t}<|endoftext|>`, `${t}<|eot_id|>`]),
];
const TEXTS = [...demo, ...prose, ...edge, ...added];

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

  it('follows the lstrip, rstrip and normalized flags of added tokens as encode does', () => {
    // The shipped tokenizers set none of these flags on their added tokens: turn them on in copies.
    const texts = [...added, 'a <|endoftext|> b', 'a\t<|endoftext|>\n b', '  <|endoftext|>  ', 'x  <think>  y  </think>  z', 'e\u0301 <think> e\u0301'];
    for (const [id, flags] of [
      ['gpt2', { lstrip: true }],
      ['gpt2', { rstrip: true }],
      ['qwen3', { normalized: true, lstrip: true, rstrip: true }],
    ] as const) {
      const { json } = load(id);
      const j = json as { added_tokens: object[] };
      const changed = { ...j, added_tokens: j.added_tokens.map((t) => ({ ...t, ...flags })) };
      const tok = new Tokenizer(changed, {});
      const count = pieceCounter(tok, changed)!;
      expect(texts.map(count), `${id} ${JSON.stringify(flags)}`).toEqual(texts.map((t) => tok.encode(t, { add_special_tokens: false }).ids.length));
    }
  }, 120_000); // three tokenizers built: ~8 s on a quiet machine, over 20 s on a loaded one

  it('declines a tokenizer of another shape (the caller then counts with encode)', () => {
    const { tok, json } = load('gpt2');
    const other = { ...json, pre_tokenizer: { type: 'Whitespace' } };
    expect(pieceCounter(tok, other)).toBeNull();
    const fused = { ...json, model: { ...(json as { model: object }).model, fuse_unk: true } };
    expect(pieceCounter(tok, fused)).toBeNull();
  });
});
