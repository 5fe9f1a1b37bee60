import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectSaved, openStudio, runAndWait, typeReward } from './helpers';

const box = async (l: Locator) => (await l.boundingBox())!;
const editor = (page: Page) => page.getByRole('region', { name: 'Reward editor' });
const diagnostics = (page: Page) => page.getByRole('region', { name: 'Diagnostics' });
const rollouts = (page: Page) => page.getByRole('region', { name: 'Rollouts' });
const editorSplitter = (page: Page) => page.getByRole('separator', { name: 'Resize reward editor' });
const diagSplitter = (page: Page) => page.getByRole('separator', { name: 'Resize diagnostics' });
const LONGER_THAN_250 = 'export default function reward(t) {\n  return t.completion.length > 250 ? 1 : 0;\n}\n';

/** Nothing sticks out of the window: no page scrollbar, every pane inside the viewport. */
async function fitsWindow(page: Page, width: number, height: number) {
  expect(await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight])).toEqual([width, height]);
  for (const pane of [editor(page), diagnostics(page), rollouts(page)]) {
    const b = await box(pane);
    expect(b.x + b.width).toBeLessThanOrEqual(width);
    expect(b.y + b.height).toBeLessThanOrEqual(height);
  }
}

/**
 * Where the demo reward's longest line ends, against the right edge of the code Monaco shows (its vertical scrollbar's
 * left), and the horizontal scrollbar's slider against its track: a slider as wide as the track scrolls nothing.
 */
async function longestLine(page: Page) {
  const code = page.locator('.monaco-editor').first();
  await expect(code.locator('.view-line').first()).toBeVisible();
  return code.evaluate((ed) => {
    const lines = [...ed.querySelectorAll('.view-line')];
    // Monaco writes spaces as no-break spaces.
    const ends = lines.map((l) => ({ text: (l.textContent ?? '').replace(/\u00a0/g, ' '), right: l.firstElementChild!.getBoundingClientRect().right }));
    const longest = ends.reduce((a, b) => (b.text.length > a.text.length ? b : a));
    const bar = ed.querySelector('.scrollbar.horizontal')!;
    return {
      text: longest.text.trim(),
      right: Math.max(...ends.map((e) => e.right)),
      visibleRight: ed.querySelector('.scrollbar.vertical')!.getBoundingClientRect().left,
      track: bar.getBoundingClientRect().width,
      slider: bar.querySelector('.slider')?.getBoundingClientRect().width ?? 0,
    };
  });
}

test('at 1440×900 the editor, the diagnostics and the compare scatter use the room', async ({ page }) => {
  await openStudio(page);
  // The demo's longest code line (78 characters) is shown whole: its end inside the editor, nothing to scroll.
  const line = await longestLine(page);
  expect(line.text).toBe('return answer !== null && ctx.numbersEqual(answer, t.groundTruth) ? 1 : 0;');
  expect(line.right).toBeLessThanOrEqual(line.visibleRight);
  expect(line.slider).toBeGreaterThanOrEqual(line.track - 1);
  expect((await box(editor(page))).width).toBeGreaterThanOrEqual(560);
  expect((await box(diagnostics(page))).height).toBeGreaterThanOrEqual(400);
  expect((await box(rollouts(page))).height).toBeGreaterThanOrEqual(200);
  await fitsWindow(page, 1440, 900);
  await typeReward(page, LONGER_THAN_250);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  expect((await box(page.getByRole('figure', { name: 'Run A vs run B' }))).height).toBeGreaterThanOrEqual(200);
});

test('at 1280×720 every pane is on screen and usable', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openStudio(page);
  expect((await box(editor(page))).width).toBeGreaterThanOrEqual(500);
  expect((await box(diagnostics(page))).height).toBeGreaterThanOrEqual(280);
  expect((await box(rollouts(page))).height).toBeGreaterThanOrEqual(140);
  await fitsWindow(page, 1280, 720);
});

test('splitters: drag with the mouse, move with the keyboard, hide and show; sizes remembered after a reload', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudio(page);
  const split = editorSplitter(page);
  const w0 = (await box(editor(page))).width;
  await expect(split).toHaveAttribute('aria-valuenow', String(Math.round(w0)));
  // Drag the editor's splitter 100 px to the left.
  const s = await box(split);
  await page.mouse.move(s.x + s.width / 2, s.y + s.height / 2);
  await page.mouse.down();
  await page.mouse.move(s.x + s.width / 2 - 60, s.y + s.height / 2, { steps: 3 });
  await page.mouse.move(s.x + s.width / 2 - 100, s.y + s.height / 2, { steps: 3 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await box(editor(page))).width)).toBe(Math.round(w0) - 100);
  await expect(split).toHaveAttribute('aria-valuenow', String(Math.round(w0) - 100));
  // Keyboard: two steps of 16 px to the right.
  await split.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const w1 = Math.round(w0) - 100 + 32;
  await expect.poll(async () => Math.round((await box(editor(page))).width)).toBe(w1);

  // Diagnostics: drag 80 px down, then one step up with the keyboard.
  const d = diagSplitter(page);
  const h0 = Math.round((await box(diagnostics(page))).height);
  const ds = await box(d);
  await page.mouse.move(ds.x + ds.width / 2, ds.y + ds.height / 2);
  await page.mouse.down();
  await page.mouse.move(ds.x + ds.width / 2, ds.y + ds.height / 2 + 80, { steps: 4 });
  await page.mouse.up();
  await d.focus();
  await page.keyboard.press('ArrowUp');
  const h1 = h0 + 80 - 16;
  await expect.poll(async () => Math.round((await box(diagnostics(page))).height)).toBe(h1);
  await expect(d).toHaveAttribute('aria-valuenow', String(h1));

  // Enter hides the diagnostics and the table takes the room; the sizes and the hidden pane survive a reload.
  const t0 = (await box(rollouts(page))).height;
  await page.keyboard.press('Enter');
  await expect(diagnostics(page)).toBeHidden();
  expect((await box(rollouts(page))).height).toBeGreaterThan(t0 + h1 - 20);
  await expectSaved(page);
  await page.reload();
  await expect(editor(page)).toBeVisible();
  await expect.poll(async () => Math.round((await box(editor(page))).width)).toBe(w1);
  await expect(diagnostics(page)).toBeHidden();
  await diagSplitter(page).dblclick();
  await expect(diagnostics(page)).toBeVisible();
  await expect.poll(async () => Math.round((await box(diagnostics(page))).height)).toBe(h1);

  // The editor hides too, and its code is still there when it comes back.
  await editorSplitter(page).focus();
  await page.keyboard.press('Enter');
  await expect(editor(page)).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(editor(page)).toBeVisible();
  await expect(page.locator('.monaco-editor').first()).toContainText('export default function reward');
});

test('remembered sizes are hostile input: out of range is clamped, garbage is ignored', async ({ page }) => {
  test.setTimeout(120_000);
  await openStudio(page);
  await page.evaluate(() => localStorage.setItem('reward-studio:layout', JSON.stringify({ editorWidth: 5000, diagHeight: 2 })));
  await expectSaved(page);
  await page.reload();
  await expect(diagnostics(page)).toBeVisible();
  // 5000 px is clamped so that the results keep 480 px beside the 10 px splitter; 2 px grows to the 160 px minimum.
  const ws = await box(page.getByRole('main'));
  await expect.poll(async () => Math.round((await box(editor(page))).width)).toBe(Math.round(ws.width - 28 - 480 - 10));
  await expect.poll(async () => Math.round((await box(diagnostics(page))).height)).toBe(160);
  await page.evaluate(() => localStorage.setItem('reward-studio:layout', '{"editorWidth": "wide", "diagCollapsed": "yes"'));
  await page.reload();
  await expect(diagnostics(page)).toBeVisible();
  expect((await box(editor(page))).width).toBeGreaterThanOrEqual(560);
});
