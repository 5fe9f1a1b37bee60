import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import FIXTURES from '../src/core/session/fixtures/share-links.json' with { type: 'json' };
import { expectSaved, openStudio, runAndWait, shareLink, statusLine, typeReward, upload } from './helpers';

/** Sessions: autosave, the session list, share links, session files, ?data= (issue 7). */

const editorText = (page: Page) => page.locator('.monaco-editor .view-lines');
const detail = (page: Page) => page.getByRole('complementary', { name: 'Rollout detail' });
const runHistory = (page: Page) => page.getByRole('combobox', { name: 'Run history' });

/** A fresh browser context: no IndexedDB, no local storage, as on a colleague's machine. */
async function freshPage(browser: Browser): Promise<Page> {
  const ctx = await browser.newContext();
  return ctx.newPage();
}

/** Nothing has run on this page: no run summary, no run history, no reward in the detail view. */
async function expectNothingRan(page: Page): Promise<void> {
  await expect(page.getByTestId('run-summary')).toHaveCount(0);
  await expect(runHistory(page)).toHaveCount(0);
  await expect(page.getByRole('tabpanel')).toContainText('Run a reward to see its distribution');
}

test('edit code, reload: the code and the last run are back, and nothing re-ran', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  return t.index % 4; // survives reloads\n}\n');
  await runAndWait(page, 'mean 1.5000 · 800 scored');
  await expect(runHistory(page).locator('option')).toHaveCount(2);
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(page)).toContainText('survives reloads');
  await expect(page.getByTestId('run-summary')).toContainText('mean 1.5000 · 800 scored');
  // Both runs came back from IndexedDB, the latest selected; no third run was started by the reload.
  await expect(runHistory(page).locator('option')).toHaveCount(2);
  await expect(runHistory(page)).toHaveValue('2');
});

test('reload mid-run: the code and the previous run come back', async ({ page }) => {
  await openStudio(page);
  await typeReward(
    page,
    'export default function reward(t) {\n  const t0 = Date.now();\n  while (Date.now() - t0 < 15) {} // slow on purpose\n  return 1;\n}\n',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.reload();
  await expect(editorText(page)).toContainText('slow on purpose');
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688 · 800 scored'); // the default reward's run
  await expect(runHistory(page).locator('option')).toHaveCount(1);
});

test('the session list: start a new session, switch back, delete one', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  return 0.25; // first session\n}\n');
  await runAndWait(page, 'mean 0.2500 · 800 scored');
  await page.getByRole('button', { name: 'Sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sessions' });
  await dialog.getByRole('textbox', { name: 'Session name' }).fill('quarter');
  await dialog.getByRole('button', { name: 'New session' }).click();
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688 · 800 scored'); // the default reward on the demo
  await expect(editorText(page)).not.toContainText('first session');

  await page.getByRole('button', { name: 'Sessions' }).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(2);
  await dialog.getByRole('button', { name: 'Open session quarter' }).click();
  await expect(editorText(page)).toContainText('first session');
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.2500 · 800 scored');
  await expect(page.getByLabel('Session name', { exact: true }).first()).toContainText('quarter');

  await page.getByRole('button', { name: 'Sessions' }).click();
  page.once('dialog', (d) => void d.accept());
  await dialog.getByRole('button', { name: 'Delete session GSM8K demo' }).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(1);
  await expect(dialog.getByRole('listitem')).toContainText('quarter');
});

test('Share → a fresh browser opens the same code, settings and rollout, and nothing runs until Run', async ({ page, browser }) => {
  await openStudio(page);
  await typeReward(
    page,
    "export default function reward(t, ctx) {\n  // shared reward ✓\n  return ctx.numberAfter(t.completion, 'A:') === t.groundTruth ? 1 : 0.5;\n}\n",
  );
  await runAndWait(page, 'mean 0.6844 · 800 scored');
  await page.getByRole('tab', { name: 'Advantage collapse' }).click();
  await page.getByRole('combobox', { name: 'Advantage estimator' }).selectOption('rloo');
  await page.getByRole('row').filter({ hasText: 'Janet eats 3 duck eggs for breakfast and bakes 4' }).click();
  await expect(detail(page).getByRole('heading')).toContainText('Rollout 3');
  const link = await shareLink(page);
  expect(link.length).toBeLessThan(2000); // the demo data is named, not carried

  const other = await freshPage(browser);
  await other.goto(link);
  await expect(statusLine(other)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(other)).toContainText('shared reward ✓');
  const notice = other.getByRole('note', { name: 'Code from elsewhere' });
  await expect(notice).toContainText('has not run');
  await expect(notice.getByTestId('shared-run')).toContainText("The sender's run #2: mean 0.6844 over 800 rollouts (800 scored)");
  await expect(other.getByRole('tab', { name: 'Advantage collapse' })).toHaveAttribute('aria-selected', 'true');
  await expect(detail(other).getByRole('heading')).toContainText('Rollout 3');
  // The address no longer holds the link: a reload reopens the saved session.
  await expect(other).not.toHaveURL(/#s=/); // once the link's session is saved
  await other.waitForTimeout(1500);
  await expectNothingRan(other);

  await runAndWait(other, 'mean 0.6844 · 800 scored');
  await expect(notice).toHaveCount(0);
  await expect(other.getByRole('combobox', { name: 'Advantage estimator' })).toHaveValue('rloo');
  await other.context().close();
});

test('a link with one character changed, or from a newer studio, is refused and the own session is untouched', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  return 2; // my own work\n}\n');
  await runAndWait(page, 'mean 2.0000 · 800 scored');
  const link = await shareLink(page);
  const at = link.indexOf('#s=') + 20;
  const tampered = link.slice(0, at) + (link[at] === 'A' ? 'B' : 'A') + link.slice(at + 1);

  await page.goto(tampered);
  await expect(page.getByRole('alert', { name: 'Session message' })).toContainText('This share link cannot be opened: the link is damaged');
  await expect(editorText(page)).toContainText('my own work');
  await expect(page.getByTestId('run-summary')).toContainText('mean 2.0000 · 800 scored');
  await expect(page.getByRole('note', { name: 'Code from elsewhere' })).toHaveCount(0);

  await page.goto(`/#s=${FIXTURES.v3_newer}`);
  await expect(page.getByRole('alert', { name: 'Session message' })).toContainText('made by a newer version of Reward Studio');
  await expect(editorText(page)).toContainText('my own work');
});

test('a link made by the older schema v1 (fixture) opens, migrated', async ({ page }) => {
  await page.goto(`/#s=${FIXTURES.v1_demo}`);
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(page)).toContainText('v1 link: a length-penalised answer check');
  await expect(page.getByRole('status', { name: 'Session message' })).toContainText('made by an older version of the studio (link v1)');
  await expect(page.getByRole('tab', { name: 'Advantage collapse' })).toHaveAttribute('aria-selected', 'true');
  await expect(detail(page).getByRole('heading')).toContainText('Rollout 5');
  await expect(page.getByRole('spinbutton', { name: /time limit/i })).toHaveValue('2000');
  await expectNothingRan(page);
  // −0.0005 per character on top of the answer check: hand-checkable on the demo only through the mean, so check the run happens.
  await runAndWait(page, /800 scored/);
  await expect(page.getByRole('combobox', { name: 'Advantage estimator' })).toHaveValue('verl');
});

test('a small dataset travels inside the link', async ({ page, browser }) => {
  await page.goto(`/#s=${FIXTURES.v2_inline}`);
  await expect(statusLine(page)).toContainText('3 trajectories');
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('py');
  await expect(editorText(page)).toContainText('def compute_score');
  await expectNothingRan(page);
  // The data that came inside the link is saved with the session.
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('3 trajectories');
  await expect(page.getByRole('note', { name: 'Code from elsewhere' })).toBeVisible();

  // And a dataset uploaded here, shared again, arrives byte for byte in a fresh browser.
  const rows = Array.from({ length: 6 }, (_, i) => JSON.stringify({ prompt: `q${i >> 1}`, completion: `A: ${i}`, ground_truth: String(i) })).join('\n');
  await upload(page, 'six.jsonl', Buffer.from(rows));
  await expect(statusLine(page)).toContainText('6 trajectories · 3 groups');
  const link = await shareLink(page);
  const other = await freshPage(browser);
  await other.goto(link);
  await expect(statusLine(other)).toContainText('6 trajectories · 3 groups');
  await expectNothingRan(other);
  await other.context().close();
});

/** ~900 kB of JSONL with random text: too big to go inside a link. */
function bigFile(seed: number): Buffer {
  let x = seed;
  const rnd = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff), x);
  const lines: string[] = [];
  for (let i = 0; i < 1500; i++) {
    const words = Array.from({ length: 80 }, () => rnd().toString(36)).join(' ');
    lines.push(JSON.stringify({ prompt: `question ${i >> 2}`, completion: `${words} A: ${i % 7}`, ground_truth: '3' }));
  }
  return Buffer.from(lines.join('\n'));
}

test('a large dataset: the link names the file, the recipient must drop it, and another file is rejected', async ({ page, browser }) => {
  await openStudio(page);
  const file = bigFile(7);
  await upload(page, 'big.jsonl', file);
  await expect(statusLine(page)).toContainText('1,500 trajectories · 375 groups');
  await expect(page.getByTestId('run-summary')).toContainText('1,500 scored');
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByTestId('share-data-note')).toContainText('the recipient will be asked for big.jsonl');
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  await page.getByRole('button', { name: 'Close', exact: true }).click();

  const other = await freshPage(browser);
  await other.goto(link);
  const needed = other.getByRole('region', { name: 'File needed' });
  await expect(needed).toContainText('big.jsonl');
  await expect(needed).toContainText('1,500 rollouts');
  const choose = async (name: string, buffer: Buffer) => {
    const [chooser] = await Promise.all([other.waitForEvent('filechooser'), needed.getByRole('button', { name: 'Choose big.jsonl' }).click()]);
    await chooser.setFiles({ name, mimeType: 'application/octet-stream', buffer });
  };
  await choose('big.jsonl', bigFile(8));
  await expect(other.getByRole('alert', { name: 'Session message' })).toContainText('is not the file this link was made with');
  await expect(needed).toBeVisible();
  await expect(statusLine(other)).toHaveCount(0);

  await choose('big.jsonl', file);
  await expect(statusLine(other)).toContainText('1,500 trajectories · 375 groups');
  await expect(needed).toHaveCount(0);
  await expect(other.getByRole('status', { name: 'Session message' })).toContainText('matches the link');
  await expectNothingRan(other);
  await other.context().close();
});

test('a session file carries code, runs and data into a fresh browser; its code waits for Run', async ({ page, browser }) => {
  await openStudio(page);
  const rows = Array.from({ length: 8 }, (_, i) => JSON.stringify({ prompt: `q${i >> 2}`, completion: `A: ${i}`, ground_truth: String(i % 3) })).join('\n');
  await upload(page, 'eight.jsonl', Buffer.from(rows));
  await expect(page.getByTestId('run-summary')).toContainText('8 scored');
  await typeReward(page, 'export default function reward(t) {\n  return t.index / 8; // from the file\n}\n');
  await runAndWait(page, 'mean 0.4375 · 8 scored');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export session' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.reward-session\.zip$/);
  const bytes = readFileSync(await download.path());

  const other = await freshPage(browser);
  await other.goto('/');
  await expect(statusLine(other)).toContainText('800 trajectories');
  const [chooser] = await Promise.all([other.waitForEvent('filechooser'), other.getByRole('button', { name: 'Open session file' }).click()]);
  await chooser.setFiles({ name: download.suggestedFilename(), mimeType: 'application/zip', buffer: bytes });
  await expect(statusLine(other)).toContainText('8 trajectories · 2 groups');
  await expect(editorText(other)).toContainText('from the file');
  await expect(other.getByRole('note', { name: 'Code from elsewhere' })).toContainText('session file');
  await expect(other.getByTestId('run-summary')).toContainText('mean 0.4375 · 8 scored');
  await expect(runHistory(other).locator('option')).toHaveCount(2);

  // A file that is not a session gets a clear message; the session stays.
  const [again] = await Promise.all([other.waitForEvent('filechooser'), other.getByRole('button', { name: 'Open session file' }).click()]);
  await again.setFiles({ name: 'x.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(other.getByRole('alert', { name: 'Session message' })).toContainText('not a Reward Studio session file');
  await expect(statusLine(other)).toContainText('8 trajectories');
  await other.context().close();
});

test('?data=<url> loads rollouts from the same origin; another origin gets a clear message', async ({ page }) => {
  await page.goto('/?data=/demo/gsm8k-rollouts.jsonl');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(page.getByTestId('run-summary')).toContainText('800 scored');
  await expect(page).not.toHaveURL(/data=/); // dropped once the session is saved, a moment after the run shows

  let left = 0;
  await page.route('http://elsewhere.test/**', (route) => {
    left++;
    return route.fulfill({ status: 200, body: '{"prompt":"p","completion":"c"}' });
  });
  await page.goto('/?data=http://elsewhere.test/rollouts.jsonl');
  await expect(page.getByRole('alert', { name: 'Session message' })).toContainText('may connect only to its own origin');
  await expect(statusLine(page)).toContainText('800 trajectories');
  expect(left).toBe(0);
});
