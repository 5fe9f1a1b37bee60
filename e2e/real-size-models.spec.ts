import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { openStudio } from './helpers';

/**
 * The architectures of scripts/make-real-size-models.mjs (issue 26), in their tiny configs, load in the Reward models
 * panel like real Optimum exports: picked as a folder, their inputs listed, all 800 demo rollouts scored on WASM.
 */

interface Gen {
  ENCODER: object;
  DECODER: object;
  tinyOf(s: object): object;
  writeRealSizeModel(s: object, dtype: string, dir: string): { params: number };
}
const models = (page: Page) => page.getByRole('region', { name: 'Reward models' });

for (const [arch, dtype, io] of [
  [
    'encoder',
    'fp16',
    'inputs input_ids int64 [batch_size, sequence_length], attention_mask int64 [batch_size, sequence_length], token_type_ids int64 [batch_size, sequence_length] → outputs logits float32 [batch_size, 1]',
  ],
  [
    'decoder',
    'fp32',
    'inputs input_ids int64 [batch_size, sequence_length], attention_mask int64 [batch_size, sequence_length] → outputs logits float32 [batch_size, 1]',
  ],
  [
    'decoder',
    'int8',
    'inputs input_ids int64 [batch_size, sequence_length], attention_mask int64 [batch_size, sequence_length] → outputs logits float32 [batch_size, 1]',
  ],
] as const) {
  test(`${arch} ${dtype} (tiny config) loads in the panel and scores the demo rollouts`, async ({ page }) => {
    const gen = (await import(pathToFileURL(join(import.meta.dirname, '../scripts/make-real-size-models.mjs')).href)) as Gen;
    const dir = join(mkdtempSync(join(tmpdir(), 'rs-real-size-')), `tiny-${arch}-${dtype}`);
    gen.writeRealSizeModel(gen.tinyOf(arch === 'encoder' ? gen.ENCODER : gen.DECODER), dtype, dir);
    await openStudio(page);
    await models(page).getByRole('combobox', { name: 'Execution provider' }).selectOption('wasm');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), models(page).getByRole('button', { name: 'Load reward model folder' }).click()]);
    await chooser.setFiles(dir);
    const card = page.getByRole('article', { name: `Model tiny_${arch}_${dtype}` });
    await expect(card).toBeVisible();
    await expect(card.getByTestId('model-io')).toHaveText(io);
    await expect(card.getByTestId('model-provider')).toContainText(/WASM \(\d+ threads?\)/, { timeout: 30_000 });
    await expect(card.getByTestId('model-scores')).toContainText('800 scored', { timeout: 120_000 });
    await expect(card.getByRole('alert')).toHaveCount(0);
  });
}
