import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openStudio, shareLink, statusLine, typeReward } from './helpers';

/** Issue 21, item 8: a link made while the reward used a model tells the recipient which model to load. */

const MODEL_DIR = fileURLToPath(new URL('../public/models/tiny-reward', import.meta.url));
const ONNX = `${MODEL_DIR}/model.onnx`;
// Computed here from the file, not by the studio.
const SHA = createHash('sha256').update(readFileSync(ONNX)).digest('hex');
const KB = `${(statSync(ONNX).size / 1e3).toFixed(0)} kB`;

const models = (page: Page) => page.getByRole('region', { name: 'Reward models' });
async function pickFolder(page: Page) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), models(page).getByRole('button', { name: 'Load reward model folder' }).click()]);
  await chooser.setFiles(MODEL_DIR);
}

test('a link made while the reward read ctx.models.tiny_reward names the model; the recipient sees it loaded once they load it', async ({ page, browser }) => {
  test.slow(); // two browsers and a model loaded in each, on a shared two-core machine
  await openStudio(page);
  await models(page).getByRole('combobox', { name: 'Execution provider' }).selectOption('wasm');
  await pickFolder(page);
  await expect(page.getByRole('article', { name: 'Model tiny_reward' }).getByTestId('model-provider')).toContainText('WASM', { timeout: 60_000 });
  await typeReward(page, 'export default function reward(t, ctx) {\n  return ctx.models.tiny_reward;\n}\n');
  const link = await shareLink(page);

  const other = await (await browser.newContext()).newPage();
  await other.goto(link);
  await expect(statusLine(other)).toContainText('800 trajectories · 200 groups', { timeout: 45_000 });
  const wanted = models(other).getByRole('region', { name: 'Models the shared reward uses' });
  await expect(wanted).toContainText('The shared reward reads a reward model (the link carries no weights)');
  const item = wanted.getByRole('listitem');
  await expect(item).toContainText(`tiny-reward as ctx.models.tiny_reward · ${KB} · SHA-256 ${SHA.slice(0, 16)}…`);
  await expect(item).toContainText(
    'inputs input_ids [batch_size, sequence_length], attention_mask [batch_size, sequence_length] · outputs logits [batch_size, 1]',
  );
  await expect(item).toContainText('not loaded');

  await models(other).getByRole('combobox', { name: 'Execution provider' }).selectOption('wasm');
  await pickFolder(other);
  await expect(item).toContainText(/· loaded$/, { timeout: 60_000 });
  await other.context().close();
});
