import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { expectSaved, openStudio, runAndWait, shareLink, statusLine, typeReward, upload } from './helpers';

// Group a: lengths 100, 350, 420, rewards 1, 0, 1; group b: 300, 380, rewards 0.5, 0.5, both cut at the length limit.
const ROWS = [
  { group: 'a', n: 100, r: 1 },
  { group: 'a', n: 350, r: 0 },
  { group: 'a', n: 420, r: 1 },
  { group: 'b', n: 300, r: 0.5, finish_reason: 'length' },
  { group: 'b', n: 380, r: 0.5, finish_reason: 'length' },
];
const DATA = ROWS.map(({ n, ...rest }) => JSON.stringify({ prompt: `q ${rest.group}`, completion: 'x'.repeat(n), ...rest })).join('\n') + '\n';
const REWARD = 'export default function reward(t) {\n  return Number(t.fields.r ?? 0);\n}\n';

/** The raw | shaped cells of one row of the comparison table. */
function cells(page: Page, row: string) {
  const r = page
    .getByRole('table', { name: 'Raw and shaped' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: row, exact: true }) });
  return { raw: r.getByRole('cell').nth(0), shaped: r.getByRole('cell').nth(1) };
}

async function shapeTheFile(page: Page) {
  await openStudio(page);
  await typeReward(page, REWARD);
  await runAndWait(page, '800 scored');
  await upload(page, 'lengths.jsonl', Buffer.from(DATA));
  await expect(page.getByTestId('run-summary')).toContainText('5 scored');
  await page.getByRole('tab', { name: 'Shaping' }).click();
  // The example: dapo-overlong (L 400, C 100, characters), then kimi-length in characters.
  await page.getByRole('combobox', { name: 'Transform to add' }).selectOption('dapo-overlong');
  await page.getByRole('button', { name: 'Add transform' }).click();
  await page.getByRole('textbox', { name: '1. dapo-overlong max' }).fill('400');
  await page.getByRole('textbox', { name: '1. dapo-overlong cache' }).fill('100');
  await page.getByRole('combobox', { name: '1. dapo-overlong unit' }).selectOption('chars');
  await page.getByRole('combobox', { name: 'Transform to add' }).selectOption('kimi-length');
  await page.getByRole('button', { name: 'Add transform' }).click();
  await page.getByRole('combobox', { name: '2. kimi-length unit' }).selectOption('chars');
}

test('shaping tab: the issue’s dapo-overlong + kimi-length list, raw and shaped side by side', async ({ page }) => {
  await shapeTheFile(page);
  // Shaped (worked by hand in src/core/shaping/shape.test.ts): 1.5, −0.78125, −0.5, 1, −0.8; raw 1, 0, 1, 0.5, 0.5.
  await expect(cells(page, 'mean').raw).toHaveText('0.6000');
  await expect(cells(page, 'mean').shaped).toHaveText(/^0\.083[78]$/);
  await expect(cells(page, 'min / max').shaped).toHaveText('-0.800 / 1.500');
  // Group b (0.5, 0.5) has zero std raw, and both its rollouts were cut at the length limit.
  await expect(cells(page, 'zero-std groups').raw).toHaveText('50.0%');
  await expect(cells(page, 'zero-std groups').shaped).toHaveText('0.0%');
  await expect(cells(page, '· all truncated').raw).toHaveText('50.0%');
  await expect(page.getByText('Truncated rollouts: from the rows’ finish reason.')).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Shaped reward histogram' })).toBeVisible();
  // Each transform shows its formula and source.
  await expect(page.getByRole('group', { name: '1. dapo-overlong' })).toContainText('Source: DAPO (Yu et al. 2025)');
  await expect(page.getByRole('group', { name: '2. kimi-length' })).toContainText('λ = 0.5 − (|y| − min) / (max − min)');

  // Reordered: Kimi now reads the raw reward, DAPO comes after it.
  await page.getByRole('button', { name: 'Move 2. kimi-length up' }).click();
  await expect(page.getByRole('group', { name: '1. kimi-length' })).toBeVisible();
  // Kimi on raw: 1.5, −0.28125, 0.5, 1, 0; then DAPO: 1.5, −0.78125, −0.5, 1, −0.8 (here no row's "correct" changes).
  await expect(cells(page, 'mean').shaped).toHaveText(/^0\.083[78]$/);

  // The list as a TypeScript module, downloaded.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export shaping (TypeScript)' }).click()]);
  expect(download.suggestedFilename()).toBe('shaping.ts');
  const text = readFileSync(await download.path(), 'utf8');
  expect(text).toContain('// Shaping, exported from Reward Studio: kimi-length:unit=chars → dapo-overlong:max=400,cache=100,unit=chars');
  expect(text).toContain('export function shape(');

  // A bad value is named; the last valid list stays in use.
  await page.getByRole('textbox', { name: '2. dapo-overlong max' }).fill('abc');
  const shapingAlert = page.getByRole('region', { name: 'Diagnostics' }).getByRole('alert');
  await expect(shapingAlert).toContainText('invalid dapo-overlong max: abc');
  await expect(cells(page, 'mean').shaped).toHaveText(/^0\.083[78]$/);
  await page.getByRole('textbox', { name: '2. dapo-overlong max' }).fill('400');
  await expect(shapingAlert).toHaveCount(0);

  // The low-std floor: by default 1e-3 of the range (raw 1 − 0 → 0.001); a floor typed in is used as it is.
  await expect(cells(page, '· floor').raw).toHaveText('0.001000');
  await page.getByRole('textbox', { name: 'Low-std floor' }).fill('0.6');
  await expect(cells(page, '· floor').raw).toHaveText('0.600000');
  // Raw group a (1, 0, 1: std 0.471) is now below the floor: one group of two.
  await expect(cells(page, 'low-std groups (0 < std < floor)').raw).toHaveText('50.0%');
  await page.getByRole('textbox', { name: 'Low-std floor' }).fill('-1');
  await expect(shapingAlert).toContainText('invalid floor: -1');
  await page.getByRole('textbox', { name: 'Low-std floor' }).fill('');

  // par with a reference column the data does not have: named, no shaped figures.
  await page.getByRole('combobox', { name: 'Transform to add' }).selectOption('par');
  await page.getByRole('button', { name: 'Add transform' }).click();
  await page.getByRole('combobox', { name: '3. par ref' }).selectOption('column');
  await page.getByRole('textbox', { name: '3. par column' }).fill('ref_score');
  await expect(page.getByRole('region', { name: 'Diagnostics' }).getByRole('status')).toContainText('par: no row has a column "ref_score"');
  await page.getByRole('button', { name: 'Remove 3. par' }).click();

  // Removing both leaves the reward as it is.
  await page.getByRole('button', { name: 'Remove 1. kimi-length' }).click();
  await page.getByRole('button', { name: 'Remove 1. dapo-overlong' }).click();
  await expect(cells(page, 'mean').shaped).toHaveText('0.6000');
});

test('shaping tab: the list travels in a share link; axe finds no violations', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await shapeTheFile(page);
  await expect(cells(page, 'mean').shaped).toHaveText(/^0\.083[78]$/);
  const axe = await new AxeBuilder({ page }).include('section[aria-label="Diagnostics"]').analyze();
  expect(axe.violations.flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}`))).toEqual([]);

  const link = await shareLink(page);
  const other = await (await browser.newContext()).newPage();
  await other.goto(link);
  await expect(statusLine(other)).toContainText('5 trajectories', { timeout: 45_000 });
  await runAndWait(other, '5 scored');
  await other.getByRole('tab', { name: 'Shaping' }).click();
  await expect(other.getByRole('textbox', { name: '1. dapo-overlong max' })).toHaveValue('400');
  await expect(other.getByRole('combobox', { name: '2. kimi-length unit' })).toHaveValue('chars');
  await expect(cells(other, 'mean').shaped).toHaveText(/^0\.083[78]$/);
});

test('shaping tab: the list is saved with the session and back after a reload', async ({ page }) => {
  await shapeTheFile(page);
  await expect(cells(page, 'mean').shaped).toHaveText(/^0\.083[78]$/);
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('5 trajectories');
  await expect(page.getByRole('tab', { name: 'Shaping' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('textbox', { name: '1. dapo-overlong cache' })).toHaveValue('100');
  await expect(page.getByRole('combobox', { name: '2. kimi-length unit' })).toHaveValue('chars');
  await expect(cells(page, 'mean').shaped).toHaveText(/^0\.083[78]$/);
});

test('shaping tab: the other tabs show the shaped reward when asked, marked "shaped"', async ({ page }) => {
  await shapeTheFile(page);
  await page.getByRole('checkbox', { name: 'Show the shaped reward in the other diagnostics tabs' }).check();
  await page.getByRole('tab', { name: 'Distribution' }).click();
  const stats = page.locator('dl[aria-label="Reward statistics"]');
  // Shaped: 1.5, −0.78125, −0.5, 1, −0.8 → mean 0.08375, min −0.8, max 1.5.
  await expect(stats.locator('dt:text-is("min / max") + dd')).toHaveText('-0.8000 / 1.5000');
  await expect(page.getByTestId('run-summary')).toContainText(/mean 0\.083[78] · 5 scored/);
  await expect(page.getByRole('region', { name: 'Diagnostics' }).getByText('shaped', { exact: true })).toBeVisible();
  // Advantage collapse of the shaped reward: no group has zero std any more (raw: group b, 50%).
  await page.getByRole('tab', { name: 'Advantage collapse' }).click();
  await expect(page.locator('dl[aria-label="Advantage collapse"] dt:text-is("zero reward std (frac_reward_zero_std)") + dd')).toHaveText('0.0%');
  // Off again: the reward as it is.
  await page.getByRole('tab', { name: 'Shaping' }).click();
  await page.getByRole('checkbox', { name: 'Show the shaped reward in the other diagnostics tabs' }).uncheck();
  await page.getByRole('tab', { name: 'Advantage collapse' }).click();
  await expect(page.locator('dl[aria-label="Advantage collapse"] dt:text-is("zero reward std (frac_reward_zero_std)") + dd')).toHaveText('50.0%');
});

test('Export for TRL / verl applies the Shaping list; verl refuses a group transform, saying why', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688 · 800 scored', { timeout: 90_000 });
  await page.getByRole('tab', { name: 'Shaping' }).click();
  await page.getByRole('combobox', { name: 'Transform to add' }).selectOption('dapo-overlong');
  await page.getByRole('button', { name: 'Add transform' }).click();
  await page.getByRole('combobox', { name: '1. dapo-overlong unit' }).selectOption('chars');
  await expect(page.getByText('with the Shaping list (1)')).toBeVisible();
  const read = async (name: string) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
    return readFileSync(await dl.path(), 'utf8');
  };
  const verl = await read('Export for verl');
  expect(verl).toContain('custom_reward_function.name=compute_score_shaped\n');
  expect(verl).toContain('"name": "dapo-overlong", "max": 1024.0, "cache": 256.0, "unit": "chars"');
  const trl = await read('Export for TRL');
  expect(trl).toContain('reward_funcs=[compute_score_trl_shaped]');
  // kimi-length needs the whole group: verl's compute_score sees one rollout.
  await page.getByRole('combobox', { name: 'Transform to add' }).selectOption('kimi-length');
  await page.getByRole('button', { name: 'Add transform' }).click();
  await page.getByRole('button', { name: 'Export for verl' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Export for verl' })).toContainText(
    "kimi-length:unit=tokens needs the rollout's whole group, and verl's compute_score sees one rollout at a time",
  );
});

test('shaping tab: step rewards are saved with the run, so step-sum shapes the same after a reload', async ({ page }) => {
  await openStudio(page);
  await upload(page, 'lengths.jsonl', Buffer.from(DATA));
  await expect(statusLine(page)).toContainText('5 trajectories');
  // Two step rewards per rollout (0.5 and 0.25): step-sum adds 0.75 to every reward; the raw mean is 3/5.
  await typeReward(page, 'export default function reward(t) {\n  return { score: Number(t.fields.r ?? 0), steps: [0.5, 0.25] };\n}\n');
  await runAndWait(page, '5 scored');
  await page.getByRole('tab', { name: 'Shaping' }).click();
  await page.getByRole('combobox', { name: 'Transform to add' }).selectOption('step-sum');
  await page.getByRole('button', { name: 'Add transform' }).click();
  await expect(cells(page, 'mean').raw).toHaveText(/^0\.6(0*)$/);
  await expect(cells(page, 'mean').shaped).toHaveText(/^1\.35(0*)$/);
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('5 trajectories');
  await expect(page.getByRole('tab', { name: 'Shaping' })).toHaveAttribute('aria-selected', 'true');
  await expect(cells(page, 'mean').shaped).toHaveText(/^1\.35(0*)$/);
});
