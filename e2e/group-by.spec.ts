import { expect, test } from '@playwright/test';
import { openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

/**
 * Issue 21, item 16: the reward per value of a column. The demo's default reward agrees with is_correct_openai on all
 * 800 rows, which is true for 45 / 75 / 65 / 110 of the 200 rollouts of each model (counted in the file): a 0/1
 * reward with a share p of ones has mean p and population std √(p(1−p)), e.g. √(0.225 · 0.775) = 0.4176.
 */
test('group by model: rows, mean and std per model as a table and a chart; another column by keyboard', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('tab', { name: 'Group by' }).click();
  const column = page.getByRole('combobox', { name: 'Group by column' });
  await expect(column).toHaveValue('model');
  const table = page.getByRole('table', { name: 'Reward by group' });
  await expect(table.getByRole('row')).toHaveCount(5);
  await expect(table.getByRole('row').nth(1)).toHaveText(['6b_finetuning', '200', '0.2250', '0.4176'].join(''));
  await expect(table.getByRole('row').nth(2)).toHaveText(['6b_verification', '200', '0.3750', '0.4841'].join(''));
  await expect(table.getByRole('row').nth(3)).toHaveText(['175b_finetuning', '200', '0.3250', '0.4684'].join(''));
  await expect(table.getByRole('row').nth(4)).toHaveText(['175b_verification', '200', '0.5500', '0.4975'].join(''));
  await expect(page.getByRole('figure', { name: 'Reward by group chart' })).toHaveAttribute('data-bars', '4');
  await expect(page.getByText('std (population)')).toBeVisible();

  // Pick is_correct_openai with the keyboard: the reward is 1 exactly where it is true.
  await column.focus();
  await page.keyboard.press('End');
  await expect(column).toHaveValue('is_correct_openai');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row').nth(1)).toHaveText(['false', '505', '0', '0'].join(''));
  await expect(table.getByRole('row').nth(2)).toHaveText(['true', '295', '1', '0'].join(''));
});

/**
 * An uploaded file of 1,200 rollouts: `model` (3 values) is collected while the file is imported; `source` (one
 * value per row, more than the 1,000 collected) is given up then and read from the file when picked. Both give the same figures a person
 * counts in the file: the reward is 1 exactly for model m1 (every third row, 400 of them).
 */
test('group by on an uploaded file: a column collected at import and one read from the file when picked', async ({ page }) => {
  await openStudio(page);
  const lines = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ prompt: `Q${i >> 2}`, completion: `A${i}`, model: `m${i % 3}`, source: `s${i}` }));
  await upload(page, 'models.jsonl', Buffer.from(lines.join('\n') + '\n'));
  await expect(statusLine(page)).toContainText('1,200 trajectories');
  await typeReward(page, "export default function reward(t) {\n  return t.fields.model === 'm1' ? 1 : 0;\n}\n");
  await runAndWait(page, '1,200 scored');
  await page.getByRole('tab', { name: 'Group by' }).click();
  const column = page.getByRole('combobox', { name: 'Group by column' });
  await expect(column).toHaveValue('model');
  const table = page.getByRole('table', { name: 'Reward by group' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toHaveText(['m0', '400', '0', '0'].join(''));
  await expect(table.getByRole('row').nth(2)).toHaveText(['m1', '400', '1', '0'].join(''));
  await expect(table.getByRole('row').nth(3)).toHaveText(['m2', '400', '0', '0'].join(''));

  await column.selectOption('source');
  await expect(page.getByText('1,200 values over 1,200 rollouts')).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(41); // the 40 values with the most rollouts, and the header
  await expect(table.getByRole('row').nth(1)).toHaveText(['s0', '1', '0', '0'].join(''));
  await expect(table.getByRole('row').nth(2)).toHaveText(['s1', '1', '1', '0'].join(''));
});
