import { expect, test } from '@playwright/test';
import { openStudio, typeReward } from './helpers';

/** The README's example, with no types written: `t` and `ctx` are typed from the contract (issue 21, item 12). */
const README_EXAMPLE = `export default function reward(t, ctx) {
  const correct = ctx.numbersEqual(ctx.numberAfter(t.completion), t.groundTruth);
  return (correct ? 1 : 0) + 0.1 * ctx.models.tiny_reward;
}
`;

test("an untyped reward(t, ctx) is typed from the contract: no implicit-any marks, a typo in t's fields is marked, t. completes", async ({ page }) => {
  await openStudio(page);
  const editor = page.locator('.monaco-editor').first();
  const errors = editor.locator('.squiggly-error');

  // A misspelt field of t is an error only if t has the contract's type (with t: any nothing would be marked).
  await typeReward(page, 'export default function reward(t, ctx) {\n  return t.completon.length;\n}\n');
  await expect(errors).toHaveCount(1);
  await editor.click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('F8'); // next problem, as a keyboard user reads it
  await expect(page.locator('.marker-widget')).toContainText("Property 'completon' does not exist on type 'Trajectory'");
  await page.keyboard.press('Escape');

  // The README's example: nothing marked at all.
  await typeReward(page, README_EXAMPLE);
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('ctx.models.tiny_reward');
  await expect(errors).toHaveCount(0);

  // Typing "t." in the body offers the contract's fields.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp'); // the return line, inside the function
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('t.');
  const suggest = page.locator('.suggest-widget');
  await expect(suggest).toBeVisible();
  await expect(suggest).toContainText('groundTruth');
  await expect(suggest).toContainText('completion');
});
