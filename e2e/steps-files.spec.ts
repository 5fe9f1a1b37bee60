// Datasets made of many files, one per training step (issue 24): a folder picked, several files picked, several
// files dropped. What a person sees: the status line's files and steps, skipped files and bad lines named by file,
// and a reward that reads t.step (from each file's name) scoring every row in the sandboxed workers.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectSaved, openStudio, statusLine, typeReward } from './helpers';

const line = (r: unknown) => JSON.stringify(r);
/** A verl rollout dump of one step: two prompts × two rollouts, no `step` field (the name gives it). */
const dump = (tag: string) =>
  ['A', 'A', 'B', 'B'].map((q, k) => line({ input: `Question ${q}?`, output: `answer ${tag}.${k}`, gts: '1', score: k % 2 })).join('\n') + '\n';

// Scores each row with its step, and fails a row that has none: the mean then says which steps the workers saw.
const STEP_REWARD = `export default function reward(t) {
  if (t.step === undefined) throw new Error('no step');
  return t.step;
}`;

async function pick(page: Page, button: string, files: string | string[]) {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: button }).click()]);
  await chooser.setFiles(files);
}

test.beforeEach(async ({ page }) => {
  await openStudio(page);
  await typeReward(page, STEP_REWARD);
});

test('Open folder: steps from the file names, groups per step, a skipped file and a bad line named by its file', async ({ page }) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'steps-')), 'run7');
  mkdirSync(dir);
  writeFileSync(join(dir, '1.jsonl'), dump('1'));
  const two = dump('2').split('\n');
  two.splice(2, 0, '{"input": broken'); // line 3 of 2.jsonl
  writeFileSync(join(dir, '2.jsonl'), two.join('\n'));
  writeFileSync(join(dir, '10.jsonl'), dump('10'));
  writeFileSync(join(dir, 'notes.md'), '# not data\n');
  await pick(page, 'Open folder', dir);
  // 12 rows; prompts A and B at each of 3 steps: 6 groups (a group never spans two steps).
  await expect(statusLine(page)).toContainText('12 trajectories · 6 groups');
  await expect(statusLine(page)).toContainText('run7 · 3 files · 3 steps');
  await expect(page.getByText('1 file was skipped')).toBeVisible();
  await page.getByRole('button', { name: /1 line could not be read/ }).click();
  await expect(page.getByRole('region', { name: 'Skipped lines' })).toContainText('2.jsonl line 3');
  // Steps 1, 2, 10, four rows each: mean (4 + 8 + 40) / 12 = 4.3333, every row scored in the workers.
  await expect(page.getByTestId('run-summary')).toContainText('mean 4.3333 · 12 scored', { timeout: 30_000 });
  await expect(page.getByTestId('run-summary')).not.toContainText('errors');
  // The detail view names the row's file and its line there.
  await page.getByRole('row').filter({ hasText: 'answer 10.2' }).click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toContainText('10.jsonl line 3 · step 10');
});

test('Upload trajectories with several files: a row’s own step field wins over its file’s name', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'steps-'));
  const trl = (step: number | null, tag: string) =>
    [0, 1].map((k) => line({ prompt: 'P?', completion: `c${tag}${k}`, ...(step === null ? {} : { step }) })).join('\n') + '\n';
  writeFileSync(join(dir, 'completions_3.jsonl'), trl(null, 'a'));
  writeFileSync(join(dir, 'completions_4.jsonl'), trl(40, 'b')); // its rows say step 40
  await pick(page, 'Upload trajectories', [join(dir, 'completions_4.jsonl'), join(dir, 'completions_3.jsonl')]);
  await expect(statusLine(page)).toContainText('4 trajectories · 2 groups');
  await expect(statusLine(page)).toContainText('2 files · 2 steps');
  // Steps 3, 3, 40, 40: mean 21.5.
  await expect(page.getByTestId('run-summary')).toContainText('mean 21.5000 · 4 scored', { timeout: 30_000 });
});

test('dropping several files opens them as one dataset', async ({ page }) => {
  const files = [
    { name: '5.jsonl', text: dump('5') },
    { name: '6.jsonl', text: dump('6') },
  ];
  await page.evaluate((fs) => {
    const dt = new DataTransfer();
    for (const f of fs) dt.items.add(new File([f.text], f.name, { type: 'application/jsonl' }));
    window.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
  }, files);
  await expect(statusLine(page)).toContainText('8 trajectories · 4 groups');
  await expect(statusLine(page)).toContainText('2 files · 2 steps');
  await expect(page.getByTestId('run-summary')).toContainText('mean 5.5000 · 8 scored', { timeout: 30_000 });
});

test('a folder’s session is named after it, saved with its files, and reopened after a reload', async ({ page }) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'steps-')), 'grpo-run');
  mkdirSync(dir);
  writeFileSync(join(dir, 'step_3.jsonl'), dump('3'));
  writeFileSync(join(dir, 'step_4.jsonl'), dump('4'));
  await pick(page, 'Open folder', dir);
  await expect(page.getByTestId('run-summary')).toContainText('mean 3.5000 · 8 scored', { timeout: 30_000 });
  await expect(page.getByText('New session “grpo-run”')).toBeVisible();
  await expectSaved(page);
  await page.reload();
  // Both files came back from the browser's storage, in order, with their steps; the run too (nothing re-ran).
  await expect(statusLine(page)).toContainText('8 trajectories · 4 groups · grpo-run · 2 files · 2 steps');
  await expect(page.getByTestId('run-summary')).toContainText('mean 3.5000 · 8 scored');
});

test('steps stream in: the first step is shown while the rest load, and Cancel keeps it', async ({ page }) => {
  // 80 files of 4,000 rows (~120 MB): the import goes on for a second or more after the first step is shown, even on
  // a quiet machine (about 100–200 MB/s here), so the progress and Cancel can be seen and pressed.
  const dir = join(mkdtempSync(join(tmpdir(), 'steps-')), 'long-run');
  mkdirSync(dir);
  const pad = 'x'.repeat(300);
  for (let s = 1; s <= 80; s++) {
    const rows = Array.from({ length: 4000 }, (_, k) => line({ input: `Question ${k >> 3}?`, output: `answer ${s}.${k} ${pad}`, gts: '1', score: 0 }));
    writeFileSync(join(dir, `${s}.jsonl`), rows.join('\n') + '\n');
  }
  await pick(page, 'Open folder', dir);
  // The first step's rows are on screen, and scored, while the others are still being read.
  await expect(statusLine(page)).toContainText('4,000 trajectories · 500 groups · long-run · 1 file · 1 step');
  await expect(page.getByRole('status', { name: 'Import progress' })).toContainText(/step \d+ of 80/);
  await page.getByRole('button', { name: 'Cancel import' }).click();
  await expect(page.getByRole('status', { name: 'Import progress' })).toHaveCount(0);
  await expect(statusLine(page)).toContainText('4,000 trajectories · 500 groups · long-run · 1 file · 1 step');
  await expect(page.getByTestId('run-summary')).toContainText('mean 1.0000 · 4,000 scored', { timeout: 30_000 });
});

test('a folder’s steps in Over steps and Per prompt; the group filter keeps a group id’s rows at every step', async ({ page }) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'steps-')), 'grpo');
  mkdirSync(dir);
  // TRL rows with the file's own group ids 200 and 7: two rollouts each, at steps 1, 2 and 3 (from the names).
  for (const step of [1, 2, 3])
    writeFileSync(
      join(dir, `completions_${step}.jsonl`),
      [200, 200, 7, 7].map((group, k) => line({ prompt: `Prompt ${group}?`, completion: `s${step} c${k}`, group })).join('\n') + '\n',
    );
  await pick(page, 'Open folder', dir);
  await expect(statusLine(page)).toContainText('12 trajectories · 6 groups');
  await expect(page.getByTestId('run-summary')).toContainText('12 scored', { timeout: 30_000 });

  await page.getByRole('tab', { name: 'Over steps' }).click();
  const steps = page.getByRole('table', { name: 'Figures per step' }).getByRole('row');
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(3).getByRole('rowheader')).toHaveText('3');
  await page.getByRole('radio', { name: 'Per prompt' }).check();
  await page.getByRole('searchbox', { name: 'Search prompts' }).fill('200');
  await expect(page.getByRole('listbox', { name: 'Prompt' }).getByRole('option')).toContainText('3 steps');

  // Group 200 is a group at each step; typing its id keeps all six of its rows.
  await page.getByLabel('Filter by group').fill('200');
  const table = page.getByRole('table', { name: 'Rollouts table' });
  await expect(table.getByRole('row')).toHaveCount(7);
  for (const step of [1, 2, 3]) await expect(table).toContainText(`s${step} c0`);
  await expect(table).not.toContainText('c2');
});

/**
 * A folder of CSV files, one of them gzip-compressed: files without a line index, each read whole by a reward worker
 * only when a task reaches its rows (the import counted them), the gzip one from its bytes decompressed at import.
 * The reward gives step × 10 + k for row `ck` of its file: a row read from another file or place changes the mean.
 */
test('a folder of CSV files, one gzip-compressed: every row scored from its own file', async ({ page }) => {
  const { gzipSync } = await import('node:zlib');
  const dir = mkdtempSync(join(tmpdir(), 'csv-steps-'));
  const csv = (step: number) => 'prompt,completion\n' + [0, 1, 2, 3].map((k) => `"Q${k >> 1}, step ${step}",c${k}`).join('\n') + '\n';
  writeFileSync(join(dir, '1.csv'), csv(1));
  writeFileSync(join(dir, '2.csv.gz'), gzipSync(csv(2)));
  writeFileSync(join(dir, '10.csv'), csv(10));
  await typeReward(page, 'export default function reward(t) {\n  return t.step * 10 + Number(t.completion.slice(1));\n}\n');
  await pick(page, 'Open folder', dir);
  await expect(statusLine(page)).toContainText('12 trajectories');
  await expect(statusLine(page)).toContainText('3 files · 3 steps');
  // Steps 1, 2, 10 (four rows each) and k = 0–3 in every file: mean 10 × 52 / 12 + 1.5 = 44.8333.
  await expect(page.getByTestId('run-summary')).toContainText('mean 44.8333 · 12 scored', { timeout: 30_000 });
});
