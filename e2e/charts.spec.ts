import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { encodeShare } from '../src/core/session/shareCodec';
import type { SharedSession } from '../src/core/session/schema';
import { expectSaved, openStudio, runAndWait, shareLink, statusLine, typeReward, upload } from './helpers';

/**
 * Issue 21, items 1, 14 and 19: the Distribution histogram with other runs drawn on shared bins, compact counts on the
 * count axes, and runs with names and notes. Every expected number below is worked out by hand in the comment above it.
 */

const M = '\u2212'; // the minus sign the charts write
const reward = (body: string) => `export default function reward(t) {\n  return ${body};\n}\n`;
const histogram = (page: Page) => page.getByRole('figure', { name: 'Reward histogram' });
const bins = (page: Page) => histogram(page).getByRole('button');
const binNames = (page: Page) => bins(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
const shown = (page: Page) => page.getByTestId('shown-count');
const firstRows = (page: Page) => page.locator('.rt-data').evaluateAll((els) => els.slice(0, 3).map((e) => e.getAttribute('data-row')));

/** No two bars overlap, and no bar is wider than its bin (the bug drew bars across the whole plot, over each other). */
async function expectBarsApart(page: Page, binCount: number) {
  const boxes = await histogram(page)
    .locator('.hist-bar')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x0: r.left, x1: r.right })));
  const plot = await histogram(page)
    .locator('svg')
    .evaluate((e) => e.getBoundingClientRect().width);
  for (const b of boxes) expect(b.x1 - b.x0).toBeLessThan(plot / binCount);
  const sorted = [...boxes].sort((a, b) => a.x0 - b.x0);
  for (let i = 1; i < sorted.length; i++) expect(sorted[i].x0).toBeGreaterThanOrEqual(sorted[i - 1].x1 - 0.01);
}

test('distribution: two runs with different reward ranges share bins; each bar is labelled; a bar opens that bin of the current run', async ({ page }) => {
  await openStudio(page);
  // Run #2: index % 5 − 2 → −2, −1, 0, 1, 2, 160 rows each (mean 0). Run #3: (index % 4) / 4 → 0, 0.25, 0.5, 0.75,
  // 200 rows each (mean 0.375). Together 8 distinct values: one bar group per value, run #2 drawn beside run #3.
  await typeReward(page, reward('(t.index % 5) - 2'));
  await runAndWait(page, 'mean 0.0000 · 800 scored');
  await typeReward(page, reward('(t.index % 4) / 4'));
  await runAndWait(page, 'mean 0.3750 · 800 scored');
  await expect(histogram(page)).toHaveAttribute('data-bins', '8');
  await expect(histogram(page)).toHaveAttribute('data-runs', '2');
  const cur = 'run #3 (current)';
  const prev = 'run #2 (previous)';
  expect(await binNames(page)).toEqual([
    `reward ${M}2, ${cur}: 0, ${prev}: 160`,
    `reward ${M}1, ${cur}: 0, ${prev}: 160`,
    `reward 0, ${cur}: 200, ${prev}: 160`,
    `reward 0.25, ${cur}: 200, ${prev}: 0`,
    `reward 0.5, ${cur}: 200, ${prev}: 0`,
    `reward 0.75, ${cur}: 200, ${prev}: 0`,
    `reward 1, ${cur}: 0, ${prev}: 160`,
    `reward 2, ${cur}: 0, ${prev}: 160`,
  ]);
  await expect(histogram(page).locator('.hist-x')).toHaveText([`${M}2`, `${M}1`, '0', '0.25', '0.5', '0.75', '1', '2']);
  await expect(histogram(page).getByRole('list', { name: 'Runs shown' }).getByRole('listitem')).toHaveText([cur, prev]);
  // Nine bars (4 of run #3, 5 of run #2), none over another.
  await expect(histogram(page).locator('.hist-bar')).toHaveCount(9);
  await expectBarsApart(page, 8);

  // A bin only the previous run has opens none of the current run's rollouts.
  await bins(page).nth(1).click();
  await expect(page.getByText(`reward ${M}1 · run #3`)).toBeVisible();
  await expect(shown(page)).toHaveText('0 shown');
  // Bin 0 holds run #3's rows 0, 4, 8, … (index % 4 = 0): 200 of them.
  await bins(page).nth(2).click();
  await expect(shown(page)).toHaveText('200 shown');
  expect(await firstRows(page)).toEqual(['0', '4', '8']);
  // From the keyboard: the focused bin, → to the next one (0.25: rows 1, 5, 9), Enter opens it.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.getByText('reward 0.25 · run #3')).toBeVisible();
  await expect(shown(page)).toHaveText('200 shown');
  expect(await firstRows(page)).toEqual(['1', '5', '9']);
});

test('distribution: overlay of three other runs picked by the user, each with its colour and legend entry; ranges read "a to b"', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openStudio(page);
  // Run #1 (demo): 0/1. Run #2: (index % 4) / 4. Run #3: index % 5 − 2. Run #4: −0.5 on even rows, 0.5 on odd ones.
  await typeReward(page, reward('(t.index % 4) / 4'));
  await runAndWait(page, 'mean 0.3750 · 800 scored');
  await typeReward(page, reward('(t.index % 5) - 2'));
  await runAndWait(page, 'mean 0.0000 · 800 scored');
  await typeReward(page, reward('t.index % 2 ? 0.5 : -0.5'));
  await runAndWait(page, 'mean 0.0000 · 800 scored');
  // By default the previous run is drawn; the user adds runs #2 and #1.
  const picker = page.getByRole('group', { name: 'Draw with run #4' });
  await expect(picker.getByRole('checkbox')).toHaveCount(3);
  await expect(picker.getByRole('checkbox', { name: /^#3 ·/ })).toBeChecked();
  await picker.getByRole('checkbox', { name: /^#2 ·/ }).check();
  await picker.getByRole('checkbox', { name: /^#1 ·/ }).check();
  await expect(picker).toContainText('4 runs at most');
  await expect(histogram(page)).toHaveAttribute('data-runs', '4');
  const legend = histogram(page).getByRole('list', { name: 'Runs shown' }).getByRole('listitem');
  await expect(legend).toHaveText(['run #4 (current)', 'run #3', 'run #2', 'run #1']);
  const colours = await legend.locator('.swatch').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
  expect(new Set(colours).size).toBe(4);
  // Values over the four runs: −2, −1, −0.5, 0, 0.25, 0.5, 0.75, 1, 2 → 9 bins. In bin 0.5: run #4 400 (odd rows),
  // run #3 0, run #2 200 (index % 4 = 2), run #1 0.
  await expect(histogram(page)).toHaveAttribute('data-bins', '9');
  await expect(bins(page).nth(5)).toHaveAccessibleName('reward 0.5, run #4 (current): 400, run #3: 0, run #2: 200, run #1: 0');
  await expectBarsApart(page, 9);
  // Clicking the bin (over run #2's bar as much as run #4's) opens run #4's rollouts in it: rows 1, 3, 5, …
  await bins(page).nth(5).click();
  await expect(shown(page)).toHaveText('400 shown');
  expect(await firstRows(page)).toEqual(['1', '3', '5']);

  // Alone, a continuous reward: index / 100 − 4 (−4 … 3.99, 800 values). Freedman–Diaconis: q25 = −2.0025,
  // q75 = 1.9925, IQR 3.995, width 2·3.995·800^(−1/3) = 0.861 → ⌈7.99 / 0.861⌉ = 10 bins of 0.799; the first,
  // −4 to −3.201, holds rows 0…79.
  for (const name of [/^#3 ·/, /^#2 ·/, /^#1 ·/]) await picker.getByRole('checkbox', { name }).uncheck();
  await typeReward(page, reward('t.index / 100 - 4'));
  await runAndWait(page, 'mean -0.0050 · 800 scored');
  await expect(histogram(page)).toHaveAttribute('data-runs', '1');
  await expect(histogram(page)).toHaveAttribute('data-bins', '10');
  await expect(bins(page).first()).toHaveAccessibleName(`reward ${M}4 to ${M}3.2, 80 rollouts`);
  await expect(histogram(page).locator('.hist-x').first()).toHaveText(`${M}4`);
  await bins(page).first().click();
  await expect(page.getByText(`reward ${M}4 to ${M}3.2 · run #5`)).toBeVisible();
  await expect(shown(page)).toHaveText('80 shown');
});

test('count axes write large counts compactly and stay inside the chart (100,000 rows)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openStudio(page);
  // Rows 0 … 99,999 in 25,000 groups of four (prompt k % 25,000): the reward is the row's parity, 50,000 each.
  // Count ticks: 50,000 / 4 = 12,500 → step 20,000 → 0, 20k, 40k, 60k.
  await typeReward(page, reward('t.index % 2'));
  const line = (k: number) => JSON.stringify({ prompt: `question ${k % 25000}`, completion: `answer ${k}` });
  await upload(page, 'hundred-k.jsonl', Buffer.from(Array.from({ length: 100000 }, (_, k) => line(k)).join('\n')));
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.5000 · 100,000 scored', { timeout: 60_000 });
  const yTicks = histogram(page).locator('.hist-y');
  await expect(yTicks).toHaveText(['0', '20k', '40k', '60k']);
  const fig = (await histogram(page).boundingBox())!;
  for (const box of await yTicks.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left))) expect(box).toBeGreaterThanOrEqual(fig.x);
  await expect(bins(page).last()).toHaveAccessibleName('reward 1, 50,000 rollouts');
  // Advantage collapse: a group's rows k, k+25,000, … share their parity, so every advantage is 0: one bar of 100,000.
  await page.getByRole('tab', { name: 'Advantage collapse' }).click();
  const adv = page.getByRole('figure', { name: 'Advantage histogram' });
  await expect(adv).toContainText('100k');
  await expect(adv).not.toContainText('00000');
});

async function freshPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test('a run keeps its name and note through a reload, a share link and a session file', async ({ page, browser }) => {
  test.setTimeout(120_000); // three browsers' worth of studio start-ups on a shared 2-core machine
  await openStudio(page);
  const history = page.getByRole('combobox', { name: 'Run history' });
  await page.getByRole('textbox', { name: 'Run name' }).fill('exact match');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByRole('textbox', { name: 'Run note' }).fill('baseline\nbefore the format bonus');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: 'Run note' })).toHaveCount(0);
  await expect(history.locator('option')).toHaveText([/^#1 · exact match · /]);
  // Hostile text typed or pasted: a text-direction override is dropped.
  await page.getByRole('textbox', { name: 'Run name' }).fill('exact\u202E match');
  await expect(page.getByRole('textbox', { name: 'Run name' })).toHaveValue('exact match');

  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('run-summary')).toContainText('800 scored');
  await expect(page.getByRole('textbox', { name: 'Run name' })).toHaveValue('exact match');
  await expect(history.locator('option')).toHaveText([/^#1 · exact match · /]);
  await page.getByRole('button', { name: 'Note', exact: true }).click();
  await expect(page.getByRole('textbox', { name: 'Run note' })).toHaveValue('baseline\nbefore the format bonus');
  await page.keyboard.press('Escape');

  // A share link carries the selected run's name and note: the recipient sees them beside the sender's summary.
  const link = await shareLink(page);
  const other = await freshPage(browser);
  await other.goto(link);
  await expect(other.getByTestId('shared-run')).toContainText("The sender's run #1 “exact match”: mean 0.3688");
  await expect(other.getByTestId('shared-run')).toContainText('Their note: “baseline\nbefore the format bonus”');
  await other.context().close();

  // The session file carries every run's name and note.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export session' }).click()]);
  const bytes = readFileSync(await download.path());
  const third = await freshPage(browser);
  await third.goto('/');
  await expect(statusLine(third)).toContainText('800 trajectories');
  const [chooser] = await Promise.all([third.waitForEvent('filechooser'), third.getByRole('button', { name: 'Open session file' }).click()]);
  await chooser.setFiles({ name: download.suggestedFilename(), mimeType: 'application/zip', buffer: bytes });
  await expect(third.getByRole('note', { name: 'Code from elsewhere' })).toContainText('session file');
  await expect(third.getByRole('textbox', { name: 'Run name' })).toHaveValue('exact match');
  await third.getByRole('button', { name: 'Note', exact: true }).click();
  await expect(third.getByRole('textbox', { name: 'Run note' })).toHaveValue('baseline\nbefore the format bonus');
  await third.context().close();
});

test('a link whose run note is too long or whose run name hides text is refused with the place named', async ({ page }) => {
  const shared = (run: Partial<NonNullable<SharedSession['run']>>): SharedSession => ({
    v: 2,
    name: 'Shared',
    editor: { language: 'ts', code: reward('1'), tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
    ui: { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
    data: { kind: 'demo' },
    run: {
      id: 1,
      code: reward('1'),
      language: 'ts',
      startedAt: 1,
      elapsedMs: 1,
      cancelled: false,
      summary: { rows: 800, ok: 800, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: 1 },
      ...run,
    },
  });
  await openStudio(page);
  await page.goto(`/#s=${encodeShare(shared({ note: 'x'.repeat(5000) }))}`);
  await expect(page.getByRole('alert', { name: 'Session message' })).toContainText('run.note: expected at most 2000 characters');
  await page.goto(`/#s=${encodeShare(shared({ name: 'safe\u202Eexe.txt' }))}`);
  await expect(page.getByRole('alert', { name: 'Session message' })).toContainText('run.name: holds control or text-direction characters');
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688 · 800 scored');
});
