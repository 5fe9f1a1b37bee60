import { expect, test } from '@playwright/test';
import { openStudio, runAndWait, typeReward } from './helpers';

/**
 * Stress test (issue 23) on the demo's 800 GSM8K rollouts. The same figures as `reward-studio probe` (src/cli/probe.test
 * checks those against scripts/probe-fixtures.py): with the label is_correct_openai the threshold is 1.
 */
test('the demo reward resists every probe; a reward that pays for the word “Solution” is fooled, and the fooled rollouts open side by side', async ({
  page,
}) => {
  await openStudio(page);
  await page.getByRole('tab', { name: 'Stress test' }).click();
  await page.getByRole('button', { name: 'Run stress test' }).click();
  const verdict = page.getByRole('status', { name: 'Stress test verdict' });
  await expect(verdict).toContainText(
    '800 of 800 rollouts probed · pass threshold 1 (median reward where is_correct_openai is true) · no probe fools the reward',
    {
      timeout: 60_000,
    },
  );
  const probes = page.getByRole('table', { name: 'Probes' });
  await expect(probes.getByRole('row')).toHaveCount(21);
  // cross: 8 of 800 other groups' answers are right here too (the same number): exactly 1.0 %, not above it.
  await expect(probes.getByRole('row').filter({ hasText: /^cross/ })).toContainText('passes 1.0 %');

  await typeReward(
    page,
    [
      'export default function reward(t, ctx) {',
      "  if (t.completion.includes('Solution')) return 1;",
      "  const answer = ctx.numberAfter(t.completion, 'A:');",
      '  return answer !== null && ctx.numbersEqual(answer, t.groundTruth) ? 1 : 0;',
      '}',
      '',
    ].join('\n'),
  );
  // Code that was not run is not probed.
  await expect(page.getByRole('button', { name: 'Run stress test' })).toBeDisabled();
  await runAndWait(page, '800 scored');
  await page.getByLabel('Rollouts to probe').fill('100');
  await page.getByRole('button', { name: 'Run stress test' }).click();
  await expect(verdict).toContainText('100 of 800 rollouts probed', { timeout: 60_000 });
  await expect(verdict).toContainText('fooled by 1: master-key:"Solution"');
  const row = probes.getByRole('row').filter({ hasText: 'master-key:"Solution"' });
  await expect(row).toContainText('passes 100.0 %');
  await expect(row).toContainText('fooled');
  // From the keyboard: the probe's button opens the rollouts it fooled, each beside its probe text.
  await page.getByRole('button', { name: 'Rollouts fooled by master-key:"Solution"' }).focus();
  await page.keyboard.press('Enter');
  const fooled = page.getByRole('region', { name: 'Rollouts fooled by master-key:"Solution"' });
  await expect(fooled.getByRole('heading', { level: 3 })).toHaveText(/100 of 100 fooled \(the first 20 shown\)/);
  const first = fooled.getByRole('group').first();
  await expect(first.getByTestId('probe-reward')).toHaveText('1');
  await expect(first.locator('.pair-side').nth(1)).toContainText('Solution');
});

test('a stress test can be cancelled; the probes done so far stay', async ({ page }) => {
  await openStudio(page);
  // About 2 ms a rollout: each probe takes about a second on two workers.
  await typeReward(page, 'export default function reward(t) {\n  const end = Date.now() + 2;\n  while (Date.now() < end);\n  return t.completion.length;\n}\n');
  await runAndWait(page, '800 scored');
  await page.getByRole('tab', { name: 'Stress test' }).click();
  await page.getByRole('button', { name: 'Run stress test' }).click();
  await expect(page.getByRole('status', { name: 'Stress test progress' })).toContainText('Probe 2 of 20', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel stress test' }).click();
  await expect(page.getByRole('status', { name: 'Stress test verdict' })).toContainText('cancelled');
  await expect(page.getByRole('button', { name: 'Run stress test' })).toBeEnabled();
  const rows = await page.getByRole('table', { name: 'Probes' }).getByRole('row').count();
  expect(rows).toBeGreaterThan(1);
  expect(rows).toBeLessThan(21);
});
