import { expect, test, type Page } from '@playwright/test';
import type { SharedSession } from '../src/core/session/schema';
import { encodeShare } from '../src/core/session/shareCodec';
import { expectSaved, openStudio, runAndWait, statusLine, typeReward } from './helpers';

/** Issue 21: the Distribution tab's overlaid runs, the Group by column and a link's reward models survive a reload. */

const reward = (body: string) => `export default function reward(t) {\n  return ${body};\n}\n`;
const histogram = (page: Page) => page.getByRole('figure', { name: 'Reward histogram' });
const legend = (page: Page) => histogram(page).getByRole('list', { name: 'Runs shown' }).getByRole('listitem');

const shared = (over: Partial<SharedSession>): SharedSession => ({
  v: 2,
  name: 'Shared',
  editor: { language: 'ts', code: reward('1'), tokenizer: 'gpt2', timeLimitMs: 1000, pyFunction: null, pyBatchSize: 32 },
  ui: { diagTab: 'groupby', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
  data: { kind: 'demo' },
  run: null,
  ...over,
});

test('the runs overlaid in the Distribution tab and the Group by column come back after a reload', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, reward('(t.index % 4) / 4'));
  await runAndWait(page, 'mean 0.3750 · 800 scored');
  await typeReward(page, reward('t.index % 2 ? 0.5 : -0.5'));
  await runAndWait(page, 'mean 0.0000 · 800 scored');
  // By default run #2 (the previous one) is drawn with #3; the user adds #1 too.
  const picker = page.getByRole('group', { name: 'Draw with run #3' });
  await picker.getByRole('checkbox', { name: /^#1 ·/ }).check();
  await expect(legend(page)).toHaveText(['run #3 (current)', 'run #2', 'run #1']);

  await page.getByRole('tab', { name: 'Group by' }).click();
  const column = page.getByRole('combobox', { name: 'Group by column' });
  await expect(column).toHaveValue('model');
  await column.selectOption('is_correct_openai');
  await expect(page.getByRole('table', { name: 'Reward by group' }).getByRole('row')).toHaveCount(3);

  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.0000 · 800 scored');
  await expect(page.getByRole('tab', { name: 'Group by' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('combobox', { name: 'Group by column' })).toHaveValue('is_correct_openai');
  await page.getByRole('tab', { name: 'Distribution' }).click();
  await expect(legend(page)).toHaveText(['run #3 (current)', 'run #2', 'run #1']);
  await expect(page.getByRole('group', { name: 'Draw with run #3' }).getByRole('checkbox', { name: /^#1 ·/ })).toBeChecked();

  // Unticking every run is kept as it is too (not turned back into the default).
  await page.getByRole('group', { name: 'Draw with run #3' }).getByRole('checkbox', { name: /^#1 ·/ }).uncheck();
  await page.getByRole('group', { name: 'Draw with run #3' }).getByRole('checkbox', { name: /^#2 ·/ }).uncheck();
  await expect(histogram(page)).toHaveAttribute('data-runs', '1');
  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('run-summary')).toContainText('mean 0.0000 · 800 scored');
  await expect(histogram(page)).toHaveAttribute('data-runs', '1');
});

test('a link naming a column the data lacks and runs that do not exist opens with the defaults', async ({ page }) => {
  await openStudio(page);
  const ui = { ...shared({}).ui, groupBy: 'no_such_column', overlayRuns: [7, 8, 9, 10, 11] } as SharedSession['ui'];
  await page.goto(`/#s=${encodeShare(shared({ ui }))}`);
  await expect(page.getByLabel('Session name')).toHaveText('Shared');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups', { timeout: 45_000 });
  await runAndWait(page, 'mean 1.0000 · 800 scored'); // a link's code waits for Run
  await expect(page.getByRole('combobox', { name: 'Group by column' })).toHaveValue('model');
  // A value of the wrong kind is dropped, not a reason to refuse the link.
  const wrong = { ...shared({}).ui, groupBy: 42, overlayRuns: 'all' } as unknown as SharedSession['ui'];
  await page.goto(`/#s=${encodeShare(shared({ ui: wrong, name: 'Wrong kinds' }))}`);
  await expect(page.getByLabel('Session name')).toHaveText('Shared: Wrong kinds');
  await runAndWait(page, 'mean 1.0000 · 800 scored');
  await expect(page.getByRole('combobox', { name: 'Group by column' })).toHaveValue('model');
});

test("a session opened from a link still names the link's reward model after a reload", async ({ page }) => {
  const sha256 = 'ab'.repeat(32);
  const models: SharedSession['models'] = [
    {
      id: 'judge',
      name: 'judge-model',
      inputs: [{ name: 'input_ids', shape: ['batch', 'seq'] }],
      outputs: [{ name: 'logits', shape: ['batch', 1] }],
      size: 1_234_000,
      sha256,
    },
  ];
  await openStudio(page);
  await page.goto(`/#s=${encodeShare(shared({ models, editor: { ...shared({}).editor, code: 'export default (t, ctx) => ctx.models.judge;\n' } }))}`);
  await expect(page.getByLabel('Session name')).toHaveText('Shared');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups', { timeout: 45_000 });
  const wanted = page.getByRole('region', { name: 'Models the shared reward uses' });
  await expect(wanted.getByRole('listitem')).toContainText('judge-model as ctx.models.judge · 1.2 MB');
  await expect(wanted.getByRole('listitem')).toContainText('not loaded');

  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups', { timeout: 45_000 });
  await expect(wanted.getByRole('listitem')).toContainText('judge-model as ctx.models.judge · 1.2 MB');
  await expect(wanted.getByRole('listitem')).toContainText('not loaded');
});
