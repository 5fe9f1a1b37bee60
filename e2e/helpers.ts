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

/**
 * Replace the reward code in Monaco as a person pasting it would: put it on the clipboard, click into the editor,
 * select all, Ctrl+V. (Typing character by character would let Monaco's auto-closing brackets add braces.)
 */
export async function typeReward(page: Page, code: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((text) => navigator.clipboard.writeText(text), code);
  const editor = page.locator('.monaco-editor').first();
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
  // Saved as typed: TypeScript and Python code are kept under their own keys.
  await expect.poll(() => page.evaluate(() => [localStorage.getItem('reward-studio:code'), localStorage.getItem('reward-studio:code-py')])).toContain(code);
}

/** Press Run and wait until the run over the whole dataset has landed. */
export async function runAndWait(page: Page, expectSummary: RegExp | string): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText(expectSummary, { timeout: 30_000 });
}

/** Press Share and read the link from its dialog, as a person copying it would. */
export async function shareLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Share' }).click();
  const box = page.getByRole('textbox', { name: 'Share link' });
  await expect(box).toHaveValue(/#s=/);
  const link = await box.inputValue();
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  return link;
}

/** Wait until the header says everything is saved, as a person would before reloading. */
export async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByRole('status', { name: 'Save status' })).toHaveText('Saved', { timeout: 15_000 });
}
