import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { preTokenEnd } from './asciiPreTokens';
import { TOKENIZER_IDS, TOKENIZERS, type TokenizerId } from './tokenizers';

const require = createRequire(import.meta.url);
/** The pre-tokenizer regex of a shipped tokenizer, as tokenizers.js builds it. */
function patternOf(id: TokenizerId): RegExp {
  const dir = join(dirname(require.resolve(TOKENIZERS[id].pkg)), '..', 'models');
  const read = (f: string) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as object;
  const pre = (
    new Tokenizer(read('tokenizer.json'), read('tokenizer_config.json')) as unknown as {
      pre_tokenizer: { pattern?: RegExp; tokenizers?: { pattern: RegExp }[] };
    }
  ).pre_tokenizer;
  return pre.pattern ?? pre.tokenizers![0].pattern;
}

/** The pre-tokens read one after another with preTokenEnd. */
function scanned(end: (text: string, i: number) => number, text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    const e = end(text, i);
    if (e <= i) throw new Error(`no pre-token at ${i}`);
    out.push(text.slice(i, e));
    i = e;
  }
  return out;
}

// Random strings over the characters the regexes tell apart: letters of both cases (the contraction letters among
// them), digits, quotes, punctuation, ASCII controls, every ASCII whitespace, CR/LF, and non-ASCII letters, digits,
// whitespace (NBSP, NEL, ideographic space), symbols, emoji (surrogate pairs) and lone surrogates.
const ALPHABET = [
  ..."aAsStTrReEvVmMlLdDxZ0123456789''\".,;!?-_()<>[]{}|/\\`~@#$%^&*+=",
  ' ',
  ' ',
  ' ',
  '\t',
  '\n',
  '\r',
  '\v',
  '\f',
  '\x00',
  '\x1f',
  '\x7f',
  'é',
  'Ω',
  'ß',
  '数',
  '²',
  '٣',
  '\u00a0',
  '\u0085',
  '\u3000',
  '\u2028',
  '→',
  '€',
  '🙂',
  '\ud800',
  '\udfff',
  '\u0301',
];
function randomTexts(count: number, seed: number): string[] {
  let s = seed;
  const rand = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const len = Math.floor(rand() * 24);
    // Half the strings ASCII only, so that the scanner decides whole strings.
    const pool = rand() < 0.5 ? ALPHABET.slice(0, ALPHABET.indexOf('é')) : ALPHABET;
    let t = '';
    for (let i = 0; i < len; i++) t += pool[Math.floor(rand() * pool.length)];
    return t;
  });
}

const demo = readFileSync('public/demo/gsm8k-rollouts.jsonl', 'utf8')
  .split('\n')
  .filter(Boolean)
  .flatMap((l) => Object.values(JSON.parse(l) as Record<string, unknown>).filter((v): v is string => typeof v === 'string'));
const prose = readFileSync('README.md', 'utf8').split(/\n{2,}/);
const edge = ["it's IT'S it'Ll 'RE 'sx ''s '", '1234567 12 3', 'a  b\t\tc   \n\n   d \r\n e\r\r\n x\n \n', ' !!\n\n?? \r\n', '  1', ' \n', '\n '];

describe('preTokenEnd gives the pre-tokens of the regex’s own match', () => {
  for (const id of TOKENIZER_IDS) {
    it(`${TOKENIZERS[id].label}: 20,000 random strings and the demo’s texts`, () => {
      const pattern = patternOf(id);
      const end = preTokenEnd(pattern);
      expect(end).not.toBeNull();
      const texts = [...randomTexts(20_000, 7), ...demo, ...prose, ...edge];
      for (const t of texts) expect(scanned(end!, t), JSON.stringify(t)).toEqual(t.match(pattern) ?? []);
    });
  }

  it('declines other regexes', () => {
    expect(preTokenEnd(/\w+|\W+/gu)).toBeNull();
    // GPT-2's source with other flags.
    expect(preTokenEnd(new RegExp(String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`, 'gi'))).toBeNull();
  });
});
