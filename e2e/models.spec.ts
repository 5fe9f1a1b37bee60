import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Tokenizer } from '@huggingface/tokenizers';
import { expect, test, type Page } from '@playwright/test';
import { loadAll } from '../src/core/dataset/loadAll.ts';
import { padBatch } from '../src/core/models/batching.ts';
import { loadTinyRewardWeights, tinyRewardLogits } from '../src/core/models/tinyReference.ts';
import { longestFirst } from '../src/core/models/encode.ts';
import { openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

/**
 * Reward models (issue 6) as a user meets them: pick the model folder, see its facts and the provider that runs it,
 * see its scores in the diagnostics, use them in reward code, re-score from the cache, compare WebGPU with WASM,
 * and get a clear message for a broken folder.
 *
 * Expected scores come from the plain-JS reference forward pass (src/core/models/tinyReference.ts) over GPT-2 ids
 * of each demo rollout's (prompt, completion) pair, not from onnxruntime.
 */

const MODEL_DIR = fileURLToPath(new URL('../public/models/tiny-reward', import.meta.url));
const DEMO = fileURLToPath(new URL('../public/demo/gsm8k-rollouts.jsonl', import.meta.url));
const models = (page: Page) => page.getByRole('region', { name: 'Reward models' });
const runHistory = (page: Page) => page.getByRole('combobox', { name: 'Run history' });
const card = (page: Page) => page.getByRole('article', { name: 'Model tiny_reward' });

let referenceMean = 0;
let referenceTruncated = 0;
let tok: Tokenizer;
let weights: ReturnType<typeof loadTinyRewardWeights>;

/** The reference score of one (prompt, completion) pair: GPT-2 ids back to back, cut longest-first to 128. */
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
  const bytes = readFileSync(DEMO);
  const { rows } = await loadAll({ name: 'gsm8k-rollouts.jsonl', blob: new Blob([bytes]) });
  let sum = 0;
  for (const t of rows) {
    if (tok.encode(t.prompt).ids.length + tok.encode(t.completion).ids.length > 128) referenceTruncated++;
    sum += referenceScore(t.prompt, t.completion);
  }
  referenceMean = sum / rows.length;
});

async function pickFolder(page: Page, dir: string) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), models(page).getByRole('button', { name: 'Load reward model folder' }).click()]);
  await chooser.setFiles(dir);
}

async function pickFiles(page: Page, files: string[]) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), models(page).getByRole('button', { name: 'Load model files' }).click()]);
  await chooser.setFiles(files);
}

test('load the model folder: its facts, the provider, its scores in the diagnostics and in ctx.models', async ({ page }) => {
  await openStudio(page);
  await pickFolder(page, MODEL_DIR);
  await expect(card(page)).toBeVisible();
  await expect(card(page)).toContainText('ctx.models.tiny_reward');
  await expect(card(page)).toContainText('max 128 tokens');
  await expect(card(page).getByTestId('model-io')).toHaveText(
    'inputs input_ids int64 [batch_size, sequence_length], attention_mask int64 [batch_size, sequence_length] → outputs logits float32 [batch_size, 1]',
  );
  // Chromium here has a software WebGPU adapter: Auto picks WebGPU, and the card says which adapter ran it.
  await expect(card(page).getByTestId('model-provider')).toContainText('WebGPU', { timeout: 30_000 });
  await expect(card(page).getByTestId('model-scores')).toContainText('800 scored', { timeout: 60_000 });
  await expect(card(page).getByTestId('model-scores')).toContainText(` · ${referenceTruncated} truncated`);

  // Its own column in the rollout table.
  await expect(page.getByRole('columnheader', { name: 'tiny_reward' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Rollouts table' }).getByRole('row').nth(1).getByRole('cell').last()).toHaveText(/^-?\d+\.\d{4}$/);

  // The model's score as the reward in the diagnostics: its mean is the reference's.
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Model: tiny_reward' });
  const summary = page.getByTestId('run-summary');
  await expect(summary).toContainText('800 scored');
  const shown = Number(/mean (-?[\d.]+)/.exec((await summary.textContent()) ?? '')![1]);
  expect(Math.abs(shown - referenceMean)).toBeLessThan(1e-4);
  await page.getByRole('tab', { name: 'Length' }).click();
  await expect(page.getByRole('tabpanel')).toContainText('Pearson');

  // Reward code combines the model's score with a rule: 2 × score + 1 on every row → mean 2·m + 1.
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Reward run' });
  await typeReward(page, 'export default function reward(t, ctx) {\n  return 2 * ctx.models.tiny_reward + 1;\n}\n');
  await runAndWait(page, '800 scored');
  await expect(runHistory(page).locator('option')).toHaveCount(2); // the new run has landed
  const mean = Number(/mean (-?[\d.]+)/.exec((await summary.textContent()) ?? '')![1]);
  expect(Math.abs(mean - (2 * referenceMean + 1))).toBeLessThan(2e-4);

  // Scoring again reads every score from the IndexedDB cache: the model does not run.
  await card(page).getByRole('button', { name: 'Score rollouts' }).click();
  await expect(card(page).getByTestId('model-scores')).toContainText('800 from cache · 0 run in 0 batches');
});

test('WASM on request, and WebGPU checked against WASM on a sample', async ({ page }) => {
  await openStudio(page);
  await models(page).getByRole('combobox', { name: 'Execution provider' }).selectOption('wasm');
  await pickFolder(page, MODEL_DIR);
  await expect(card(page).getByTestId('model-provider')).toContainText(/WASM \(\d+ threads?\)/, { timeout: 30_000 });
  await expect(card(page).getByTestId('model-scores')).toContainText('800 scored', { timeout: 60_000 });
  await card(page).getByRole('button', { name: 'Check WebGPU against WASM' }).click();
  const check = card(page).getByTestId('provider-check');
  await expect(check).toContainText('largest difference', { timeout: 60_000 });
  const diff = Number(/largest difference ([\d.e+-]+)/.exec((await check.textContent()) ?? '')![1]);
  expect(diff).toBeLessThan(1e-4);
  await expect(check).toContainText('on 32 rollouts');
});

test('a corrupt .onnx and a folder without tokenizer.json get clear messages', async ({ page }) => {
  await openStudio(page);
  const dir = mkdtempSync(join(tmpdir(), 'broken-model-'));
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(MODEL_DIR, f), join(dir, f));
  writeFileSync(join(dir, 'model.onnx'), Buffer.from('this is not a protobuf graph at all'.repeat(20)));
  await pickFiles(
    page,
    ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.onnx'].map((f) => join(dir, f)),
  );
  await expect(card(page).getByRole('alert')).toContainText('model.onnx is not a valid ONNX model', { timeout: 30_000 });

  await pickFiles(page, [join(MODEL_DIR, 'config.json'), join(MODEL_DIR, 'model.onnx')]);
  await expect(page.getByRole('alert', { name: 'Model error' })).toHaveText(/This model cannot be loaded: .*tokenizer\.json is missing/);
});

test('preference accuracy of the reward model on a hand-made pair file', async ({ page }) => {
  await openStudio(page);
  const file = readFileSync(fileURLToPath(new URL('./fixtures/preference-pairs.jsonl', import.meta.url)));
  await upload(page, 'pairs.jsonl', file);
  await expect(statusLine(page)).toContainText('14 trajectories · 7 groups');
  await pickFolder(page, MODEL_DIR);
  await expect(card(page).getByTestId('model-scores')).toContainText('14 scored', { timeout: 60_000 });
  // The model's accuracy, counted here from the reference scores: chosen above rejected, ties apart.
  const pairs = file
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { prompt: string; chosen: string; rejected: string });
  let correct = 0;
  let tied = 0;
  for (const p of pairs) {
    const c = referenceScore(p.prompt, p.chosen);
    const r = referenceScore(p.prompt, p.rejected);
    if (Math.abs(c - r) < 1e-9) tied++;
    else if (c > r) correct++;
  }
  expect(tied).toBe(0); // a tie between two texts would make the float comparison in onnxruntime fragile
  await page.getByRole('tab', { name: 'Preference' }).click();
  await page.getByRole('combobox', { name: 'Scores from' }).selectOption({ label: 'Model: tiny_reward' });
  await expect(page.getByTestId('preference-accuracy')).toContainText(`accuracy ${((correct / 7) * 100).toFixed(1)}% (95% CI`);
});

test('a Python reward (verl signature) reads the model score from extra_info["rollout_reward_scores"]', async ({ page }) => {
  test.setTimeout(150_000);
  await openStudio(page);
  await pickFolder(page, MODEL_DIR);
  await expect(card(page).getByTestId('model-scores')).toContainText('800 scored', { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(
    page,
    'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 2 * extra_info["rollout_reward_scores"]["tiny_reward"] + 1\n',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(runHistory(page).locator('option')).toHaveCount(2, { timeout: 90_000 }); // Pyodide loads first
  await expect(page.getByTestId('run-summary')).toContainText('800 scored');
  const mean = Number(/mean (-?[\d.]+)/.exec((await page.getByTestId('run-summary').textContent()) ?? '')![1]);
  expect(Math.abs(mean - (2 * referenceMean + 1))).toBeLessThan(2e-4);
});

test('scoring shows progress and can be cancelled; scoring again takes the finished part from the cache', async ({ page }) => {
  test.setTimeout(150_000);
  await openStudio(page);
  // 8,000 rollouts of ~100 tokens: long enough to cancel in the middle.
  const lines = Array.from({ length: 8_000 }, (_, i) =>
    JSON.stringify({
      prompt: `Question ${i >> 2}: how many apples?`,
      completion: `Step by step: ${Array.from({ length: 40 }, (_, k) => `${(i * 7 + k) % 97} apples`).join(', ')}. A: ${i % 9}`,
    }),
  );
  await upload(page, 'many.jsonl', Buffer.from(lines.join('\n')));
  await expect(statusLine(page)).toContainText('8,000 trajectories');
  await models(page).getByRole('combobox', { name: 'Execution provider' }).selectOption('wasm');
  await pickFolder(page, MODEL_DIR);
  const progress = card(page).getByRole('progressbar', { name: 'Scoring with tiny_reward' });
  // Polled every 50 ms (not the default back-off to 1 s): a loaded machine can score the rest within a slow poll's gap.
  await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 60_000, intervals: [50] }).toBeGreaterThan(0);
  await card(page).getByRole('button', { name: 'Cancel scoring' }).click();
  const scores = card(page).getByTestId('model-scores');
  await expect(scores).toContainText('cancelled', { timeout: 30_000 });
  const done = Number(/^([\d,]+) scored/.exec((await scores.textContent()) ?? '')![1].replace(/,/g, ''));
  expect(done).toBeGreaterThan(0);
  expect(done).toBeLessThan(8_000);
  // The rollouts scored before the cancel come from the cache; the model runs on the rest.
  await card(page).getByRole('button', { name: 'Score rollouts' }).click();
  await expect(scores).toContainText('8,000 scored', { timeout: 120_000 });
  await expect(scores).toContainText(`${done.toLocaleString('en-US')} from cache · ${(8_000 - done).toLocaleString('en-US')} run in`);
});
