import { expect, test, type Page } from '@playwright/test';
import { expectSaved, openStudio, runAndWait, typeReward } from './helpers';

// Loading Pyodide in each worker takes seconds on these machines: Python runs get a longer wait.
test.setTimeout(120_000);
const waitSummary = (page: Page, text: string) => expect(page.getByTestId('run-summary')).toContainText(text, { timeout: 90_000 });

test('the demo reward in Python (the template) gives the TypeScript scores on every demo rollout', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await expect(page.locator('.monaco-editor').first()).toContainText('def compute_score(data_source, solution_str, ground_truth, extra_info=None):');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByText('Loading Python…')).toBeVisible();
  // Run #2 has landed (its summary equals run #1's, so the summary alone cannot tell).
  await expect(page.getByRole('combobox', { name: 'Run history' }).locator('option')).toHaveCount(2, { timeout: 90_000 });
  await waitSummary(page, 'mean 0.3688 · 800 scored');
  await expect(page.getByRole('combobox', { name: 'Reward function' })).toHaveValue('compute_score');
  // Run #1 (TypeScript, on opening) against run #2 (Python): no rollout changed.
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  await expect(page.locator('dl[aria-label="Run comparison"] dt:text-is("changed") + dd')).toHaveText('0');
  await expect(page.locator('dl[aria-label="Run comparison"] dt:text-is("rows scored in both") + dd')).toHaveText('800');
  // Run again: the workers now hold the rows and made their argument copies ahead while idle; same scores (run #3
  // against run #2).
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('combobox', { name: 'Run history' }).locator('option')).toHaveCount(3, { timeout: 60_000 });
  await waitSummary(page, 'mean 0.3688 · 800 scored');
  await expect(page.locator('dl[aria-label="Run comparison"] dt:text-is("changed") + dd')).toHaveText('0');
  // The language and the Python code survive a reload.
  await expectSaved(page);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('py');
});

test('a Python reward that raises on some rows: those rows show the exception and the line in the user code; print is captured', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(
    page,
    'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    print("gt", ground_truth)\n    if ground_truth == "18":\n        raise ValueError("no eighteens")\n    return 1.0\n',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // 16 demo rollouts have ground truth 18 (rows 0–3, 52–55, …).
  await waitSummary(page, '784 scored · 16 errors');
  await page.locator('.rt-data[data-row="2"]').click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail.getByTestId('detail-reward')).toHaveText('error');
  await expect(detail.getByRole('note')).toContainText('ValueError: no eighteens');
  await expect(detail.getByRole('note')).toContainText('line 4');
  await page.getByText(/Output of run #2/).click();
  await expect(page.getByLabel('Run output')).toContainText('gt 72');
});

test('while True in Python is interrupted: those rows time out, the page stays responsive, the rest are scored', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await page.getByRole('spinbutton', { name: 'Time limit per row (ms)' }).fill('600');
  await typeReward(
    page,
    'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    if ground_truth == "3":\n        while True:\n            pass\n    return 1.0\n',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sort by length' }).click();
  await expect(page.getByRole('columnheader', { name: /length/i })).toHaveAttribute('aria-sort', 'descending');
  await waitSummary(page, '784 scored · 16 timed out');
  // Edited code runs in fresh interpreters started from the sandbox's snapshot: they are interrupted the same way.
  await typeReward(
    page,
    'def compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    if ground_truth == "4":\n        while True:\n            pass\n    return 2.0\n',
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitSummary(page, 'mean 2.0000 · 784 scored · 16 timed out');
});

test('several candidate functions: the user picks one, called the way its framework calls it', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(
    page,
    [
      'def compute_score(data_source, solution_str, ground_truth, extra_info=None):',
      '    return 1.0',
      '',
      'def length_reward(completions, **kwargs):',
      '    return [min(len(c), 300) / 300 for c in completions]',
      '',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitSummary(page, 'mean 1.0000 · 800 scored');
  const picker = page.getByRole('combobox', { name: 'Reward function' });
  await expect(picker.locator('option')).toHaveText(['compute_score · verl (line 1)', 'length_reward · trl (line 4)']);
  await picker.selectOption('length_reward');
  await page.getByRole('spinbutton', { name: 'Rows per call' }).fill('16');
  await runAndWait(page, /mean 0\.\d{4} · 800 scored/);
  await expect(page.getByRole('combobox', { name: 'Run history' })).toContainText('#3');
});

test('export the Python reward for TRL and for verl, and import numpy gets a clear message', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitSummary(page, 'mean 0.3688 · 800 scored');
  const read = async (name: string) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
    expect(dl.suggestedFilename()).toBe('reward.py');
    const stream = await dl.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const verl = await read('Export for verl');
  expect(verl).toContain('custom_reward_function.path=reward.py custom_reward_function.name=compute_score\n');
  expect(verl).toContain('def compute_score(data_source, solution_str, ground_truth, extra_info=None):');
  const trl = await read('Export for TRL');
  expect(trl).toContain('reward_funcs=[compute_score_trl]');
  expect(trl).toContain('def compute_score_trl(completions, ground_truth=None, data_source=None, extra_info=None, **kwargs):');
  // An edit after the last Run (the function renamed) is what the export calls: the code is read again first.
  await typeReward(page, 'def my_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 1.0\n');
  const edited = await read('Export for verl');
  expect(edited).toContain('custom_reward_function.name=my_score\n');
  expect(edited).not.toContain('compute_score');
  await expect(page.getByRole('combobox', { name: 'Reward function' })).toHaveValue('my_score');
  await typeReward(page, 'import numpy as np\n\ndef compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 1.0\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'does not compile' })).toContainText('standard library', { timeout: 60_000 });
});

test('a verl per-source scorer pasted unchanged: helpers above it, compute_score picked and said why, a string pred is a text value of the row', async ({
  page,
}) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(
    page,
    [
      'def extract_solution(solution_str, method="strict"):',
      '    at = solution_str.rfind("A:")',
      '    return solution_str[at + 2:].strip().rstrip(".").replace(",", "") if at >= 0 else None',
      '',
      'def compute_score(solution_str, ground_truth, strict=False):',
      '    pred = extract_solution(solution_str)',
      '    acc = pred is not None and pred == ground_truth',
      '    return {"score": 1.0 if acc else -1.0, "acc": acc, "pred": pred or "[INVALID]"}',
      '',
    ].join('\n'),
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  // Scores are ±1 and fewer than half the demo rollouts are right: a negative mean is this run's, not run #1's.
  await expect(page.getByTestId('run-summary')).toContainText(/mean -0\.\d{4} · 800 scored/, { timeout: 90_000 });
  await expect(page.getByTestId('run-summary')).not.toContainText('error');
  const picker = page.getByRole('combobox', { name: 'Reward function' });
  await expect(picker).toHaveValue('compute_score');
  await expect(picker.locator('option')).toHaveText(['extract_solution · verl-source (line 1)', 'compute_score · verl-source (line 5)']);
  await expect(page.getByLabel('Reward function choice')).toContainText(
    'compute_score: verl per-source signature (default: compute_score is the entry point verl calls)',
  );
  await page.locator('.rt-data[data-row="0"]').click();
  // Row 0 ends "A: 26" (its ground truth is 18): pred is "26", beside acc 0.
  const box = page.getByRole('complementary', { name: 'Rollout detail' }).getByLabel('Reward of this rollout');
  await expect(box.locator('dt:text-is("pred") + dd')).toHaveText('26');
  await expect(box.locator('dt:text-is("acc") + dd')).toHaveText('0');
});

/**
 * The sandbox frame's live Python workers, counted through the DevTools protocol (the frame is cross-origin, out of
 * Playwright's reach): the frame's session auto-attaches to its workers and hears them end.
 */
async function pythonWorkers(page: Page): Promise<() => number> {
  const frame = page.frames().find((f) => f.url().endsWith('sandbox.html'));
  if (!frame) throw new Error('no sandbox frame');
  const session = await page.context().newCDPSession(frame);
  const live = new Set<string>();
  session.on('Target.attachedToTarget', (ev) => {
    if (ev.targetInfo.type === 'worker' && ev.targetInfo.title === 'reward-py') live.add(ev.targetInfo.targetId);
  });
  session.on('Target.detachedFromTarget', (ev) => void (ev.targetId && live.delete(ev.targetId)));
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return () => live.size;
}

test('fresh Python interpreters for other code start while the user edits, not after every run, from the sandbox’s snapshot', async ({ page }) => {
  test.setTimeout(180_000);
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const history = page.getByRole('combobox', { name: 'Run history' }).locator('option');
  await expect(history).toHaveCount(2, { timeout: 90_000 });
  const count = await pythonWorkers(page);
  await expect.poll(count).toBeGreaterThanOrEqual(2);
  const pool = count();
  // Run again, the same code: its interpreters are kept, and nothing else starts.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(history).toHaveCount(3, { timeout: 60_000 });
  await page.waitForTimeout(1500);
  expect(count()).toBe(pool);
  // An edit: a spare per worker starts at once, before Run. The code tells whether its interpreter started from the
  // sandbox's snapshot, which holds the harness compiled (a Pyodide started the usual way does not).
  await typeReward(
    page,
    `import sys\n\ndef compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    return 1.0 if "_reward_studio_harness_code" in sys.modules else 0.0\n`,
  );
  await expect.poll(count, { timeout: 30_000 }).toBe(2 * pool);
  // Run: the spares take over, the old interpreters end.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitSummary(page, 'mean 1.0000 · 800 scored');
  await expect.poll(count, { timeout: 30_000 }).toBe(pool);
});

test('on many cores a Python pool starts four interpreters, and all of them once a run shows it is long', async ({ page }) => {
  test.setTimeout(180_000);
  // Six workers asked for (a 6-core machine's pool).
  await page.goto('/?workers=6');
  await expect(page.getByTestId('run-summary')).toContainText('800 scored');
  const count = await pythonWorkers(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const history = page.getByRole('combobox', { name: 'Run history' }).locator('option');
  await expect(history).toHaveCount(2, { timeout: 90_000 });
  await expect.poll(count).toBe(4);
  await page.waitForTimeout(1000);
  expect(count()).toBe(4);
  // 40 ms a row: 32 s of scoring over four interpreters, against one interpreter's start; the pool grows to six.
  await typeReward(
    page,
    `import time\n\ndef compute_score(data_source, solution_str, ground_truth, extra_info=None):\n    t = time.perf_counter()\n    while time.perf_counter() - t < 0.04:\n        pass\n    return 0.5\n`,
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitSummary(page, 'mean 0.5000 · 800 scored');
  // The edit's four spares took over from the first four; two more joined.
  await expect.poll(count, { timeout: 30_000 }).toBe(6);
});
