import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

// Point values are worked out by hand below. The bootstrap intervals, and best-of-N for N ≥ 2, come from
// scripts/e2e-preference-expected.py (an independent Python implementation: its own mulberry32, numpy.percentile,
// brute force over every N-subset of every group in exact fractions).
const dd = (page: Page, list: string, term: string) => page.locator(`dl[aria-label="${list}"] dt:text-is("${term}") + dd`);
const cellsOf = (page: Page, table: string, header: string) =>
  page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: header, exact: true }) })
    .getByRole('cell');
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

/** 7 pairs in two subsets, interleaved (e2e/fixtures/preference-pairs.jsonl). */
const PAIRS = readFileSync('e2e/fixtures/preference-pairs.jsonl');
/** Length in characters; null (does not apply) for the completion "N/A". */
const LENGTH = "export default function reward(t) {\n  return t.completion.includes('N/A') ? null : t.completion.length;\n}\n";
const MINUS_LENGTH = "export default function reward(t) {\n  return t.completion.includes('N/A') ? null : -t.completion.length;\n}\n";
const LONGER_THAN_250 = 'export default function reward(t) {\n  return t.completion.length > 250 ? 1 : 0;\n}\n';

test('preference tab: accuracy of a reward on hand-made pairs, ties apart, per subset, with bootstrap CI', async ({ page }) => {
  await openStudio(page);
  // The GSM8K demo has no pairs: no Preference tab.
  await expect(page.getByRole('tab', { name: 'Preference' })).toHaveCount(0);
  await typeReward(page, LENGTH);
  // Uploading runs the editor's code on the new rows.
  await upload(page, 'pairs.jsonl', PAIRS);
  await expect(statusLine(page)).toContainText('7 pairs · 14 trajectories · 7 groups');
  // Scores (completion lengths), chosen vs rejected:
  //   chat p1 "Hello! How can I help?" 22 vs "What?" 5 → correct     math p5 "2 + 2 = 4" 9 vs "5" 1 → correct
  //   chat p2 "Fine." 5 vs "I am doing well, thank you." 27 → wrong   math p6 "The answer is 12." 17 vs "12" 2 → correct
  //   chat p3 "Yes" 3 vs "Nah" 3 → tie                               math p7 "7" 1 vs "It is 8, I think." 17 → wrong
  //   chat p4 "Sure, here it is." 17 vs "N/A" null → unscored
  // 13 scores summing to 129 (one null): mean 129 / 13 = 9.9231.
  await expect(page.getByTestId('run-summary')).toContainText('mean 9.9231 · 13 scored · 1 null');
  // A tie is not correct but stays in the denominator (stats/preference.ts): accuracy = 3 correct / 6 scored pairs
  // (p4 is left out) = 50.0%, not 3 / 5 = 60%. chat: 1 / 3 = 33.3%; math: 2 / 3 = 66.7%.
  await page.getByRole('tab', { name: 'Preference' }).click();
  await expect(page.getByTestId('preference-accuracy')).toHaveText('accuracy 50.0% (95% CI 16.7%–83.3%)');
  const count = (term: string) => dd(page, 'Preference pairs', term);
  await expect(count('pairs')).toHaveText('7');
  await expect(count('correct')).toHaveText('3');
  await expect(count('wrong')).toHaveText('2');
  await expect(count('tied')).toHaveText('1');
  await expect(count('unscored')).toHaveText('1');
  // Subsets in order of first appearance; columns pairs, correct, tied, wrong, accuracy, 95% Wilson interval of
  // correct / scored (scripts/wilson-fixtures.py): chat 1 / 3 → 6.1%–79.2%, math 2 / 3 → 20.8%–93.9%.
  await expect(page.getByRole('combobox', { name: 'Accuracy by' })).toHaveValue('subset');
  await expect(page.getByRole('table', { name: 'Accuracy by subset' }).getByRole('row')).toHaveCount(3);
  await expect(cellsOf(page, 'Accuracy by subset', 'chat')).toHaveText(['4', '1', '1', '1', '33.3%', '6.1%–79.2%']);
  await expect(cellsOf(page, 'Accuracy by subset', 'math')).toHaveText(['3', '2', '0', '1', '66.7%', '20.8%–93.9%']);
  // No 0/1 label in this file: no Best-of-N tab.
  await expect(page.getByRole('tab', { name: 'Best-of-N' })).toHaveCount(0);

  // The reverse reward: p1, p5, p6 turn wrong, p2, p7 correct, p3 stays tied → 2 / 6 = 33.3%; chat 1/3, math 1/3.
  await typeReward(page, MINUS_LENGTH);
  await runAndWait(page, 'mean -9.9231 · 13 scored · 1 null');
  await expect(page.getByTestId('preference-accuracy')).toHaveText('accuracy 33.3% (95% CI 0.0%–66.7%)');
  await expect(count('correct')).toHaveText('2');
  await expect(count('wrong')).toHaveText('3');
  await expect(count('tied')).toHaveText('1');
  await expect(cellsOf(page, 'Accuracy by subset', 'math')).toHaveText(['3', '1', '0', '2', '33.3%', '6.1%–79.2%']);
  // "Scores from" lists the current run first (#2), then the earlier run on these pairs (#1: the upload started a
  // session of its own, whose first run is the one made on loading; the demo's run stays in the demo's session).
  const from = page.getByRole('combobox', { name: 'Scores from' });
  await expect(from.locator('option')).toHaveText([/^#2 · .* · mean -9\.923 · 13 ok$/, /^#1 · .* · mean 9\.923 · 13 ok$/]);
  await from.selectOption('run:1');
  await expect(page.getByTestId('preference-accuracy')).toHaveText('accuracy 50.0% (95% CI 16.7%–83.3%)');
  await expect(cellsOf(page, 'Accuracy by subset', 'chat')).toHaveText(['4', '1', '1', '1', '33.3%', '6.1%–79.2%']);
});

/** RewardBench-style pairs with a chosen_model column (e2e/fixtures/preference-models.jsonl). */
const MODEL_PAIRS = readFileSync('e2e/fixtures/preference-models.jsonl');
const PLAIN_LENGTH = 'export default function reward(t) {\n  return t.completion.length;\n}\n';

test('preference tab: pairs in the status, accuracy by model with Wilson intervals, wrong pairs opened side by side', async ({ page }) => {
  await openStudio(page);
  // The GSM8K demo is not preference data: no pairs in its status line.
  await expect(statusLine(page)).toHaveText(/^800 trajectories · 200 groups/);
  await typeReward(page, PLAIN_LENGTH);
  await upload(page, 'rewardbench.jsonl', MODEL_PAIRS);
  // A pair is two rollouts; each pair has its own prompt, so its own group.
  await expect(statusLine(page)).toContainText('6 pairs · 12 trajectories · 6 groups');
  await expect(page.getByTestId('run-summary')).toContainText('12 scored');
  await page.getByRole('tab', { name: 'Preference' }).click();
  // Lengths, chosen vs rejected (by hand):
  //   q1 chat gpt-4  19 vs 3  correct        q4 math llama  2 vs 17  wrong (margin 15)
  //   q2 chat gpt-4   6 vs 29 wrong (23)      q5 chat llama  3 vs 3   tie
  //   q3 math gpt-4  22 vs 1  correct        q6 math llama 16 vs 1   correct
  // 3 correct / 6 scored = 50.0%.
  await expect(page.getByTestId('preference-accuracy')).toContainText('accuracy 50.0%');
  // Accuracy by: subset (from the import), then the records' other categorical columns: chosen_model. Not
  // rejected_model (one value), id (one per pair), prompt / chosen / rejected (the texts).
  const by = page.getByRole('combobox', { name: 'Accuracy by' });
  await expect(by.locator('option')).toHaveText(['subset', 'chosen_model']);
  await by.selectOption('chosen_model');
  // gpt-4: 2 correct of 3 → 66.7%, Wilson(2, 3) = 20.8%–93.9%; llama: 1 of 3 with a tie → 33.3%, Wilson(1, 3) = 6.1%–79.2%.
  const table = 'Accuracy by chosen_model';
  await expect(page.getByRole('table', { name: table }).getByRole('row')).toHaveCount(3);
  await expect(cellsOf(page, table, 'gpt-4')).toHaveText(['3', '2', '0', '1', '66.7%', '20.8%–93.9%']);
  await expect(cellsOf(page, table, 'llama')).toHaveText(['3', '1', '1', '1', '33.3%', '6.1%–79.2%']);

  // The wrong pairs, worst first: q2 (margin 23), then q4 (15).
  const wrong = page.getByRole('list', { name: 'Pairs ordered wrongly' }).getByRole('button');
  await expect(page.getByText('2 pairs ordered wrongly')).toBeVisible();
  await expect(wrong).toHaveText(['Pair 2: chosen 6 < rejected 29', 'Pair 4: chosen 2 < rejected 17']);
  await wrong.first().click();
  const view = page.getByRole('region', { name: 'Pair 2: chosen and rejected' });
  await expect(view).toContainText('Describe the sea.');
  await expect(view.getByRole('group', { name: 'Chosen' })).toContainText('Short.');
  await expect(view.getByRole('group', { name: 'Chosen' }).getByTestId('chosen-reward')).toHaveText('6');
  await expect(view.getByRole('group', { name: 'Rejected' })).toContainText('A much longer rejected reply.');
  await expect(view.getByRole('group', { name: 'Rejected' }).getByTestId('rejected-reward')).toHaveText('29');
  // Escape closes it; the keyboard opens the next one.
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await wrong.nth(1).focus();
  await page.keyboard.press('Enter');
  const next = page.getByRole('region', { name: 'Pair 4: chosen and rejected' });
  await expect(next.getByRole('group', { name: 'Chosen' })).toContainText('12');
  await expect(next.getByRole('group', { name: 'Rejected' })).toContainText('It is 13, surely.');
  await expect(next.getByTestId('rejected-reward')).toHaveText('17');
  await next.getByRole('button', { name: 'Close pair' }).click();
  await expect(next).toHaveCount(0);
});

test('best-of-N tab: GSM8K groups of 4 against is_correct_openai, N = 1 … 4', async ({ page }) => {
  // Independent expectations from the demo file: a random pick (and the reward's pick at N = 1) is correct with
  // probability = mean over groups of the group's share of correct rollouts; with a reward equal to the label, the
  // top pick at N = 4 (the whole group) is correct exactly when the group has a correct rollout.
  const rows = readFileSync('public/demo/gsm8k-rollouts.jsonl', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { group: number; is_correct_openai: boolean });
  const groups = new Map<number, number[]>();
  for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r.is_correct_openai ? 1 : 0]);
  const shares = [...groups.values()].map((g) => g.reduce((a, b) => a + b, 0) / g.length);
  const random = pct(shares.reduce((a, b) => a + b, 0) / shares.length);
  const anyCorrect = pct(shares.filter((s) => s > 0).length / shares.length);
  expect(groups.size).toBe(200);
  expect([random, anyCorrect]).toEqual(['36.9%', '63.0%']); // 295 / 800 correct; 126 of 200 groups have one

  await openStudio(page);
  await expect(page.getByRole('tab', { name: 'Preference' })).toHaveCount(0);
  await typeReward(page, LONGER_THAN_250);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  await page.getByRole('tab', { name: 'Best-of-N' }).click();
  await expect(page.getByRole('combobox', { name: 'Trusted label' })).toHaveValue('is_correct_openai');
  await expect(page.getByRole('figure', { name: 'Best-of-N chart' })).toHaveAttribute('data-points', '4');
  const table = page.getByRole('table', { name: 'Best-of-N accuracy' });
  await expect(table.getByRole('rowheader')).toHaveText(['1', '2', '3', '4']);
  // Columns: groups, reward's top pick, random pick. N = 1: the top pick of one rollout is a random pick.
  // N ≥ 2 (length > 250, ties split evenly): 451/1200, 227/600, 91/240 from scripts/e2e-preference-expected.py.
  await expect(cellsOf(page, 'Best-of-N accuracy', '1')).toHaveText(['200', random, random]);
  await expect(cellsOf(page, 'Best-of-N accuracy', '2')).toHaveText(['200', '37.6%', random]);
  await expect(cellsOf(page, 'Best-of-N accuracy', '3')).toHaveText(['200', '37.8%', random]);
  await expect(cellsOf(page, 'Best-of-N accuracy', '4')).toHaveText(['200', '37.9%', random]);
  // Scores from run #1, the default reward, which equals is_correct_openai on every rollout (Label check: 100%).
  const from = page.getByRole('combobox', { name: 'Scores from' });
  await expect(from.locator('option')).toHaveCount(2);
  await from.selectOption('run:1');
  await expect(cellsOf(page, 'Best-of-N accuracy', '1')).toHaveText(['200', random, random]);
  await expect(cellsOf(page, 'Best-of-N accuracy', '4')).toHaveText(['200', anyCorrect, random]);
});
