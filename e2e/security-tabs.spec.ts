import { expect, test, type Page } from '@playwright/test';
import { expectSaved, openStudio, shareLink, statusLine, typeReward } from './helpers';

/**
 * Issue 20, two tabs of the studio at once (same browser, same storage): nothing typed in either tab is lost, and a
 * save that would overwrite another tab's work is never silent (docs/sessions.md, "Several tabs").
 */

// Two studios, each opened and reloaded: slow on a busy 2-core machine (no assertion here is about time).
test.describe.configure({ timeout: 180_000 });

const editorText = (page: Page) => page.locator('.monaco-editor .view-lines');
const sessionMessage = (page: Page) => page.getByRole('status', { name: 'Session message' });
const code = (tag: string) => `export default function reward(t) {\n  return 1; // ${tag}\n}\n`;

/** Type into this tab's editor (the clipboard needs the tab in front). */
async function typeIn(page: Page, text: string): Promise<void> {
  await page.bringToFront();
  await typeReward(page, text);
}

async function reloadAndExpectCode(page: Page, tag: string): Promise<void> {
  await page.bringToFront();
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(editorText(page)).toContainText(tag);
}

/** The names in the Sessions list, then the list is closed again. */
async function sessionNames(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Sessions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sessions' });
  const items = dialog.getByRole('listitem');
  await expect(items.first()).toBeVisible();
  const names = await items.locator('.session-title').allTextContents();
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  return names;
}

/** The TypeScript code of every session saved in this browser's IndexedDB, read as the page sees it. */
function savedCodes(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('reward-studio');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () => {
            resolve((all.result as { editor: { code: { ts: string } } }[]).map((d) => d.editor.code.ts));
            open.result.close();
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

test('a second tab on the same session works on a copy: each tab keeps its own code through reloads', async ({ page }) => {
  await openStudio(page);
  await typeIn(page, code('typed in tab A'));

  const b = await page.context().newPage();
  await openStudio(b);
  // The session is open in tab A: tab B says so and works on a copy instead of writing over it.
  await expect(sessionMessage(b)).toContainText('is open in another tab');
  await expect(b.getByLabel('Session name', { exact: true })).toContainText('(copy)');
  await typeIn(b, code('typed in tab B'));
  await typeIn(page, code('typed in tab A, later'));

  await reloadAndExpectCode(page, 'typed in tab A, later');
  await reloadAndExpectCode(b, 'typed in tab B');
  // Both pieces of work are saved sessions; each tab sees the other's as open elsewhere.
  const names = await sessionNames(page);
  expect(names).toHaveLength(2);
  expect(names.some((n) => n.endsWith('(copy)'))).toBe(true);
  await page.getByRole('button', { name: 'Sessions' }).click();
  await expect(page.getByRole('dialog', { name: 'Sessions' }).getByRole('listitem').filter({ hasText: 'open in another tab' })).toHaveCount(1);
});

test('a share link opened beside the work in progress: both tabs keep their code after reloads', async ({ page }) => {
  await openStudio(page);
  await typeIn(page, code('work in progress'));
  const link = await shareLink(page);

  const b = await page.context().newPage();
  await b.goto(link);
  await expect(b.getByRole('note', { name: 'Code from elsewhere' })).toContainText('has not run');
  await expect(editorText(b)).toContainText('work in progress');
  await typeIn(page, code('tab A goes on'));
  await typeIn(b, code('the link, edited in tab B'));

  await reloadAndExpectCode(page, 'tab A goes on');
  await reloadAndExpectCode(b, 'the link, edited in tab B');
  expect(await sessionNames(page)).toHaveLength(2);
});

test('without Web Locks, two tabs on one session: the later save is kept as a new session, with an alert', async ({ browser }) => {
  const ctx = await browser.newContext();
  // A browser without navigator.locks: the tabs cannot hold sessions, so the save itself must notice the conflict.
  await ctx.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true }));
  const a = await ctx.newPage();
  await openStudio(a);
  const b = await ctx.newPage();
  await openStudio(b);
  await expect(b.getByLabel('Session name', { exact: true })).toHaveText(await a.getByLabel('Session name', { exact: true }).innerText());

  await typeIn(a, code('tab A saved first'));
  await expect.poll(() => savedCodes(a)).toContainEqual(expect.stringContaining('tab A saved first'));
  await typeIn(b, code('tab B, conflicting'));
  const alert = b.getByRole('alert', { name: 'Session message' });
  await expect(alert).toContainText('was changed in another tab');
  await expect(alert).toContainText('saved here as a new session');

  await reloadAndExpectCode(a, 'tab A saved first');
  await reloadAndExpectCode(b, 'tab B, conflicting');
  expect(await sessionNames(a)).toHaveLength(2);
  await ctx.close();
});
