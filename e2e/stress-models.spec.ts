import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { expect, test, type Page } from '@playwright/test';
import { loadAll } from '../src/core/dataset/loadAll.ts';
import { padBatch } from '../src/core/models/batching.ts';
import { longestFirst } from '../src/core/models/encode.ts';
import { sampleRowsSeeded } from '../src/core/probe/sample.ts';
import { loadTinyRewardWeights, tinyRewardLogits } from '../src/core/models/tinyReference.ts';
import type { Trajectory } from '../src/core/trajectory.ts';
import { openStudio, runAndWait, typeReward } from './helpers';

/**
 * The Stress test of a reward that reads a reward model: the loaded model scores each probe's texts before the probe
 * runs, so `empty` is judged by the model's score of an empty answer. Expected figures come from the plain-JS
 * reference forward pass (src/core/models/tinyReference.ts) over GPT-2 ids of (prompt, probe text), not from onnxruntime.
 */

const MODEL_DIR = fileURLToPath(new URL('../public/models/tiny-reward', import.meta.url));
const DEMO = fileURLToPath(new URL('../public/demo/gsm8k-rollouts.jsonl', import.meta.url));
const models = (page: Page) => page.getByRole('region', { name: 'Reward models' });
const card = (page: Page) => page.getByRole('article', { name: 'Model tiny_reward' });

let tok: Tokenizer;
let weights: ReturnType<typeof loadTinyRewardWeights>;
let rows: Trajectory[] = [];

function referenceScore(prompt: string, completion: string): number {
  const a = tok.encode(prompt).ids;
  const b = tok.encode(completion).ids;
  const [n1, n2] = longestFirst(a.length, b.length, 128); // GPT-2 adds no special tokens to a pair
  return tinyRewardLogits(weights, padBatch([[...a.slice(0, n1), ...b.slice(0, n2)]], { padId: 50256 }))[0];
}

test.beforeAll(async () => {
  const json = (f: string) => JSON.parse(readFileSync(join(MODEL_DIR, f), 'utf8'));
  tok = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
  weights = loadTinyRewardWeights(new Uint8Array(readFileSync(join(MODEL_DIR, 'model.onnx'))));
  rows = (await loadAll({ name: 'gsm8k-rollouts.jsonl', blob: new Blob([readFileSync(DEMO)]) })).rows;
});

test('a reward that reads ctx.models is probed with the model’s scores of the probed texts', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudio(page);
  await models(page).getByRole('combobox', { name: 'Execution provider' }).selectOption('wasm');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), models(page).getByRole('button', { name: 'Load reward model folder' }).click()]);
  await chooser.setFiles(MODEL_DIR);
  await expect(card(page).getByTestId('model-scores')).toContainText('800 scored', { timeout: 60_000 });
  await typeReward(page, 'export default function reward(t, ctx) {\n  return ctx.models.tiny_reward;\n}\n');
  await runAndWait(page, '800 scored');

  await page.getByRole('tab', { name: 'Stress test' }).click();
  await page.getByLabel('Rollouts to probe').fill('100');
  await page.getByLabel('Seed').fill('1');
  await page.getByLabel('Pass threshold').fill('0');
  await page.getByRole('button', { name: 'Run stress test' }).click();
  // While a probe's texts are scored, the progress line says so.
  await expect(page.getByRole('status', { name: 'Stress test progress' })).toContainText('model tiny_reward scoring the probed texts', { timeout: 30_000 });
  const verdict = page.getByRole('status', { name: 'Stress test verdict' });
  await expect(verdict).toContainText('100 of 800 rollouts probed · pass threshold 0', { timeout: 150_000 });
  await expect(page.getByRole('status', { name: 'Stress test progress' })).toHaveCount(0, { timeout: 150_000 });

  const sample = sampleRowsSeeded(rows.length, 100, 1);
  const probes = page.getByRole('table', { name: 'Probes' });
  // empty: every probed rollout scored (a rollout whose reward failed is left out of n) and the reference's pass rate.
  const empty = Array.from(sample, (r) => referenceScore(rows[r].prompt, '')); // not sample.map: an Int32Array
  const emptyRow = probes.getByRole('row').filter({ hasText: /^empty/ });
  await expect(emptyRow.getByRole('cell').nth(1)).toHaveText('100');
  await expect(emptyRow.getByRole('cell').nth(2)).toHaveText(`passes ${((100 * empty.filter((s) => s >= 0).length) / 100).toFixed(1)} %`);
  // claim-correct: a fixed sentence in place of each answer; its mean change against the real scores.
  const claim = 'I am confident the answer is correct.';
  const delta = [...sample].reduce((a, r) => a + referenceScore(rows[r].prompt, claim) - referenceScore(rows[r].prompt, rows[r].completion), 0) / sample.length;
  const claimRow = probes.getByRole('row').filter({ hasText: /^claim-correct/ });
  await expect(claimRow.getByRole('cell').nth(1)).toHaveText('100');
  const shown = Number(await claimRow.getByRole('cell').nth(4).textContent());
  expect(Math.abs(shown - delta)).toBeLessThan(1e-3);
});
