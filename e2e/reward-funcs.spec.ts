import { expect, test } from '@playwright/test';
import { expectSaved, openStudio, typeReward } from './helpers';

// Loading Pyodide in each worker takes seconds on these machines.
test.setTimeout(240_000);

/**
 * A TRL training script's rewards, pasted unchanged. Expected figures from CPython on the same file and the demo data
 * (800 rollouts): total mean 1.234375; format_reward mean 0.99375, std 0.078859; accuracy_reward (795 values,
 * 5 None) mean 0.371069, std 0.483395 (statistics.stdev, Bessel, as TRL's nanstd).
 */
const SCRIPT = [
  'def format_reward(completions, **kwargs):',
  '    return [1.0 if "A:" in c else 0.0 for c in completions]',
  '',
  '',
  'def accuracy_reward(completions, ground_truth, **kwargs):',
  '    out = []',
  '    for c, gt in zip(completions, ground_truth):',
  '        at = c.rfind("A:")',
  '        if at < 0:',
  '            out.append(None)',
  '        else:',
  '            out.append(1.0 if c[at + 2:].strip().rstrip(".").replace(",", "") == gt.replace(",", "") else 0.0)',
  '    return out',
  '',
  '',
  'reward_funcs = [format_reward, accuracy_reward]',
  'reward_weights = [0.5, 2.0]',
  '',
].join('\n');

test('a reward_funcs list with reward_weights: the weighted total, each function’s mean and std, its histogram a click away', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(page, SCRIPT);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText('mean 1.2344 · 800 scored', { timeout: 120_000 });
  await expect(page.getByRole('combobox', { name: 'Reward function' })).toHaveValue('reward_funcs');
  await expect(page.getByLabel('Reward function choice')).toContainText(
    'reward_funcs: TRL reward_funcs, format_reward × 0.5 + accuracy_reward × 2 (default: reward_funcs is the list GRPOTrainer is given)',
  );
  const table = page.getByRole('table', { name: 'Reward functions' });
  await expect(table.getByRole('row').filter({ hasText: 'format_reward' })).toHaveText(/format_reward\s*0\.5\s*0\.99\d+\s*0\.0789\s*0/);
  await expect(table.getByRole('row').filter({ hasText: 'accuracy_reward' })).toHaveText(/accuracy_reward\s*2\s*0\.3711\s*0\.4834\s*0/);
  // One click shows accuracy_reward's own distribution (two values, 0 and 1; its 5 None rows left out).
  await page.getByRole('button', { name: 'Histogram of accuracy_reward' }).click();
  await expect(page.getByLabel('Histogram shows')).toHaveText('accuracy_reward (weight 2)');
  await expect(page.locator('dl[aria-label="Reward statistics"] dt:text-is("mean") + dd')).toHaveText('0.3711');
  await expect(page.locator('dl[aria-label="Reward statistics"] dt:text-is("distinct values") + dd')).toHaveText('2');
  await expect(page.getByRole('figure', { name: 'Reward histogram', exact: true })).toHaveAttribute('data-bins', '2');
  // From the keyboard, back to the weighted total.
  await page.getByRole('button', { name: 'Weighted total' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Histogram shows')).toHaveText('Weighted total of the reward functions');
  await expect(page.locator('dl[aria-label="Reward statistics"] dt:text-is("mean") + dd')).toHaveText('1.2344');
  // The run keeps its functions across a reload (the session stores their names and weights).
  await expectSaved(page);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Reward functions' }).getByRole('row').filter({ hasText: 'accuracy_reward' })).toHaveText(
    /accuracy_reward\s*2\s*0\.3711\s*0\.4834\s*0/,
    { timeout: 30_000 },
  );
});

/** The same two functions in TypeScript, listed as TRL lists them: the same figures as CPython gives for SCRIPT. */
const TS_LIST = [
  "import type { Trajectory } from 'reward-studio';",
  '',
  'function format_reward(t: Trajectory) {',
  "  return t.completion.includes('A:') ? 1 : 0;",
  '}',
  '',
  'function accuracy_reward(t: Trajectory) {',
  "  const at = t.completion.lastIndexOf('A:');",
  '  if (at < 0) return null;',
  "  const answer = t.completion.slice(at + 2).trim().replace(/\\.+$/, '').replaceAll(',', '');",
  "  return answer === String(t.groundTruth).replaceAll(',', '') ? 1 : 0;",
  '}',
  '',
  'export const rewardFuncs = [format_reward, accuracy_reward];',
  'export const rewardWeights = [0.5, 2.0];',
  '',
].join('\n');

test('TypeScript: export const rewardFuncs with rewardWeights gives the same weighted total and per-function figures', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, TS_LIST);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText('mean 1.2344 · 800 scored');
  const table = page.getByRole('table', { name: 'Reward functions' });
  await expect(table.getByRole('row').filter({ hasText: 'format_reward' })).toHaveText(/format_reward\s*0\.5\s*0\.99\d+\s*0\.0789\s*0/);
  await expect(table.getByRole('row').filter({ hasText: 'accuracy_reward' })).toHaveText(/accuracy_reward\s*2\s*0\.3711\s*0\.4834\s*0/);
  await page.getByRole('button', { name: 'Histogram of format_reward' }).click();
  await expect(page.getByLabel('Histogram shows')).toHaveText('format_reward (weight 0.5)');
  // A weight list TRL would refuse stops the run with TRL's reason.
  await typeReward(page, TS_LIST.replace('[0.5, 2.0]', '[0.5]'));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'does not compile' })).toContainText('rewardWeights has 1 weights for 2 reward functions');
});
