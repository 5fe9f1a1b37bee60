import { expect, test, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { encodeShare } from '../src/core/session/shareCodec';
import type { SharedSession } from '../src/core/session/schema';
import { expectSaved, runAndWait, statusLine, typeReward, upload } from './helpers';

/**
 * Issue 20, as an attacker would: reward code that came from a share link or a session file never runs until the
 * user presses Run, whatever happens after (another import, `?data=`, a reload, another session and back).
 *
 * The attacker's reward returns 0.123456 on every row: had it run, the page would show "mean 0.1235".
 * "Nothing ran" is checked by order, not by waiting: every automatic run the studio holds back leaves a User Timing
 * mark `reward-run:held` at the moment it would have started, and every run that starts leaves `reward-run:start`.
 * A test waits until the studio reached that moment (a held mark appears, or a run starts) and then asserts that no
 * run started.
 */

const ATTACK_TS = 'export default function reward(t) {\n  return 0.123456; // attacker\n}\n';
const ATTACK_PY = 'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 0.654321  # attacker\n';
const editorText = (page: Page) => page.locator('.monaco-editor .view-lines');
const notice = (page: Page) => page.getByRole('note', { name: 'Code from elsewhere' });
const runHistory = (page: Page) => page.getByRole('combobox', { name: 'Run history' });

/** A share link whose code is the attacker's (on the demo data unless told), built as the studio builds links. */
function attackLink(code = ATTACK_TS, language: 'ts' | 'py' = 'ts', data: SharedSession['data'] = { kind: 'demo' }): string {
  const shared: SharedSession = {
    v: 2,
    name: 'Shared: better reward',
    editor: { language, code, tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
    ui: { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
    data,
    run: null,
  };
  return `/#s=${encodeShare(shared)}`;
}

const marks = (page: Page) =>
  page.evaluate(() => ({
    held: performance.getEntriesByName('reward-run:held').length,
    started: performance.getEntriesByName('reward-run:start').length,
  }));

/**
 * The studio has reached the point where it would have run the code on its own `held` times since this page loaded,
 * and no run started: fails at once if a run starts first.
 */
async function expectHeld(page: Page, held: number, started = 0): Promise<void> {
  await expect
    .poll(async () => {
      const m = await marks(page);
      return m.held >= held || m.started > started ? m : null;
    })
    .toEqual({ held, started });
}

/** Nothing from the attacker's code is on the page: no score, no run in the list, the notice still up. */
async function expectNotRun(page: Page): Promise<void> {
  await expect(notice(page)).toContainText('has not run');
  await expect(page.getByTestId('run-summary')).toHaveCount(0);
  await expect(runHistory(page)).toHaveCount(0);
  await expect(page.getByRole('tabpanel')).toContainText('Run a reward to see its distribution');
}

/** Open the attacker's link in this (fresh) page: the demo loads, the code is in the editor, nothing runs. */
async function openAttackLink(page: Page): Promise<void> {
  await page.goto(attackLink());
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(page)).toContainText('attacker');
  // The link is dropped from the address once its session is saved: opening it is over.
  await expect(page).not.toHaveURL(/#s=/);
  expect(await marks(page)).toEqual({ held: 0, started: 0 });
  await expectNotRun(page);
}

/** Press Run: now the code runs (the defence holds code back; it does not lose it). */
async function runsWhenAsked(page: Page): Promise<void> {
  await runAndWait(page, 'mean 0.1235 · 800 scored');
  await expect(notice(page)).toHaveCount(0);
}

const OTHER_ROWS = ['{"prompt":"q1","completion":"A: 1"}', '{"prompt":"q1","completion":"A: 2"}', '{"prompt":"q2","completion":"A: 3"}'].join('\n');

test('a link, then ?data= on the same origin: the link code does not run until Run', async ({ page }) => {
  await openAttackLink(page);
  await page.goto('/?data=/demo/gsm8k-rollouts.jsonl');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(page)).toContainText('attacker');
  await expectHeld(page, 1);
  await expectNotRun(page);
  await runAndWait(page, 'mean 0.1235 · 800 scored');
});

test('?data= and a link in one address: the link opens, nothing runs, a reload runs nothing either', async ({ page }) => {
  await page.goto(`/?data=/demo/gsm8k-rollouts.jsonl${attackLink().slice(1)}`);
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(page)).toContainText('attacker');
  await expect(page).not.toHaveURL(/#s=|data=/);
  expect(await marks(page)).toEqual({ held: 0, started: 0 });
  await expectNotRun(page);
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expectHeld(page, 1);
  await expectNotRun(page);
  await runsWhenAsked(page);
});

test('a link, then a reload (twice): the link code does not run until Run', async ({ page }) => {
  await openAttackLink(page);
  for (let i = 0; i < 2; i++) {
    await expectSaved(page);
    await page.reload();
    await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
    await expect(editorText(page)).toContainText('attacker');
    await expectHeld(page, 1);
    await expectNotRun(page);
  }
  await runsWhenAsked(page);
  // Run was pressed: the code is the user's now, and a reload shows that run and starts none.
  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.1235 · 800 scored');
  await expect(notice(page)).toHaveCount(0);
});

test('a link, then Upload / Paste / drop / the Format menu: each import leaves the code waiting', async ({ page }) => {
  await openAttackLink(page);
  // Upload trajectories.
  await upload(page, 'other.jsonl', Buffer.from(OTHER_ROWS));
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  await expectHeld(page, 1);
  await expectNotRun(page);
  // Paste.
  await page.getByRole('button', { name: 'Paste' }).click();
  await page.getByRole('textbox', { name: 'Pasted trajectories' }).fill('{"prompt":"a","completion":"b"}\n{"prompt":"a","completion":"c"}');
  await page.getByRole('button', { name: 'Import pasted text' }).click();
  await expect(statusLine(page)).toContainText('2 trajectories · 1 group');
  await expectHeld(page, 2);
  await expectNotRun(page);
  // Drop a file on the page.
  const dt = await page.evaluateHandle((t) => {
    const d = new DataTransfer();
    d.items.add(new File([t], 'dropped.jsonl', { type: 'application/jsonl' }));
    return d;
  }, OTHER_ROWS);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('main', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('main', 'drop', { dataTransfer: dt });
  await expect(statusLine(page)).toContainText('dropped.jsonl');
  await expectHeld(page, 3);
  await expectNotRun(page);
  // The Format menu reads the file again.
  const format = page.getByRole('combobox', { name: 'Format', exact: true });
  await expect(format).toHaveValue('trl-standard');
  await format.selectOption('trl-completions');
  await expect(format).toHaveValue('trl-completions');
  await expectHeld(page, 4);
  await expectNotRun(page);
  await format.selectOption('trl-standard');
  await expect(format).toHaveValue('trl-standard');
  await expectHeld(page, 5);
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  await expectNotRun(page);
  await runAndWait(page, 'mean 0.1235 · 3 scored');
});

test('a link that names its file: the file the recipient picks loads, and the code waits for Run', async ({ page }) => {
  const file = Buffer.from(OTHER_ROWS);
  const sha256 = createHash('sha256').update(file).digest('hex');
  await page.goto(attackLink(ATTACK_TS, 'ts', { kind: 'file', name: 'other.jsonl', rows: 3, size: file.length, sha256, import: {} }));
  const needed = page.getByRole('region', { name: 'File needed' });
  await expect(needed).toContainText('other.jsonl');
  await expect(page).not.toHaveURL(/#s=/);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), needed.getByRole('button', { name: 'Choose other.jsonl' }).click()]);
  await chooser.setFiles({ name: 'other.jsonl', mimeType: 'application/octet-stream', buffer: file });
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  await expectHeld(page, 1);
  await expectNotRun(page);
  await runAndWait(page, 'mean 0.1235 · 3 scored');
});

test('a link, then New session, then back to the link session: its code still waits for Run', async ({ page }) => {
  await openAttackLink(page);
  await page.getByRole('button', { name: 'Sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sessions' });
  await dialog.getByRole('button', { name: 'New session' }).click();
  // The new session has the default reward, which is the user's and runs at once.
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688 · 800 scored', { timeout: 30_000 });
  await expect(notice(page)).toHaveCount(0);
  expect(await marks(page)).toEqual({ held: 0, started: 1 });

  await page.getByRole('button', { name: 'Sessions' }).click();
  await dialog.getByRole('button', { name: 'Open session Shared: better reward' }).click();
  await expect(editorText(page)).toContainText('attacker');
  await expectHeld(page, 1, 1);
  await expectNotRun(page);
  // A reload on the link session, then ?data=: still waiting.
  await page.goto('/?data=/demo/gsm8k-rollouts.jsonl');
  await expectHeld(page, 1);
  await expectNotRun(page);
  await runsWhenAsked(page);
});

test('a session file with code in both languages: Run in one language does not release the other, nor does Restore code', async ({ page, browser }) => {
  test.slow(); // two browsers, four imports and two runs, on a shared two-core machine
  // The sender writes TypeScript and Python rewards and exports the session.
  await page.goto('/');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await typeReward(page, ATTACK_TS);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(page, ATTACK_PY);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ts');
  await upload(page, 'other.jsonl', Buffer.from(OTHER_ROWS));
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.1235 · 3 scored'); // the sender's own code, their own run
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export session' }).click()]);
  const bytes = readFileSync(await download.path());

  // A fresh browser context (no IndexedDB, no local storage), as on the recipient's machine.
  const other = await (await browser.newContext()).newPage();
  await other.goto(new URL('/', page.url()).href);
  await expect(statusLine(other)).toContainText('800 trajectories · 200 groups', { timeout: 45_000 });
  const [chooser] = await Promise.all([other.waitForEvent('filechooser'), other.getByRole('button', { name: 'Open session file' }).click()]);
  await chooser.setFiles({ name: download.suggestedFilename(), mimeType: 'application/zip', buffer: bytes });
  await expect(statusLine(other)).toContainText('3 trajectories · 2 groups');
  await expect(notice(other)).toContainText('session file');
  // Write your own TypeScript reward and run it: that is yours. The file's Python code is not.
  await typeReward(other, 'export default function reward(t) {\n  return 0.5; // mine\n}\n');
  await runAndWait(other, 'mean 0.5000 · 3 scored');
  await expect(notice(other)).toHaveCount(0);
  // Restore code on the file's own run (#1, the sender's: their upload started a session of its own, issue 21): the
  // file's code is back, and waits for Run again.
  await runHistory(other).selectOption('1');
  await other.getByRole('button', { name: 'Restore code' }).click();
  await expect(editorText(other)).toContainText('attacker');
  await expect(notice(other)).toContainText('has not run');
  const restored = await marks(other);
  await upload(other, 'restored.jsonl', Buffer.from(OTHER_ROWS));
  await expect(statusLine(other)).toContainText('restored.jsonl');
  await expectHeld(other, restored.held + 1, restored.started);
  await expect(notice(other)).toContainText('has not run');
  await other.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await expect(editorText(other)).toContainText('attacker');
  await expect(notice(other)).toContainText('has not run');
  const before = await marks(other);
  await upload(other, 'again.jsonl', Buffer.from(OTHER_ROWS));
  await expect(statusLine(other)).toContainText('again.jsonl');
  await expectHeld(other, before.held + 1, before.started);
  await expect(notice(other)).toContainText('has not run');
  // After a reload too (the code came back from local storage and the saved session).
  await expectSaved(other);
  await other.reload();
  // The reload reopens the session from IndexedDB (its data file included) after this tab's lock is free again.
  await expect(statusLine(other)).toContainText('again.jsonl', { timeout: 45_000 });
  await expect(editorText(other)).toContainText('attacker');
  await expectHeld(other, 1); // no run on this data yet: the reload would have run the code
  await expect(notice(other)).toContainText('has not run');
  await upload(other, 'third.jsonl', Buffer.from(OTHER_ROWS));
  await expect(statusLine(other)).toContainText('third.jsonl');
  await expectHeld(other, 2);
  await expect(notice(other)).toContainText('has not run');
  await other.context().close();
});

test('a CSV with a quote that never closes: that line is listed with its line number and the rows after it load', async ({ page }) => {
  await page.goto('/');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  const csv = ['prompt,completion', 'q1,first answer', 'q1,"never closed', 'q2,after the broken line', 'q2,"a good', 'two-line answer"'].join('\n') + '\n';
  await upload(page, 'broken-quote.csv', Buffer.from(csv));
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  const list = page.getByRole('region', { name: 'Skipped lines' });
  await list.getByRole('button', { name: /^1 line could not be read/ }).click();
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.getByText('line 3', { exact: true })).toBeVisible();
  // The next quote (line 5, opening a good two-line field) cannot close it: a quote followed by "a".
  await expect(list.locator('li')).toContainText('broken quote: the quoted field opened on this line is closed on line 5 by a quote followed by "a"');
  const table = page.getByRole('table', { name: 'Rollouts table' });
  await expect(table.getByRole('row').filter({ hasText: 'after the broken line' })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: 'two-line answer' })).toHaveCount(1);
});
