import { expect, type Page } from '@playwright/test';

/** Open the studio and wait for the demo session: 800 GSM8K rollouts, scored. */
export async function openStudio(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('status', { name: 'Dataset status' })).toContainText('800 trajectories · 200 groups');
  await expect(page.getByTestId('run-summary')).toContainText('800 scored');
}

/** Upload a file the way a person does: click "Upload trajectories" and pick the file. */
export async function upload(page: Page, name: string, buffer: Buffer, mimeType = 'application/octet-stream'): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles({ name, mimeType, buffer });
}

export function statusLine(page: Page) {
  return page.getByRole('status', { name: 'Dataset status' });
}
