import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { Tokenizer } from '@huggingface/tokenizers';
import { expect, test, type Page } from '@playwright/test';
import { loadAll } from '../src/core/dataset/loadAll.ts';
import { padBatch } from '../src/core/models/batching.ts';
import { longestFirst } from '../src/core/models/encode.ts';
import { loadTinyRewardWeights, tinyRewardLogits } from '../src/core/models/tinyReference.ts';
import { openStudio, runAndWait, typeReward } from './helpers';

/**
 * Reward-model ensembles (issue 26) as a user meets them: load two models, see the Ensemble card (agreement, mean
 * disagreement, where they disagree most), open a rollout from it, show the ensemble in the diagnostics, read
 * ctx.models.ensemble in reward code. The second model is the demo model's architecture with other weights
 * (scripts/make-tiny-reward-model.mjs --seed 7). Expected figures come from the plain-JS reference forward pass of
 * each model (src/core/models/tinyReference.ts) and the definitions, not from the studio.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODEL_A = join(ROOT, 'public/models/tiny-reward');
const DEMO = join(ROOT, 'public/demo/gsm8k-rollouts.jsonl');
const models = (page: Page) => page.getByRole('region', { name: 'Reward models' });
const ensemble = (page: Page) => page.getByRole('article', { name: 'Ensemble' });

let modelB = '';
const a: number[] = [];
const b: number[] = [];

test.beforeAll(async () => {
  modelB = join(mkdtempSync(join(tmpdir(), 'ens-')), 'tiny-reward-b');
  const made = spawnSync(process.execPath, [join(ROOT, 'scripts/make-tiny-reward-model.mjs'), '--seed', '7', modelB], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  const json = (f: string) => JSON.parse(readFileSync(join(MODEL_A, f), 'utf8'));
  const tok = new Tokenizer(json('tokenizer.json'), json('tokenizer_config.json'));
  const wa = loadTinyRewardWeights(new Uint8Array(readFileSync(join(MODEL_A, 'model.onnx'))));
  const wb = loadTinyRewardWeights(new Uint8Array(readFileSync(join(modelB, 'model.onnx'))));
  const { rows } = await loadAll({ name: 'gsm8k-rollouts.jsonl', blob: new Blob([readFileSync(DEMO)]) });
  for (const t of rows) {
    const p = tok.encode(t.prompt).ids;
    const c = tok.encode(t.completion).ids;
    const [n1, n2] = longestFirst(p.length, c.length, 128);
    const batch = padBatch([[...p.slice(0, n1), ...c.slice(0, n2)]], { padId: 50256 });
    a.push(tinyRewardLogits(wa, batch)[0]);
    b.push(tinyRewardLogits(wb, batch)[0]);
  }
});

async function pickFolder(page: Page, dir: string) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), models(page).getByRole('button', { name: 'Load reward model folder' }).click()]);
  await chooser.setFiles(dir);
}

const mean = (v: number[]) => v.reduce((t, x) => t + x, 0) / v.length;

test('two models: the Ensemble card, where they disagree most, the ensemble as scores and in reward code', async ({ page }) => {
  await openStudio(page);
  await pickFolder(page, MODEL_A);
  await expect(page.getByRole('article', { name: 'Model tiny_reward' }).getByTestId('model-scores')).toContainText('800 scored', { timeout: 60_000 });
  await expect(ensemble(page)).toHaveCount(0); // one model: no ensemble
  await pickFolder(page, modelB);
  await expect(page.getByRole('article', { name: 'Model tiny_reward_b' }).getByTestId('model-scores')).toContainText('800 scored', { timeout: 60_000 });

  // Two models: population std of two scores is |a − b| / 2.
  const std = a.map((x, i) => Math.abs(x - b[i]) / 2);
  await expect(ensemble(page)).toContainText('ctx.models.ensemble');
  await expect(ensemble(page)).toContainText('scored by every model: 800');
  const shown = Number(
    /Mean disagreement \(std across models\) (-?[\d.]+)/.exec((await ensemble(page).getByTestId('ensemble-disagreement').textContent()) ?? '')![1],
  );
  expect(Math.abs(shown - mean(std))).toBeLessThan(1.5e-3); // shown with 3 decimals
  const ma = mean(a);
  const mb = mean(b);
  const r =
    a.reduce((t, x, i) => t + (x - ma) * (b[i] - mb), 0) / Math.sqrt(a.reduce((t, x) => t + (x - ma) ** 2, 0) * b.reduce((t, y) => t + (y - mb) ** 2, 0));
  const row = ensemble(page)
    .getByRole('table', { name: 'Agreement between models' })
    .getByRole('row', { name: /tiny_reward · tiny_reward_b/ });
  const pearsonShown = Number(await row.getByRole('cell').first().textContent());
  expect(Math.abs(pearsonShown - r)).toBeLessThan(1.5e-3);

  // Where they disagree most: the largest |a − b| first; opening it shows that rollout.
  await ensemble(page).getByRole('button', { name: 'Where the models disagree most' }).click();
  const top = ensemble(page).getByRole('list', { name: 'Rollouts where the models disagree most' });
  await expect(top.getByRole('listitem')).toHaveCount(20);
  const worst = std.indexOf(Math.max(...std));
  await expect(top.getByRole('listitem').first()).toContainText(`#${worst}`);
  await expect(ensemble(page).getByRole('img', { name: /Disagreement vs length: 800 points, \d+ binned means/ })).toBeVisible();
  await top.getByRole('button', { name: `Open rollout ${worst}` }).click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toContainText(`Rollout ${worst}`);
  await page.getByRole('button', { name: 'Close rollout' }).click();

  // axe on the panel with the card open.
  const { violations } = await new AxeBuilder({ page }).include('.models-panel').analyze();
  expect(violations.flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}`))).toEqual([]);

  // The ensemble as the diagnostics' scores: its std's mean is the mean disagreement; its min's mean is mean(min(a, b)).
  const summary = page.getByTestId('run-summary');
  const meanShown = async () => Number(/mean (-?[\d.]+)/.exec((await summary.textContent()) ?? '')![1]);
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Ensemble std (disagreement)' });
  await expect(summary).toContainText('800 scored');
  await expect.poll(meanShown).toBeCloseTo(mean(std), 3);
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Ensemble min' });
  await expect.poll(meanShown).toBeCloseTo(mean(a.map((x, i) => Math.min(x, b[i]))), 3);
  await page.getByRole('tab', { name: 'Length' }).click();
  await expect(page.getByRole('tabpanel')).toContainText('Pearson');

  // Reward code: Coste et al.'s uncertainty-weighted reward, mean − 0.5·std.
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Reward run' });
  await typeReward(page, 'export default function reward(t, ctx) {\n  const e = ctx.models.ensemble;\n  return e.mean - 0.5 * e.std;\n}\n');
  await runAndWait(page, '800 scored');
  await expect.poll(meanShown).toBeCloseTo(mean(a.map((x, i) => (x + b[i]) / 2 - 0.5 * std[i])), 3);

  // Removing a model ends the ensemble.
  await page.getByRole('button', { name: 'Remove tiny_reward_b' }).click();
  await expect(ensemble(page)).toHaveCount(0);
});
