import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectSaved, openStudio, typeReward } from './helpers';

// Loading Pyodide in each worker takes seconds on these machines.
test.setTimeout(240_000);

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/**
 * verl's dict result (issue 22): `pred`, a string, is a column of its own. Figures from CPython on the same file and
 * the demo data (scripts/e2e-strings-expected.py): mean −0.2625; preds of rows 0–3 "26", "224", "4", "18"; 5 rows
 * "[INVALID]" (no "A:"); 25 preds contain "18", among them 6 distinct values: 18, 18.7, 180, 187, 1875, 18000.
 */
test('verl dict results: a string value is a column to show, sort and filter, in the detail, kept after a reload', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(page, fixture('verl_pred.py'));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText(/mean [-−]0\.2625 · 800 scored/, { timeout: 120_000 });

  const columns = page.getByRole('button', { name: 'Columns' });
  await columns.click();
  const panel = page.getByRole('group', { name: 'Table columns and filters' });
  await panel.getByRole('checkbox', { name: 'pred' }).check();
  await expect(page.getByRole('columnheader', { name: 'pred' })).toBeVisible();
  await expect(page.locator('.rt-data[data-row="1"] .c-extra').first()).toHaveText('224');
  await panel.getByRole('textbox', { name: 'pred contains' }).fill('INVALID');
  await expect(page.getByTestId('shown-count')).toHaveText('5 shown');
  await panel.getByRole('textbox', { name: 'pred contains' }).fill('18');
  await expect(page.getByTestId('shown-count')).toHaveText('25 shown');
  await columns.click(); // the menu lies over the headers
  // Sorted as text with digits compared as numbers: of the preds with "18" (18, 18.7, 180, 187, 1875, 18000),
  // the first ascending is 18 and the first descending 18000.
  await page.getByRole('button', { name: 'Sort by pred' }).click();
  await expect(page.getByRole('columnheader', { name: 'pred' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.locator('.rt-data').first().locator('.c-extra').first()).toHaveText('18');
  await page.getByRole('button', { name: 'Sort by pred' }).click();
  await expect(page.getByRole('columnheader', { name: 'pred' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.locator('.rt-data').first().locator('.c-extra').first()).toHaveText('18000');

  // The detail of row 3 shows pred next to acc.
  await page.locator('.rt-data[data-row="3"]').click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  const box = detail.getByLabel('Reward of this rollout');
  await expect(box.locator('dt:text-is("pred") + dd')).toHaveText('18');
  await expect(box.locator('dt:text-is("acc") + dd')).toHaveText('1');

  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('shown-count')).toHaveText('25 shown', { timeout: 30_000 });
  await expect(page.getByRole('columnheader', { name: 'pred' })).toBeVisible();
  await expect(page.locator('.rt-data[data-row="3"] .c-extra').first()).toHaveText('18');
});

/**
 * TRL's soft overlong punishment reads completion_ids (issue 22): the studio gives it the chosen tokenizer's ids.
 * Figures from CPython on ids from a GPT-2 BPE written in Python (scripts/completion-ids-expected.py): on the demo
 * data with max_completion_len 100 and soft_punish_cache 20, mean −0.501125; rows 0–3 score 0, −1, −1, −0.95.
 */
test('TRL completion_ids: get_soft_overlong_punishment scores with the chosen tokenizer’s ids', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(page, fixture('trl_soft_overlong.py'));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText(/mean [-−]0\.5011 · 800 scored/, { timeout: 120_000 });
  await expect(page.getByLabel('completion_ids')).toHaveText(/GPT-2 token ids of each completion/);
  await page.locator('.rt-data[data-row="3"]').click();
  const box = page.getByRole('complementary', { name: 'Rollout detail' }).getByLabel('Reward of this rollout');
  await expect(box.getByTestId('detail-reward')).toHaveText('-0.95');
});
