import { expect, test, type Page } from '@playwright/test';
import { openStudio, runAndWait, typeReward, upload } from './helpers';

// Expected values: scripts/e2e-diagnostics-expected.py (numpy/scipy, the default reward re-implemented in Python,
// GPT-2 token counts from Hugging Face's Rust tokenizers).
const dd = (page: Page, list: string, term: string) => page.locator(`dl[aria-label="${list}"] dt:text-is("${term}") + dd`);
const LENGTH_REWARD = 'export default function reward(t) {\n  return t.completion.length > 250 ? 1 : 0;\n}\n';

test('distribution tab: statistics of the demo run, the previous run drawn behind after a second run', async ({ page }) => {
  await openStudio(page);
  await expect(page.getByRole('tab', { name: 'Distribution' })).toHaveAttribute('aria-selected', 'true');
  await expect(dd(page, 'Reward statistics', 'mean')).toHaveText('0.3688');
  await expect(dd(page, 'Reward statistics', 'std')).toHaveText('0.4825');
  await expect(dd(page, 'Reward statistics', 'min / max')).toHaveText('0 / 1');
  await expect(dd(page, 'Reward statistics', 'distinct values')).toHaveText('2');
  await expect(dd(page, 'Reward statistics', 'null')).toHaveText('0.0%');
  await typeReward(page, LENGTH_REWARD);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  await expect(page.getByRole('figure', { name: 'Reward histogram' })).toContainText('run #1 (previous)');
});

test('length tab: correlations in characters and GPT-2 tokens; a binned mean opens its rollouts', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('tab', { name: 'Length' }).click();
  await expect(dd(page, 'Length correlation', 'Pearson r')).toHaveText('-0.3134');
  await expect(dd(page, 'Length correlation', 'Spearman ρ')).toHaveText('-0.3461');
  await expect(dd(page, 'Length correlation', 'within-group r (mean)')).toHaveText('0.0762 over 101 groups');
  await expect(page.getByRole('figure', { name: 'Reward vs length' })).toHaveAttribute('data-points', '800');
  await page.getByRole('combobox', { name: 'Length unit' }).selectOption('tokens');
  await expect(dd(page, 'Length correlation', 'Pearson r')).toHaveText('-0.3124', { timeout: 30_000 });
  await expect(dd(page, 'Length correlation', 'Spearman ρ')).toHaveText('-0.3496');
  // Clicking a point opens that rollout in the detail view; clicking a binned mean opens the rollouts of its bin.
  const canvas = page.getByRole('figure', { name: 'Reward vs length' }).getByRole('img');
  await expect(canvas).toHaveAccessibleName(/800 points, \d+ binned means/);
  const at = async (attr: string) => {
    const [x, y] = (await canvas.getAttribute(attr))!.split(',').map(Number);
    return { x, y };
  };
  // The points' places are known once the canvas has been measured; opening the detail view may resize it again.
  await expect(canvas).toHaveAttribute('data-first-point', /^\d+,\d+$/);
  await canvas.click({ position: await at('data-first-point') });
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toBeVisible();
  await expect(async () => {
    await canvas.click({ position: await at('data-first-line') });
    await expect(page.getByText(/^length \d/)).toBeVisible({ timeout: 1000 });
  }).toPass();
});

test('advantage collapse tab: zero-std groups split all-max / all-min, estimator presets, a collapsed group opens', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('tab', { name: 'Advantage collapse' }).click();
  const c = (t: string) => dd(page, 'Advantage collapse', t);
  await expect(c('groups')).toHaveText('200');
  await expect(c('group sizes')).toHaveText('4: 200');
  await expect(c('zero reward std (frac_reward_zero_std)')).toHaveText('49.5%');
  await expect(c('· all max / all min / other')).toHaveText('12.5% / 37.0% / 0.0%');
  await expect(c('reward std < 1e-3')).toHaveText('49.5%');
  // Every rollout of a zero-std group has advantage 0 under TRL's estimator; no other rollout does here (0/1 rewards).
  await expect(c('rollouts with zero advantage')).toHaveText('49.5%');
  await page.getByRole('combobox', { name: 'Advantage estimator' }).selectOption('rloo');
  await expect(page.getByRole('figure', { name: 'Advantage histogram' })).toContainText('RLOO');
  await expect(page.getByRole('list', { name: 'Collapsed groups' }).getByRole('listitem')).toHaveCount(61); // 60 listed + "… and 39 more"
  const first = page.getByRole('list', { name: 'Collapsed groups' }).getByRole('button').first();
  const g = (await first.textContent())!.replace('group ', '');
  await first.click();
  await expect(page.getByRole('textbox', { name: 'Filter by group' })).toHaveValue(g);
  await expect(page.locator('.rt-data')).toHaveCount(4);
});

test('label check tab: agreement with is_correct_openai, confusion table, the disagreements open', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('tab', { name: 'Label check' }).click();
  await expect(page.getByRole('combobox', { name: 'Trusted label' })).toHaveValue('is_correct_openai');
  await expect(dd(page, 'Label agreement', 'agreement')).toHaveText('100.0%');
  await typeReward(page, LENGTH_REWARD);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  const table = page.getByRole('table', { name: 'Confusion table' });
  await expect(table.getByRole('row', { name: /reward 1/ })).toHaveText(/95\s*306/);
  await expect(table.getByRole('row', { name: /reward 0/ })).toHaveText(/200\s*199/);
  await page.getByRole('button', { name: 'Open disagreements (506)' }).click();
  await expect(page.getByText('disagrees with is_correct_openai')).toBeVisible();
});

test('compare tab: rank correlations, flips and the code diff of two runs', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, LENGTH_REWARD);
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  await expect(dd(page, 'Run comparison', 'Spearman ρ')).toHaveText('-0.2740');
  await expect(dd(page, 'Run comparison', 'Kendall τ-b')).toHaveText('-0.2740');
  await expect(dd(page, 'Run comparison', 'flips 0→1 / 1→0')).toHaveText('306 / 200');
  await expect(page.getByLabel('Code diff')).toContainText('+   return t.completion.length > 250 ? 1 : 0;');
  await page.getByRole('button', { name: 'Open changed rollouts (506)' }).click();
  await expect(page.getByText('changed between #1 and #2')).toBeVisible();
});

test('collapse per training step when rows carry a step', async ({ page }) => {
  await openStudio(page);
  // 3 steps × 2 groups of 2; correct = "A: 1". Zero-std groups: step 0 one of two, step 1 both, step 2 none → 3/6.
  const rows = [
    [0, 'a', [1, 1]],
    [0, 'b', [1, 2]],
    [1, 'c', [2, 2]],
    [1, 'd', [2, 2]],
    [2, 'e', [1, 2]],
    [2, 'f', [2, 1]],
  ].flatMap(([step, uid, answers]) =>
    (answers as number[]).map((a) => JSON.stringify({ prompt: `q ${uid}`, completion: `work\nA: ${a}`, ground_truth: '1', uid, step })),
  );
  await upload(page, 'steps.jsonl', Buffer.from(rows.join('\n') + '\n'));
  await expect(page.getByTestId('run-summary')).toContainText('12 scored');
  await page.getByRole('tab', { name: 'Advantage collapse' }).click();
  await expect(dd(page, 'Advantage collapse', 'zero reward std (frac_reward_zero_std)')).toHaveText('50.0%');
  await expect(page.getByRole('figure', { name: 'Collapse per step' })).toHaveAttribute('data-steps', '3');
});

test('distribution tab: one histogram per reward component', async ({ page }) => {
  await openStudio(page);
  await typeReward(
    page,
    'export default function reward(t) {\n  const long = t.completion.length > 250 ? 1 : 0;\n  return { score: long, components: { long, short: 1 - long } };\n}\n',
  );
  await runAndWait(page, 'mean 0.5012 · 800 scored');
  const comps = page.getByLabel('Reward components');
  await expect(comps.getByRole('figure', { name: 'Component long histogram' })).toContainText('mean 0.501');
  await expect(comps.getByRole('figure', { name: 'Component short histogram' })).toContainText('mean 0.499');
});

test('distribution tab: component histograms of a large file come from the stats worker', async ({ page }) => {
  await openStudio(page);
  // 60,000 rows (above the 50,000 from which the tabs compute in their worker): `half` is 1 on even rows (mean 0.5),
  // `quarter` on rows ≡ 0 mod 4 (15,000 of them, mean 0.25).
  await typeReward(
    page,
    'export default function reward(t) {\n  const half = t.index % 2 === 0 ? 1 : 0;\n  const quarter = t.index % 4 === 0 ? 1 : 0;\n  return { score: half, components: { half, quarter } };\n}\n',
  );
  const line = (k: number) => JSON.stringify({ prompt: `question ${k % 15000}`, completion: `answer ${k}` });
  await upload(page, 'sixty-k.jsonl', Buffer.from(Array.from({ length: 60000 }, (_, k) => line(k)).join('\n')));
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.5000 · 60,000 scored', { timeout: 60_000 });
  const comps = page.getByLabel('Reward components');
  await expect(comps.getByRole('figure', { name: 'Component half histogram' })).toContainText('mean 0.500');
  const quarter = comps.getByRole('figure', { name: 'Component quarter histogram' });
  await expect(quarter).toContainText('mean 0.250');
  await expect(quarter.getByRole('button', { name: 'quarter 1: 15000 rollouts' })).toBeVisible();
});

test('length tab in tokens on a larger file: counting shows its state, then the correlations', async ({ page }) => {
  test.slow(); // 10,000 imported rows on a shared two-core machine
  await openStudio(page);
  // Made-up words (a fixed-seed generator) ending in <|endoftext|>, as many dumps do.
  let seed = 12345;
  const letter = () => String.fromCharCode(97 + (((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % 26));
  const word = () => Array.from({ length: 7 }, letter).join('');
  const rows = Array.from({ length: 10_000 }, (_, i) =>
    JSON.stringify({
      prompt: `q${i >> 2}`,
      completion: `${Array.from({ length: 40 + (i % 37) }, word).join(' ')}\nA: ${i % 3}<|endoftext|>`,
      ground_truth: '1',
      uid: `g${i >> 2}`,
    }),
  );
  await upload(page, 'tokens.jsonl', Buffer.from(rows.join('\n') + '\n'));
  await expect(page.getByTestId('run-summary')).toContainText('10,000 scored');
  await page.getByRole('tab', { name: 'Length' }).click();
  await page.getByRole('combobox', { name: 'Length unit' }).selectOption('tokens');
  // The state is shown while the tokenizer loads and counts. (Counting 10,000 rows takes about 0.15 s, under the
  // 0.2 s after which the count so far is reported, so that line is not asserted: a quiet machine never shows it.)
  await expect(page.getByRole('status').filter({ hasText: 'Counting GPT-2 tokens' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Reward vs length' }).getByRole('img')).toHaveAccessibleName(/3000 points/, { timeout: 60_000 });
});
