import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { expectSaved, openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

// A run of 6 steps × 4 prompts × 4 rollouts written by scripts/steps-fixtures.py, with its expected per-step figures
// (numpy): the reward field r rises step after step while the label `ok` falls, so the divergence is flagged at step 3.
const DATA = readFileSync('e2e/fixtures/steps-run.jsonl');
const expected = JSON.parse(readFileSync('e2e/fixtures/steps-run.expected.json', 'utf8')) as {
  steps: {
    step: number;
    rows: number;
    groups: number;
    reward: { mean: number; std: number };
    collapse: { zeroStdGroupFraction: number };
    length: { p95: number };
    truncated: number;
    label: { accuracy: number; agreement: number | null };
  }[];
  divergence: { step: number; from: number };
};
const FIELD_REWARD = 'export default function reward(t) {\n  return Number(t.fields.r);\n}\n';
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
/** A cell showing x to 3 decimals; a value at a rounding boundary (0.5875) may round either way in either language. */
async function shows3(cell: ReturnType<Page['locator']>, x: number) {
  await expect.poll(async () => Math.abs(Number(await cell.textContent()) - x) <= 0.0005 + 1e-12).toBe(true);
}

async function openSteps(page: Page) {
  await openStudio(page);
  await upload(page, 'steps-run.jsonl', DATA);
  await expect(statusLine(page)).toContainText('96 trajectories · 24 groups');
  await typeReward(page, FIELD_REWARD);
  await runAndWait(page, '96 scored');
  await page.getByRole('tab', { name: 'Over steps' }).click();
  await page.getByRole('combobox', { name: 'Trusted label' }).selectOption('ok');
}

test('Over steps: the per-step table shows the numpy figures, sorts, and a step opens its rollouts', async ({ page }) => {
  await openSteps(page);
  const table = page.getByRole('table', { name: 'Figures per step' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(1 + expected.steps.length);
  for (const [k, s] of expected.steps.entries()) {
    const cells = rows.nth(k + 1).getByRole('cell');
    await expect(rows.nth(k + 1).getByRole('rowheader')).toHaveText(String(s.step));
    await expect(cells.nth(0)).toHaveText(String(s.rows));
    await expect(cells.nth(1)).toHaveText(String(s.groups));
    await shows3(cells.nth(2), s.reward.mean);
    await shows3(cells.nth(3), s.reward.std);
    await expect(cells.nth(4)).toHaveText(pct(s.collapse.zeroStdGroupFraction));
    await expect(cells.nth(5)).toHaveText(s.length.p95.toFixed(0));
    await expect(cells.nth(6)).toHaveText(pct(s.truncated));
    await shows3(cells.nth(7), s.label.accuracy);
    await expect(cells.nth(8)).toHaveText(s.label.agreement === null ? '—' : pct(s.label.agreement));
  }
  // The divergence, in words, at the step numpy found.
  await expect(page.getByRole('note', { name: 'Divergence' })).toContainText(
    `Divergence at step ${expected.divergence.step}: from step ${expected.divergence.from}`,
  );
  // Sorting by mean, descending (second press), from the keyboard.
  await page.getByRole('button', { name: 'Sort steps by mean' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText('5');
  // A step opens its 16 rollouts in the table.
  await page.getByRole('button', { name: 'Open the rollouts of step 2' }).click();
  await expect(page.getByRole('button', { name: 'Clear chart selection' }).locator('..')).toHaveText('step 2×');
  await expect(page.getByRole('table', { name: 'Rollouts table' }).getByRole('row')).toHaveCount(17);
});

test('Over steps: the maximum completion length counts long rows without a finish reason as truncated', async ({ page }) => {
  await openSteps(page);
  const cell = page.getByRole('table', { name: 'Figures per step' }).getByRole('row').nth(1).getByRole('cell').nth(6);
  await expect(cell).toHaveText('0.0%');
  await expect(page.getByTestId('truncation-rule')).toContainText('finish_reason');
  // Step 0: rollout j of prompt p has 20 + 3j + p characters; j = 3 says "stop", j = 0–2 say nothing.
  await page.getByRole('spinbutton', { name: 'Max completion length' }).fill('29');
  // Of those without a finish reason only j = 2, p = 3 (29 characters) reaches 29: 1 of 16.
  await expect(cell).toHaveText(pct(1 / 16));
  // The maximum is part of the session: after a reload the tab shows it and counts with it.
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('96 trajectories');
  await page.getByRole('tab', { name: 'Over steps' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Max completion length' })).toHaveValue('29');
  await expect(cell).toHaveText(pct(1 / 16));
  // In GPT-2 tokens, a maximum of 1 token: every rollout without a finish reason (12 of 16) reaches it.
  await page.getByRole('combobox', { name: 'Length unit' }).selectOption('tokens');
  await page.getByRole('spinbutton', { name: 'Max completion length' }).fill('1');
  await expect(cell).toHaveText(pct(12 / 16), { timeout: 30_000 });
  await expect(page.getByRole('figure', { name: 'Length over steps' })).toContainText('GPT-2 tokens');
});

test('Per prompt and Compare two steps', async ({ page }) => {
  await openSteps(page);
  await page.getByRole('radio', { name: 'Per prompt' }).check();
  await page.getByRole('searchbox', { name: 'Search prompts' }).fill('3 + 3');
  const list = page.getByRole('listbox', { name: 'Prompt' });
  await expect(list.getByRole('option')).toHaveCount(1);
  await expect(list.getByRole('option')).toContainText('6 steps');
  await list.selectOption({ index: 0 });
  // Prompt 3: rewards min(1, (step + j)/10) for steps 0–2, then all 1 (collapsed).
  const perStep = page.getByRole('table', { name: "Prompt's mean reward per step" });
  await expect(perStep.getByRole('row')).toHaveCount(7);
  await expect(perStep.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText('0.150');
  await expect(perStep.getByRole('row').nth(6).getByRole('cell').nth(1)).toHaveText('1');
  await page.getByRole('button', { name: "Open this prompt's rollouts at step 4" }).click();
  await expect(page.getByRole('table', { name: 'Rollouts table' }).getByRole('row')).toHaveCount(5);

  await page.getByRole('radio', { name: 'Compare two steps' }).check();
  await page.getByRole('combobox', { name: 'Step A' }).selectOption('0');
  await page.getByRole('combobox', { name: 'Step B' }).selectOption('5');
  const dd = (t: string) => page.locator(`dl[aria-label="Step comparison"] dt:text-is("${t}") + dd`);
  await expect(dd('prompts at both steps')).toHaveText('4');
  const change = expected.steps[5].reward.mean - expected.steps[0].reward.mean;
  await expect(dd('change of the mean')).toHaveText(change.toFixed(4));
});

test('axe finds no violations on the Over steps tab, in each of its views', async ({ page }) => {
  test.setTimeout(120_000);
  await openSteps(page);
  for (const view of ['Over steps', 'Per prompt', 'Compare two steps']) {
    await page.getByRole('radio', { name: view }).check();
    const { violations } = await new AxeBuilder({ page }).include('section[aria-label="Diagnostics"]').analyze();
    expect(
      violations.flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}`)),
      view,
    ).toEqual([]);
  }
});

/** The Reward over steps canvas, and where its step k of `count` (evenly spaced) is drawn, from its data-* attributes. */
async function rewardCanvas(page: Page) {
  const figure = page.getByRole('figure', { name: 'Reward over steps', exact: true });
  const canvas = figure.locator('canvas');
  await expect(canvas).toHaveAttribute('data-last-step-x', /\d+/);
  const x0 = Number(await canvas.getAttribute('data-first-step-x'));
  const x1 = Number(await canvas.getAttribute('data-last-step-x'));
  const y = Number(await canvas.getAttribute('data-plot-y'));
  return { figure, canvas, at: (k: number, count: number) => ({ x: x0 + ((x1 - x0) * k) / (count - 1), y }) };
}

test('a click on a chart opens the rollouts of the step under the pointer', async ({ page }) => {
  await openSteps(page);
  const { figure, canvas, at } = await rewardCanvas(page);
  // As a person does: the pointer moves over the plot (the readout shows the step under it), then clicks.
  const tip = figure.locator('.step-tip');
  await canvas.hover({ position: at(2, 6) });
  await expect(tip).toContainText('step 2');
  await expect(tip).toContainText(`mean: ${expected.steps[2].reward.mean.toFixed(4)}`);
  // Nearest step by x: a little right of step 5's x is still step 5.
  const five = at(5, 6);
  await canvas.hover({ position: { x: five.x - 4, y: five.y } });
  await expect(tip).toContainText('step 5');
  await canvas.click({ position: { x: five.x - 4, y: five.y } });
  await expect(page.getByRole('button', { name: 'Clear chart selection' }).locator('..')).toHaveText('step 5×');
});

test('a step on a chart opens from the keyboard', async ({ page }) => {
  await openSteps(page);
  const { figure, canvas } = await rewardCanvas(page);
  await expect(canvas).toHaveAttribute('tabindex', '0');
  await expect(canvas).toHaveAccessibleName(/reward over steps: ± std, mean over 6 steps, 0 to 5/);
  await canvas.focus();
  // The first Right goes to the first step; End to the last; Left one back.
  await page.keyboard.press('ArrowRight');
  await expect(figure.locator('.step-tip')).toContainText('step 0');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await expect(figure.locator('.step-tip')).toContainText('step 4');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Clear chart selection' }).locator('..')).toHaveText('step 4×');
  // The other charts open steps too: the Label chart, from its last step.
  const label = page.getByRole('figure', { name: 'Label vs reward over steps' }).locator('canvas');
  await label.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Clear chart selection' }).locator('..')).toHaveText('step 5×');
});

test('without two steps the tab is not listed; left open on data without steps, it says why it is empty', async ({ page }) => {
  await openStudio(page);
  await expect(page.getByRole('tab', { name: 'Over steps' })).toHaveCount(0);
  await upload(page, 'steps-run.jsonl', DATA);
  await expect(statusLine(page)).toContainText('96 trajectories · 24 groups');
  await page.getByRole('tab', { name: 'Over steps' }).click();
  await upload(page, 'no-steps.jsonl', Buffer.from('{"prompt":"a","completion":"b"}\n{"prompt":"a","completion":"c"}\n'));
  await expect(statusLine(page)).toContainText('2 trajectories · 1 group');
  await expect(page.getByRole('tab', { name: 'Over steps' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText('This data has no training steps');
});

test('a step per row (3,000 steps): the charts draw 1,500 of them and the table lists 400', async ({ page }) => {
  await openStudio(page);
  const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ prompt: `p${i % 7}`, completion: 'c'.repeat(i % 50), step: i, r: i % 3 }));
  await upload(page, 'many-steps.jsonl', Buffer.from(lines.join('\n') + '\n'));
  await expect(statusLine(page)).toContainText('3,000 trajectories');
  await typeReward(page, FIELD_REWARD);
  await runAndWait(page, '3,000 scored');
  await page.getByRole('tab', { name: 'Over steps' }).click();
  await expect(page.getByRole('figure', { name: 'Reward over steps', exact: true })).toContainText('1500 of 3000 steps drawn');
  await expect(page.getByRole('table', { name: 'Figures per step' }).getByRole('row')).toHaveCount(401);
  await expect(page.getByText('The first 400 of 3,000 steps in this order')).toBeVisible();
});

test('a reward with components: the Series menu draws a component over the steps', async ({ page }) => {
  await openStudio(page);
  await upload(page, 'steps-run.jsonl', DATA);
  await expect(statusLine(page)).toContainText('96 trajectories · 24 groups');
  await typeReward(page, 'export default function reward(t) {\n  return { score: Number(t.fields.r), components: { doubled: 2 * Number(t.fields.r) } };\n}\n');
  await runAndWait(page, '96 scored');
  await page.getByRole('tab', { name: 'Over steps' }).click();
  const figure = page.getByRole('figure', { name: 'Reward over steps', exact: true });
  await expect(figure).toContainText('reward: mean ± std per step');
  await page.getByRole('combobox', { name: 'Series' }).selectOption('doubled');
  await expect(figure).toContainText('doubled: mean ± std per step');
});
