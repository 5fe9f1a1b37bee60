// Screenshots for the README, from the production build: `npx vite build && node scripts/screenshots.mjs`.
import { launch, PORT, startPreview } from '../bench/browser.mjs';

const server = await startPreview();
const browser = await launch();
try {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await page.goto(`http://localhost:${PORT}/`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  await page.locator('.rt-data').nth(2).click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: 'docs/screenshot.png' });
  for (const [tab, file] of [
    ['Length', 'length'],
    ['Advantage collapse', 'collapse'],
  ]) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForTimeout(800);
    await page.getByRole('region', { name: 'Diagnostics' }).screenshot({ path: `docs/diagnostics-${file}.png` });
  }
  // Stress test of a reward that also pays for the word "Solution": the probe table and what one probe fooled.
  await page.getByRole('tab', { name: 'Stress test' }).click();
  const hack =
    "export default function reward(t, ctx) {\n  if (t.completion.includes('Solution')) return 1;\n  const a = ctx.numberAfter(t.completion, 'A:');\n  return a !== null && ctx.numbersEqual(a, t.groundTruth) ? 1 : 0;\n}\n";
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate((text) => navigator.clipboard.writeText(text), hack);
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('ControlOrMeta+V');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('button', { name: 'Run stress test' }).click({ timeout: 30_000 });
  await page.getByRole('status', { name: 'Stress test verdict' }).getByText('fooled by').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  await page.getByRole('region', { name: 'Diagnostics' }).screenshot({ path: 'docs/diagnostics-stress.png' });
  await page.getByRole('tab', { name: 'Distribution' }).click();
  // A share link opened in a fresh browser: the code is shown with its notice and has not run.
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('textbox', { name: 'Share link' }).waitFor();
  await page.getByRole('dialog').screenshot({ path: 'docs/share-dialog.png' });
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  const other = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await other.goto(link);
  await other.getByRole('note', { name: 'Code from elsewhere' }).waitFor();
  await other.waitForTimeout(1500);
  await other.screenshot({ path: 'docs/shared-link-opened.png', clip: { x: 0, y: 0, width: 1440, height: 520 } });
  // A reward model: the folder picked, its card (provider, inputs, scores), and its score against length.
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Load reward model folder' }).click()]);
  await chooser.setFiles('public/models/tiny-reward');
  await page.getByTestId('model-scores').waitFor({ timeout: 60_000 });
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Model: tiny_reward' });
  await page.getByRole('tab', { name: 'Length' }).click();
  await page.waitForTimeout(800);
  await page.locator('.results').screenshot({ path: 'docs/reward-model.png' });
  await page.getByRole('combobox', { name: 'Scores shown' }).selectOption({ label: 'Reward run' });
  // Preference pairs: the Preference tab on the hand-made pair file of the browser tests.
  const [upload] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await upload.setFiles('e2e/fixtures/preference-pairs.jsonl');
  // The loaded model scores the new rollouts by itself; the tab shows its accuracy on the pairs.
  await page.getByTestId('model-scores').getByText('14 scored').waitFor({ timeout: 60_000 });
  await page.getByRole('tab', { name: 'Preference' }).click();
  await page.getByRole('combobox', { name: 'Scores from' }).selectOption({ label: 'Model: tiny_reward' });
  await page.getByTestId('preference-accuracy').waitFor();
  await page.waitForTimeout(3000);
  await page.getByRole('region', { name: 'Diagnostics' }).screenshot({ path: 'docs/diagnostics-preference.png' });

  // Shaping on the demo: the list (dapo-overlong L 400, C 100 in characters, then kimi-length).
  const shape = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await shape.goto(`http://localhost:${PORT}/`);
  await shape.getByTestId('run-summary').getByText('800 scored').waitFor();
  await shape.getByRole('tab', { name: 'Shaping' }).click();
  for (const name of ['dapo-overlong', 'kimi-length']) {
    await shape.getByRole('combobox', { name: 'Transform to add' }).selectOption(name);
    await shape.getByRole('button', { name: 'Add transform' }).click();
  }
  await shape.getByRole('textbox', { name: '1. dapo-overlong max' }).fill('400');
  await shape.getByRole('textbox', { name: '1. dapo-overlong cache' }).fill('100');
  await shape.getByRole('combobox', { name: '1. dapo-overlong unit' }).selectOption('chars');
  await shape.getByRole('combobox', { name: '2. kimi-length unit' }).selectOption('chars');
  await shape.waitForTimeout(1500);
  await shape.getByRole('region', { name: 'Diagnostics' }).screenshot({ path: 'docs/diagnostics-shaping.png' });

  // Over steps on the browser tests' six-step run (scripts/steps-fixtures.py): the reward rises while the label falls.
  const [steps] = await Promise.all([shape.waitForEvent('filechooser'), shape.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await steps.setFiles('e2e/fixtures/steps-run.jsonl');
  await shape.getByRole('status', { name: 'Dataset status' }).getByText('96 trajectories').waitFor();
  await shape.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await shape.evaluate((text) => navigator.clipboard.writeText(text), 'export default function reward(t) {\n  return Number(t.fields.r);\n}\n');
  await shape.locator('.monaco-editor').first().click();
  await shape.keyboard.press('ControlOrMeta+A');
  await shape.keyboard.press('ControlOrMeta+V');
  await shape.getByRole('button', { name: 'Run', exact: true }).click();
  await shape.getByTestId('run-summary').getByText('96 scored').waitFor({ timeout: 30_000 });
  await shape.getByRole('tab', { name: 'Over steps' }).click();
  await shape.getByRole('combobox', { name: 'Trusted label' }).selectOption('ok');
  await shape.waitForTimeout(2000);
  await shape.getByRole('region', { name: 'Diagnostics' }).screenshot({ path: 'docs/diagnostics-steps.png' });
} finally {
  server.kill();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]);
  process.exit(0);
}
