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
  await expect(statusLine(page)).toContainText('14 trajectories · 7 groups');
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
  // Subsets in order of first appearance; columns pairs, correct, tied, wrong, accuracy, 95% CI. Three scored pairs
  // per subset: their bootstrap intervals span 0–100%.
  await expect(page.getByRole('table', { name: 'Accuracy per subset' }).getByRole('row')).toHaveCount(3);
  await expect(cellsOf(page, 'Accuracy per subset', 'chat')).toHaveText(['4', '1', '1', '1', '33.3%', '0.0%–100.0%']);
  await expect(cellsOf(page, 'Accuracy per subset', 'math')).toHaveText(['3', '2', '0', '1', '66.7%', '0.0%–100.0%']);
  // No 0/1 label in this file: no Best-of-N tab.
  await expect(page.getByRole('tab', { name: 'Best-of-N' })).toHaveCount(0);

  // The reverse reward: p1, p5, p6 turn wrong, p2, p7 correct, p3 stays tied → 2 / 6 = 33.3%; chat 1/3, math 1/3.
  await typeReward(page, MINUS_LENGTH);
  await runAndWait(page, 'mean -9.9231 · 13 scored · 1 null');
  await expect(page.getByTestId('preference-accuracy')).toHaveText('accuracy 33.3% (95% CI 0.0%–66.7%)');
  await expect(count('correct')).toHaveText('2');
  await expect(count('wrong')).toHaveText('3');
  await expect(count('tied')).toHaveText('1');
  await expect(cellsOf(page, 'Accuracy per subset', 'math')).toHaveText(['3', '1', '0', '2', '33.3%', '0.0%–100.0%']);
  // "Scores from" lists the current run first (#2), then the earlier run on these pairs (#1: the upload started a
  // session of its own, whose first run is the one made on loading; the demo's run stays in the demo's session).
  const from = page.getByRole('combobox', { name: 'Scores from' });
  await expect(from.locator('option')).toHaveText([/^#2 · .* · mean -9\.923 · 13 ok$/, /^#1 · .* · mean 9\.923 · 13 ok$/]);
  await from.selectOption('run:1');
  await expect(page.getByTestId('preference-accuracy')).toHaveText('accuracy 50.0% (95% CI 16.7%–83.3%)');
  await expect(cellsOf(page, 'Accuracy per subset', 'chat')).toHaveText(['4', '1', '1', '1', '33.3%', '0.0%–100.0%']);
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
