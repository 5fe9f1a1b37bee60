import { expect, test } from '@playwright/test';
import { openStudio, upload } from './helpers';

/** Issue 21: Download rows on 100,000 rows says it is preparing the file (built in the data worker), then downloads it. */
test('Download rows on 100,000 rows shows "Preparing the file…" until the file arrives', async ({ page }) => {
  test.setTimeout(150_000); // 100,000 rows uploaded and scored on a shared 2-core machine
  await openStudio(page);
  const line = (k: number) => JSON.stringify({ prompt: `question ${k % 25000}`, completion: `answer ${k}` });
  await upload(page, 'hundred-k.jsonl', Buffer.from(Array.from({ length: 100000 }, (_, k) => line(k)).join('\n')));
  await expect(page.getByTestId('run-summary')).toContainText('100,000 scored', { timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Download format' }).selectOption('Parquet');
  const downloaded = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Download rows' }).click();
  const preparing = page.getByRole('status').filter({ hasText: 'Preparing the file…' });
  await expect(preparing).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download rows' })).toBeDisabled();
  expect((await downloaded).suggestedFilename()).toBe('hundred-k-rows.parquet');
  await expect(preparing).toBeHidden();
  await expect(page.getByRole('button', { name: 'Download rows' })).toBeEnabled();
});
