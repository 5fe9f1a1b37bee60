import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

/** axe-core's violations of every impact, one line each ("serious color-contrast: .dimmed-line-number"). */
async function violations(page: Page, within?: string): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  if (within) axe.include(within);
  const { violations } = await axe.analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}`));
}

const LONGER_THAN_250 = 'export default function reward(t) {\n  return t.completion.length > 250 ? 1 : 0;\n}\n';
const TABS = ['Distribution', 'Length', 'Advantage collapse', 'Label check', 'Compare runs', 'Best-of-N'];

test('axe finds no violations on the page and on any diagnostics tab', async ({ page }) => {
  test.setTimeout(300_000);
  await openStudio(page);
  // A second run, so that Compare runs has two runs to compare.
  await typeReward(page, LONGER_THAN_250);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  expect(await violations(page)).toEqual([]);
  for (const name of TABS) {
    await page.getByRole('tab', { name }).click();
    await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
    expect(await violations(page, 'section[aria-label="Diagnostics"]'), name).toEqual([]);
  }
  // With a rollout open.
  await page.getByRole('row').filter({ hasText: 'Janet eats 3 duck eggs' }).click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toBeVisible();
  expect(await violations(page, 'main')).toEqual([]);
});

test('axe finds no violations on the Preference tab', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudio(page);
  await upload(page, 'pairs.jsonl', readFileSync('e2e/fixtures/preference-pairs.jsonl'));
  await expect(statusLine(page)).toContainText('14 trajectories · 7 groups');
  await page.getByRole('tab', { name: 'Preference' }).click();
  await expect(page.getByTestId('preference-accuracy')).toBeVisible();
  expect(await violations(page, 'section[aria-label="Diagnostics"]')).toEqual([]);
});

test('axe finds no violations in any dialog', async ({ page }) => {
  test.setTimeout(240_000);
  await openStudio(page);
  for (const button of ['Sessions', 'Share', 'Paste']) {
    await page.getByRole('button', { name: button, exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await violations(page, '[role="dialog"]'), button).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  }
  await page.getByRole('combobox', { name: 'Format', exact: true }).selectOption({ label: 'Custom column mapping' });
  await expect(page.getByRole('dialog', { name: 'Map columns' })).toBeVisible();
  expect(await violations(page, '[role="dialog"]'), 'Map columns').toEqual([]);
});

test('keyboard: Tab reaches the table, arrows move, Enter opens the focused rollout', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('button', { name: 'Sort by length' }).focus();
  await page.keyboard.press('Tab');
  const rows = page.getByRole('table', { name: 'Rollouts table' }).getByRole('row');
  // After the header's last sort button, the first data row is the one in the Tab order.
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(4)).toBeFocused();
  await page.keyboard.press('Enter');
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail.getByRole('heading')).toContainText('Rollout 3');
  await page.keyboard.press('End');
  await expect(page.locator('[data-row="799"]')).toBeFocused();
  // Home then Enter in one task, as a fast typist on a busy page: Enter reaches row 799, which still has the focus,
  // before row 0 has rendered. It must open the row Home moved to.
  await page.evaluate(() => {
    const el = document.activeElement!;
    for (const key of ['Home', 'Enter']) el.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });
  await expect(detail.getByRole('heading')).toContainText('Rollout 0');
  await expect(page.locator('[data-row="0"]')).toBeFocused();
});

test('keyboard: Escape then Tab leaves the editor; Ctrl+M toggles Tab moving the focus', async ({ page }) => {
  await openStudio(page);
  const editor = page.locator('.monaco-editor').first();
  const inEditor = () => page.evaluate(() => !!document.activeElement?.closest('.monaco-editor'));
  const code = () => page.evaluate(() => localStorage.getItem('reward-studio:code'));
  const before = 'export default function reward(t) {\n  return t.completion.length;\n}\n';
  await typeReward(page, before);
  await editor.click();
  // Tab alone indents, as in any code editor: the focus stays.
  await page.keyboard.press('Tab');
  await expect.poll(code).not.toBe(before);
  expect(await inEditor()).toBe(true);
  await page.keyboard.press('ControlOrMeta+Z');
  await expect.poll(code).toBe(before);
  // Escape, then Tab: the focus moves on and the code is untouched.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect.poll(inEditor).toBe(false);
  expect(await code()).toBe(before);
  // Back in the editor, Tab indents again.
  await editor.click();
  await page.keyboard.press('Tab');
  await expect.poll(code).not.toBe(before);
  expect(await inEditor()).toBe(true);
  await page.keyboard.press('ControlOrMeta+Z');
  await expect.poll(code).toBe(before);
  // Ctrl+M: Tab moves the focus until Ctrl+M again.
  await page.keyboard.press('Control+M');
  await page.keyboard.press('Tab');
  await expect.poll(inEditor).toBe(false);
  await editor.click();
  await page.keyboard.press('Tab');
  await expect.poll(inEditor).toBe(false);
  await editor.click();
  await page.keyboard.press('Control+M');
  await page.keyboard.press('Tab');
  await expect.poll(code).not.toBe(before);
  expect(await inEditor()).toBe(true);
});

test('keyboard: histogram bars have names and Enter chooses one', async ({ page }) => {
  await openStudio(page);
  const bar = page.getByRole('button', { name: /^reward 1, \d+ rollouts$/ });
  // The demo's reward is 1 on 295 of the 800 rollouts (viewer.spec: clicking the bar shows 295).
  await expect(bar).toHaveAccessibleName('reward 1, 295 rollouts');
  await expect(page.getByRole('button', { name: 'reward 0, 505 rollouts' })).toBeVisible();
  await bar.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('shown-count')).toHaveText('295 shown');
  await page.getByRole('button', { name: 'reward 0, 505 rollouts' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('shown-count')).toHaveText('505 shown');
});

test('axe finds no violations on the Stress test tab, with results and a probe’s fooled rollouts open', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudio(page);
  await typeReward(page, LONGER_THAN_250);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  await page.getByRole('tab', { name: 'Stress test' }).click();
  expect(await violations(page, 'section[aria-label="Diagnostics"]')).toEqual([]);
  await page.getByLabel('Rollouts to probe').fill('200');
  await page.getByRole('button', { name: 'Run stress test' }).click();
  await expect(page.getByRole('status', { name: 'Stress test verdict' })).toContainText('fooled by', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Rollouts fooled by repeat-2' }).click();
  await expect(page.getByRole('region', { name: 'Rollouts fooled by repeat-2' })).toBeVisible();
  expect(await violations(page, 'section[aria-label="Diagnostics"]')).toEqual([]);
});
