import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { expect, test, type Page } from '@playwright/test';
import * as ort from 'onnxruntime-node';
import { padBatch, type TokenBatch } from '../src/core/models/batching.ts';
import type { ParityRequest, ParityResult, Provider } from '../tests-pages/ort-parity.ts';

/**
 * The demo reward model (public/models/tiny-reward/model.onnx) gives the same logits in onnxruntime-web inside
 * Chromium (WASM, WebGPU: one execution provider per session) as in onnxruntime-node here, within 1e-4.
 * Page: tests-pages/ort-parity.html (a second Vite entry in the production build). All of onnxruntime-web's files
 * come from the app's own origin. WebGPU without an adapter is reported as a skip with the reason, never a pass.
 */

const DIR = fileURLToPath(new URL('../public/models/tiny-reward', import.meta.url));
const MODEL_URL = '/models/tiny-reward/model.onnx';
const TOLERANCE = 1e-4;
const TEXTS = [
  'The answer is 42.',
  'Let me think step by step. 3 + 4 = 7, so the final answer is \\boxed{7}.',
  '',
  Array.from({ length: 60 }, (_, i) => `step ${i}: add ${i * 7} apples`).join('; '),
  'Ünïcödé ✓ — 数学 🙂',
];

let batch: TokenBatch;
let expected: Float32Array;

test.beforeAll(async () => {
  const json = (f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8'));
  const config = json('config.json');
  const tokenizer = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
  batch = padBatch(
    TEXTS.map((t) => tokenizer.encode(t).ids),
    { padId: config.pad_token_id, maxLength: config.max_position_embeddings },
  );
  const session = await ort.InferenceSession.create(join(DIR, 'model.onnx'), { executionProviders: ['cpu'] });
  const dims = [batch.batch, batch.sequence];
  const out = await session.run({
    input_ids: new ort.Tensor('int64', batch.inputIds, dims),
    attention_mask: new ort.Tensor('int64', batch.attentionMask, dims),
  });
  expected = out.logits.data as Float32Array;
  await session.release();
});

/** Open the test page, recording every request (all must stay on the app's origin) and console errors. */
async function openParityPage(page: Page, baseURL: string) {
  const requests: string[] = [];
  const errors: string[] = [];
  const workers: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('worker', (w) => workers.push(w.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/tests-pages/ort-parity.html');
  await expect(page.locator('#out')).toHaveText('ready');
  const origin = new URL(baseURL).origin;
  return {
    requests,
    errors,
    workers,
    foreign: () => requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('blob:') && !u.startsWith('data:')),
  };
}

function runInPage(page: Page, provider: Provider, numThreads: number): Promise<ParityResult> {
  const req: ParityRequest = {
    provider,
    modelUrl: MODEL_URL,
    inputIds: Array.from(batch.inputIds, Number),
    attentionMask: Array.from(batch.attentionMask, Number),
    batch: batch.batch,
    sequence: batch.sequence,
    numThreads,
  };
  return page.evaluate((r) => window.ortParity.runParity(r), req);
}

function maxDiff(got: number[]): number {
  expect(got).toHaveLength(expected.length);
  return Math.max(...got.map((v, i) => Math.abs(v - expected[i])));
}

// onnxruntime's default is min(4, cores / 2) threads: 1 on a 2-core machine, so ask for 2 to cover the threaded build
// (pthreads in workers started from the bundled ort chunk itself; needs crossOriginIsolated).
for (const numThreads of [1, 2]) {
  test(`WASM (${numThreads} thread${numThreads > 1 ? 's' : ''}) matches onnxruntime-node within 1e-4`, async ({ page, baseURL }) => {
    const net = await openParityPage(page, baseURL!);
    const r = await runInPage(page, 'wasm', numThreads);
    if (!r.ok) throw new Error(`onnxruntime-web wasm failed: ${r.error}\nconsole: ${net.errors.join('\n')}`);
    expect(r.executionProviders).toEqual(['wasm']);
    expect(r.crossOriginIsolated).toBe(true);
    expect(r.inputNames).toEqual(['input_ids', 'attention_mask']);
    expect(r.outputNames).toEqual(['logits']);
    expect(r.dims).toEqual([TEXTS.length, 1]);
    const diff = maxDiff(r.logits);
    console.log(`[ort-parity] wasm numThreads=${r.numThreads} (${net.workers.length} workers): max |web - node| = ${diff.toExponential(2)} (${r.wasmUrl})`);
    expect(r.numThreads).toBe(numThreads);
    if (numThreads > 1) expect(net.workers.length).toBeGreaterThan(0);
    expect(diff).toBeLessThan(TOLERANCE);
    expect(net.requests.some((u) => u.endsWith('.wasm'))).toBe(true);
    expect(net.foreign()).toEqual([]);
  });
}

test('WebGPU matches onnxruntime-node within 1e-4 (or is reported unavailable)', async ({ page, baseURL }) => {
  const net = await openParityPage(page, baseURL!);
  const r = await runInPage(page, 'webgpu', 1);
  if (!r.ok && r.unavailable) {
    console.log(`[ort-parity] WebGPU UNAVAILABLE: ${r.error}`);
    test.skip(true, `WebGPU unavailable in this Chromium: ${r.error}`);
    return;
  }
  if (!r.ok) throw new Error(`onnxruntime-web webgpu failed although an adapter exists: ${r.error}\nconsole: ${net.errors.join('\n')}`);
  expect(r.executionProviders).toEqual(['webgpu']);
  expect(r.webgpuDevice).toBe(true);
  expect(r.dims).toEqual([TEXTS.length, 1]);
  const diff = maxDiff(r.logits);
  console.log(`[ort-parity] webgpu (adapter ${JSON.stringify(r.adapter)}): max |web - node| = ${diff.toExponential(2)} (${r.wasmUrl})`);
  expect(diff).toBeLessThan(TOLERANCE);
  expect(net.foreign()).toEqual([]);
});
