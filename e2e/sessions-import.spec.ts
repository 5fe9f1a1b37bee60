import { expect, test, type Page } from '@playwright/test';
import { openStudio, runAndWait, statusLine, upload } from './helpers';

/** Issue 21, items 5–7: a new file starts a named session, what ran is said, a constant reward is flagged, the label check's default. */

const runHistory = (page: Page) => page.getByRole('combobox', { name: 'Run history' });

/** MT-bench-style chats: question ids, judge scores, no ground truth. */
function mtBenchChats(): Buffer {
  const lines: string[] = [];
  for (let q = 81; q < 86; q++) {
    for (const [model, score] of [
      ['gpt-4', 9],
      ['vicuna-13b', 6],
    ] as const) {
      lines.push(
        JSON.stringify({
          question_id: q,
          model,
          turn: 1,
          score,
          messages: [
            { role: 'user', content: `Question ${q}: write a short poem.` },
            { role: 'assistant', content: `A poem by ${model} for question ${q}.` },
          ],
        }),
      );
    }
  }
  return Buffer.from(lines.join('\n') + '\n');
}

test('importing another file starts a session named after it; the demo session keeps its runs; what ran and a constant reward are said', async ({ page }) => {
  await openStudio(page);
  await runAndWait(page, 'mean 0.3688 · 800 scored');
  await expect(runHistory(page).locator('option')).toHaveCount(2);
  await expect(page.getByLabel('Session name', { exact: true })).toHaveText('GSM8K demo');

  await upload(page, 'mtbench-chats.jsonl', mtBenchChats());
  await expect(statusLine(page)).toContainText('10 trajectories');
  await expect(page.getByLabel('Session name', { exact: true })).toHaveText('mtbench-chats.jsonl');
  await expect(page.getByRole('status', { name: 'Session message' })).toContainText(
    'New session “mtbench-chats.jsonl” for this file. “GSM8K demo” is kept in Sessions with its 2 runs. The code in the editor came along and runs on this file now.',
  );
  // The editor's GSM8K reward ran on the chats by itself: the page says which code, on which file, and why all is 0.
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.0000 · 10 scored');
  await expect(page.getByLabel('What ran')).toHaveText(
    "Run #1: the editor's TypeScript reward, run by the studio when the data loaded, on mtbench-chats.jsonl (10 rollouts).",
  );
  const note = page.getByRole('note', { name: 'Same score on every row' });
  await expect(note).toContainText('Every scored rollout got 0 (10 of 10): this reward tells none apart');
  await expect(note).toContainText('t.groundTruth: this data has no ground-truth column (ground_truth, gts, reward_model, answer, solution)');
  await expect(runHistory(page).locator('option')).toHaveCount(1);

  // Both sessions are listed; the demo one opens with its two runs and its data.
  await page.getByRole('button', { name: 'Sessions' }).click();
  const list = page.getByRole('list', { name: 'Saved sessions' });
  await expect(list).toContainText('mtbench-chats.jsonl');
  await expect(list).toContainText('GSM8K demo');
  await page.getByRole('button', { name: 'Open session GSM8K demo' }).click();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(runHistory(page).locator('option')).toHaveCount(2);
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.3688 · 800 scored');
  await expect(page.getByRole('note', { name: 'Same score on every row' })).toHaveCount(0);
  // A run started with Run says so.
  await expect(page.getByLabel('What ran')).toContainText('Run #2: TypeScript reward, run with Run, on gsm8k-rollouts.jsonl (800 rollouts).');
});

test('the label check opens on is_correct, never on question_id or sample_index', async ({ page }) => {
  await openStudio(page);
  const lines: string[] = [];
  for (let q = 0; q < 6; q++)
    for (let k = 0; k < 2; k++)
      lines.push(
        JSON.stringify({
          question_id: 100 + q,
          sample_index: k,
          prompt: `What is ${q} + 1?`,
          completion: `A: ${q + k}`,
          ground_truth: String(q + 1),
          is_correct: k === 1,
        }),
      );
  await upload(page, 'gsm8k-samples.jsonl', Buffer.from(lines.join('\n')));
  await expect(statusLine(page)).toContainText('12 trajectories');
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.5000 · 12 scored');
  await page.getByRole('tab', { name: 'Label check' }).click();
  const pick = page.getByRole('combobox', { name: 'Trusted label' });
  await expect(pick).toHaveValue('is_correct');
  await expect(pick.locator('option')).toHaveText(['is_correct (0/1)']);
  await expect(page.getByRole('definition').filter({ hasText: '100.0%' }).first()).toBeVisible();
});
