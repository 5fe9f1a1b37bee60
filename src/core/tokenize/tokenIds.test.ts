import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gpt2Files } from './testing/gpt2Files';
import { makeTokenEncoder } from './tokenIds';
import { makeTokenCounter } from './tokenizers';

/** Ids from scripts/completion-ids-expected.py: GPT-2's BPE written in Python from the vocab and merges, not tokenizers.js. */
const expected = JSON.parse(readFileSync(new URL('./testing/gpt2-demo-ids.json', import.meta.url), 'utf8')) as {
  lengths: number[];
  checksums: number[];
  short: Record<string, number[]>;
};
const demo = readFileSync(new URL('../../../public/demo/gsm8k-rollouts.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => (JSON.parse(l) as { completion: string }).completion);

/** The script's checksum: sum((k + 1) * id) mod 1,000,003 (position-weighted, so a shifted id changes it). */
const checksum = (ids: number[]) => ids.reduce((a, id, k) => (a + (k + 1) * id) % 1_000_003, 0);

describe('token ids for TRL completion_ids (GPT-2)', () => {
  const files = gpt2Files();
  const encode = makeTokenEncoder(...files);

  it('short texts: the ids a Python BPE gives, no special tokens added; <|endoftext|> in the text is its own id', () => {
    for (const [text, ids] of Object.entries(expected.short)) expect(encode(text)).toEqual(ids);
    expect(encode('Hello world')).toEqual([15496, 995]);
  });

  it('the 800 demo completions: the same ids, and as many as ctx.tokenCount counts', () => {
    const count = makeTokenCounter(...files);
    const got = demo.map((t) => encode(t));
    expect(got.map((ids) => ids.length)).toEqual(expected.lengths);
    expect(got.map(checksum)).toEqual(expected.checksums);
    expect(demo.map((t) => count(t))).toEqual(expected.lengths);
  });
});
