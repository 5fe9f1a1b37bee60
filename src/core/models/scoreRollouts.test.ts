import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RowStatus } from '../reward/contract';
import type { Trajectory } from '../trajectory';
import { padBatch, type TokenBatch } from './batching';
import { RolloutEncoder } from './encode';
import { cacheKey, labelColumn, scoreRollouts, type CachedScore, type ScoreCache } from './scoreRollouts';
import { loadTinyRewardWeights, tinyRewardLogits } from './tinyReference';

/** The scoring driver on the demo reward model in onnxruntime-node, against the plain-JS reference forward pass. */

const DIR = join(__dirname, '../../../public/models/tiny-reward');
const read = (f: string) => readFileSync(join(DIR, f));
const json = (f: string) => JSON.parse(read(f).toString('utf8'));
const config = json('config.json');
const spec = {
  tokenizerJson: read('tokenizer.json').toString('utf8'),
  tokenizerConfig: json('tokenizer_config.json'),
  chatTemplate: null,
  maxLength: 128,
  config,
};
const weights = loadTinyRewardWeights(new Uint8Array(read('model.onnx')));
const gpt2 = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));

const long = Array.from({ length: 60 }, (_, i) => `step ${i}: add ${i * 7} apples`).join('; ');
const PAIRS: [string, string][] = [
  ['How many apples?', 'She has 3 apples left. Answer: 3'],
  ['What is 2+2?', '4'],
  ['Tell me a story.', long], // > 128 tokens: truncated
  ['', ''],
  ['Why?', 'Because.'],
];
const rows: Trajectory[] = PAIRS.map(([prompt, completion], index) => ({
  id: String(index),
  index,
  line: index + 1,
  group: prompt,
  prompt,
  completion,
  messages: [],
  fields: {},
}));

let session: ort.InferenceSession;
let calls: number[] = [];
async function infer(x: TokenBatch): Promise<Float32Array> {
  calls.push(x.batch);
  const dims = [x.batch, x.sequence];
  const out = await session.run({ input_ids: new ort.Tensor('int64', x.inputIds, dims), attention_mask: new ort.Tensor('int64', x.attentionMask, dims) });
  return out.logits.data as Float32Array;
}

/** The reference: GPT-2 ids of prompt then completion (no special tokens), the completion cut to fit 128, one row at a time. */
function expected(): number[] {
  return PAIRS.map(([p, c]) => {
    const a = gpt2.encode(p).ids;
    const b = gpt2.encode(c).ids;
    // the prompt is short: longest-first leaves it whole and cuts the completion to 128 − |prompt|
    const ids = [...a, ...b.slice(0, 128 - a.length)];
    return tinyRewardLogits(weights, padBatch([ids], { padId: 50256 }))[0];
  });
}

class MapCache implements ScoreCache {
  map = new Map<string, CachedScore>();
  async getMany(keys: readonly string[]) {
    return keys.map((k) => this.map.get(k));
  }
  async putMany(entries: readonly (readonly [string, CachedScore])[]) {
    for (const [k, v] of entries) this.map.set(k, v);
  }
}

beforeAll(async () => {
  session = await ort.InferenceSession.create(join(DIR, 'model.onnx'));
});
afterAll(async () => session?.release());

describe('scoreRollouts', () => {
  it('scores every rollout as the reference does, in dynamic batches, and counts the truncated one', async () => {
    calls = [];
    const encoder = new RolloutEncoder(spec, 'pair');
    // budget 256 tokens: the 128-token row leads a batch of 2; the three short ones fit together
    const r = await scoreRollouts(rows, encoder, infer, { numLabels: 1, modelKey: 'tiny', limits: { maxTokens: 256, maxRows: 64 } });
    const want = expected();
    for (let i = 0; i < rows.length; i++) expect(Math.abs(r.logits[i] - want[i])).toBeLessThan(1e-5);
    expect(Array.from(r.status)).toEqual(Array(5).fill(RowStatus.Ok));
    expect(Array.from(r.truncated)).toEqual([0, 0, 1, 0, 0]);
    expect([r.truncatedCount, r.cachedCount, r.inferredCount, r.batches, r.cancelled]).toEqual([1, 0, 5, 2, false]);
    expect(calls).toEqual([2, 3]);
    expect(Array.from(labelColumn(r.logits, 1, 0))).toEqual(Array.from(r.logits));
  });

  it('answers a second run from the cache without running the model, with the same scores and truncation', async () => {
    const cache = new MapCache();
    const encoder = new RolloutEncoder(spec, 'pair');
    const first = await scoreRollouts(rows, encoder, infer, { numLabels: 1, modelKey: 'tiny', cache });
    expect(cache.map.size).toBe(5);
    calls = [];
    const progress: number[] = [];
    const second = await scoreRollouts(rows, encoder, infer, { numLabels: 1, modelKey: 'tiny', cache, onProgress: (p) => progress.push(p.done) });
    expect(calls).toEqual([]);
    expect(Array.from(second.logits)).toEqual(Array.from(first.logits));
    expect([second.cachedCount, second.inferredCount, second.truncatedCount]).toEqual([5, 0, 1]);
    expect(progress.at(-1)).toBe(5);
    // Another model key shares nothing.
    calls = [];
    const other = await scoreRollouts(rows, encoder, infer, { numLabels: 1, modelKey: 'other', cache });
    expect(other.cachedCount).toBe(0);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('keys the cache by SHA-256 of the model key and the input text', async () => {
    // sha256("m\nabc") computed independently: printf 'm\nabc' | sha256sum
    expect(await cacheKey('m', 'abc')).toBe('272d2815d577097ea7c5d53938dcfe0dfb87ba41c9b8e899f99addaa68890cc4');
  });

  it('stops between batches when cancelled: the rest stay pending', async () => {
    let batches = 0;
    const r = await scoreRollouts(rows, new RolloutEncoder(spec, 'pair'), async (x) => (batches++, infer(x)), {
      numLabels: 1,
      modelKey: 'tiny',
      limits: { maxTokens: 1000, maxRows: 2 },
      cancelled: () => batches >= 1,
    });
    expect(r.cancelled).toBe(true);
    expect(r.inferredCount).toBe(2);
    expect(Array.from(r.status).filter((s) => s === RowStatus.Pending)).toHaveLength(3);
    expect(Array.from(r.status).filter((s) => s === RowStatus.Ok)).toHaveLength(2);
  });

  it('fails only the rows of a batch the model refuses, with the reason', async () => {
    const r = await scoreRollouts(
      rows,
      new RolloutEncoder(spec, 'pair'),
      async (x) => {
        if (x.sequence === 128) throw new Error('out of memory');
        return infer(x);
      },
      { numLabels: 1, modelKey: 'tiny', limits: { maxTokens: 128, maxRows: 64 } },
    );
    // budget 128: the 128-token row (index 2) is alone in the first batch
    expect(r.status[2]).toBe(RowStatus.Error);
    expect(r.errors.get(2)).toBe('the model failed on this batch: out of memory');
    expect(Number.isNaN(r.logits[2])).toBe(true);
    expect([...r.status].filter((s) => s === RowStatus.Ok)).toHaveLength(4);
    expect(r.truncatedCount).toBe(0); // a failed row is not counted as truncated
  });

  it('reports a row whose input cannot be built', async () => {
    const chat = new RolloutEncoder(
      { ...spec, chatTemplate: "{{ raise_exception('no system role') if messages[0].role == 'system' else messages[0].content }}" },
      'chat',
    );
    const convs: Trajectory[] = [
      { ...rows[0], messages: [{ role: 'system', content: 'x' }] },
      { ...rows[1], messages: [{ role: 'user', content: 'hello there' }] },
    ];
    const r = await scoreRollouts(convs, chat, infer, { numLabels: 1, modelKey: 'tiny' });
    expect(r.status[0]).toBe(RowStatus.Error);
    expect(r.errors.get(0)).toMatch(/^building the model input failed: .*no system role/);
    expect(r.status[1]).toBe(RowStatus.Ok);
    const want = tinyRewardLogits(weights, padBatch([gpt2.encode('hello there').ids], { padId: 50256 }))[0];
    expect(Math.abs(r.logits[1] - want)).toBeLessThan(1e-5);
  });
});

describe('labelColumn', () => {
  it('takes one logit per row from row-major [rows, labels]', () => {
    // rows: [1, 2], [3, 4], [5, NaN] → label 1: 2, 4, NaN; label 0: 1, 3, 5
    const logits = Float32Array.from([1, 2, 3, 4, 5, Number.NaN]);
    expect(Array.from(labelColumn(logits, 2, 1))).toEqual([2, 4, Number.NaN]);
    expect(Array.from(labelColumn(logits, 2, 0))).toEqual([1, 3, 5]);
  });
});
