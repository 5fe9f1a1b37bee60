import { gzipSync } from 'node:zlib';
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

const jsonl = (rows: unknown[]) => Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
const format = (page: Page) => page.getByRole('combobox', { name: 'Format', exact: true });

test.beforeEach(async ({ page }) => {
  await openStudio(page);
});

test('TRL standard prompt/completion JSONL: groups by identical prompt', async ({ page }) => {
  const rows = ['What is 2+2?', 'What is 3+3?'].flatMap((p) => [0, 1, 2].map((k) => ({ prompt: p, completion: `try ${k}` })));
  await upload(page, 'trl.jsonl', jsonl(rows));
  await expect(statusLine(page)).toContainText('6 trajectories · 2 groups');
  await expect(format(page)).toHaveValue('trl-standard');
});

test('TRL conversational with tool calls (arguments as objects) and an explicit group column', async ({ page }) => {
  const rows = [0, 1, 2, 3].map((k) => ({
    prompt: [{ role: 'user', content: 'Weather in Paris?' }],
    completion: [
      { role: 'assistant', content: '', tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
      { role: 'tool', name: 'get_weather', content: '22°C' },
      { role: 'assistant', content: `It is 22°C (${k})` },
    ],
    group_id: k < 2 ? 'a' : 'b',
  }));
  await upload(page, 'conv.jsonl', jsonl(rows));
  await expect(statusLine(page)).toContainText('4 trajectories · 2 groups');
  await expect(format(page)).toHaveValue('trl-conversational');
});

test('OpenAI messages with tool_calls (arguments as a JSON string) and tool replies', async ({ page }) => {
  const rows = [0, 1, 2].map((k) => ({
    uid: `q${k % 2}`,
    messages: [
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Add 2 and 3' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '5' },
      { role: 'assistant', content: 'The sum is 5.' },
    ],
  }));
  await upload(page, 'chat.jsonl', jsonl(rows));
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  await expect(format(page)).toHaveValue('openai-messages');
});

test('verl rollout dump: grouped by identical input', async ({ page }) => {
  const rows = ['Q1', 'Q1', 'Q2', 'Q2', 'Q2'].map((input, k) => ({ input, output: `A: ${k}`, gts: '1', score: k % 2, step: 3, acc: k % 2 === 1 }));
  await upload(page, '3.jsonl', jsonl(rows));
  await expect(statusLine(page)).toContainText('5 trajectories · 2 groups');
  await expect(format(page)).toHaveValue('verl-dump');
});

test('TRL completions parquet', async ({ page }) => {
  await upload(page, 'completions_00010.parquet', readFileSync('src/core/formats/fixtures/trl-completions.parquet'));
  await expect(format(page)).toHaveValue('trl-completions');
  await expect(statusLine(page)).toContainText(/\d+ trajectories · \d+ groups/);
  await expect(page.getByText('PARQUET · detected as')).toBeVisible();
});

test('preference pairs: each pair becomes two rollouts', async ({ page }) => {
  const rows = [
    { prompt: 'p1', chosen: 'good 1', rejected: 'bad 1' },
    { prompt: 'p2', chosen: 'good 2', rejected: 'bad 2' },
    { prompt: 'p3', chosen: 'good 3', rejected: 'bad 3' },
  ];
  await upload(page, 'prefs.jsonl', jsonl(rows));
  await expect(statusLine(page)).toContainText('6 trajectories · 3 groups');
  await expect(format(page)).toHaveValue('preference');
});

test('RewardBench 2 rows with chosen/rejected lists', async ({ page }) => {
  const rows = [
    { id: 'r1', prompt: 'q1', chosen: ['c1'], rejected: ['x1', 'y1', 'z1'], subset: 'Math' },
    { id: 'r2', prompt: 'q2', chosen: ['c2'], rejected: ['x2', 'y2', 'z2'], subset: 'Focus' },
  ];
  await upload(page, 'rb2.jsonl', jsonl(rows));
  await expect(statusLine(page)).toContainText('8 trajectories · 2 groups');
  await expect(format(page)).toHaveValue('rewardbench2');
});

test('CSV with quoted commas and newlines', async ({ page }) => {
  const csv = 'prompt,completion,ground_truth\n"Add 1, 2","1+2=3\nA: 3",3\n"Add 1, 2",A: 4,3\nDouble 5,A: 10,10\n';
  await upload(page, 'data.csv', Buffer.from(csv), 'text/csv');
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  await expect(page.getByText('CSV · detected as')).toBeVisible();
});

test('JSON array and gzip-compressed JSONL', async ({ page }) => {
  const rows = [
    { prompt: 'a', completion: 'x' },
    { prompt: 'b', completion: 'y' },
  ];
  await upload(page, 'rows.json', Buffer.from(JSON.stringify(rows, null, 2)), 'application/json');
  await expect(statusLine(page)).toContainText('2 trajectories · 2 groups');
  await expect(page.getByText('JSON · detected as')).toBeVisible();
  const many = Array.from({ length: 50 }, (_, k) => ({ prompt: `p${k % 10}`, completion: `c${k}` }));
  await upload(page, 'rows.jsonl.gz', gzipSync(jsonl(many)), 'application/gzip');
  await expect(statusLine(page)).toContainText('50 trajectories · 10 groups');
  await expect(page.getByText('JSONL (gzip) · detected as')).toBeVisible();
});

test('a file with 3 bad lines out of 100 reports those line numbers and loads 97', async ({ page }) => {
  const lines = Array.from({ length: 100 }, (_, k) => JSON.stringify({ prompt: `p${k % 25}`, completion: `c${k}` }));
  lines[9] = '{"prompt": "p", "completion": ';
  lines[49] = 'not json at all';
  lines[98] = '[1, 2, 3]';
  await upload(page, 'bad.jsonl', Buffer.from(lines.join('\n')));
  await expect(statusLine(page)).toContainText('97 trajectories · 25 groups');
  await page.getByRole('button', { name: /3 lines could not be read/ }).click();
  const list = page.getByRole('region', { name: 'Skipped lines' });
  await expect(list.getByText('line 10', { exact: true })).toBeVisible();
  await expect(list.getByText('line 50', { exact: true })).toBeVisible();
  await expect(list.getByText('line 99', { exact: true })).toBeVisible();
  await expect(list.locator('li')).toHaveCount(3);
});

test('a binary file is refused with a message and the old data stays', async ({ page }) => {
  const bytes = Buffer.alloc(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
  await upload(page, 'model.bin', bytes);
  await expect(page.getByRole('alert', { name: 'Import error' })).toContainText('Could not import model.bin');
  await expect(page.getByRole('alert', { name: 'Import error' })).toContainText(/binary/i);
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
});

test('an empty file and a file with no usable rows get clear messages; the old data stays', async ({ page }) => {
  await upload(page, 'empty.jsonl', Buffer.from(''));
  await expect(page.getByRole('alert', { name: 'Import error' })).toContainText(/empty/i);
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await upload(page, 'junk.jsonl', Buffer.from('{bad\n{worse\n'));
  await expect(page.getByRole('alert', { name: 'Import error' })).toContainText(/no usable rows/i);
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
});

test('unknown columns open the column-mapping dialog', async ({ page }) => {
  const rows = [0, 1, 2, 3].map((k) => ({ question: `q${k % 2}`, model_output: `out ${k}`, ref: String(k), qid: k % 2 }));
  await upload(page, 'custom.jsonl', jsonl(rows));
  const dialog = page.getByRole('dialog', { name: 'Map columns' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Prompt column' }).selectOption('question');
  await dialog.getByRole('combobox', { name: 'Completion column' }).selectOption('model_output');
  await dialog.getByRole('combobox', { name: 'Group column' }).selectOption('qid');
  await dialog.getByRole('combobox', { name: 'Ground truth column' }).selectOption('ref');
  await dialog.getByRole('button', { name: 'Import with mapping' }).click();
  await expect(statusLine(page)).toContainText('4 trajectories · 2 groups');
  await expect(format(page)).toHaveValue('mapped');
});

test('the detected format can be changed and the file is read again', async ({ page }) => {
  const rows = [0, 1, 2, 3].map((k) => ({ step: 10, prompt: `p${k % 2}`, completion: `c${k}`, accuracy_reward: k % 2, advantage: k % 2 ? 0.5 : -0.5 }));
  await upload(page, 'completions.jsonl', jsonl(rows));
  await expect(format(page)).toHaveValue('trl-completions');
  await format(page).selectOption('trl-standard');
  await expect(format(page)).toHaveValue('trl-standard');
  await expect(page.getByText('detected as TRL completions')).toBeVisible();
  await expect(statusLine(page)).toContainText('4 trajectories · 2 groups');
});

test('paste JSONL text to import it', async ({ page }) => {
  await page.getByRole('button', { name: 'Paste' }).click();
  await page.getByRole('textbox', { name: 'Pasted trajectories' }).fill('{"prompt":"a","completion":"b"}\n{"prompt":"a","completion":"c"}');
  await page.getByRole('button', { name: 'Import pasted text' }).click();
  await expect(statusLine(page)).toContainText('2 trajectories · 1 group');
});

test('drag and drop a file onto the page', async ({ page }) => {
  const text = '{"prompt":"x","completion":"1"}\n{"prompt":"y","completion":"2"}\n{"prompt":"y","completion":"3"}\n';
  const dt = await page.evaluateHandle((t) => {
    const d = new DataTransfer();
    d.items.add(new File([t], 'dropped.jsonl', { type: 'application/jsonl' }));
    return d;
  }, text);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer: dt });
  await page.dispatchEvent('main', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('main', 'drop', { dataTransfer: dt });
  await expect(statusLine(page)).toContainText('3 trajectories · 2 groups');
  await expect(statusLine(page)).toContainText('dropped.jsonl');
});

test('a long import shows progress and can be cancelled; the old data stays', async ({ page }) => {
  // One row per batch sent to the page: 50,000 messages take seconds on any machine, so the click on Cancel lands
  // before the import ends (with the usual batches this ~110 MB file took under a second, and the test raced it).
  await page.goto('/?batchRows=1');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  const line = JSON.stringify({ prompt: 'p'.repeat(200), completion: 'c'.repeat(2000) }) + '\n';
  const path = test.info().outputPath('big.jsonl');
  writeFileSync(path, line.repeat(50000)); // ~110 MB, handed to the page as a file on disk
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  const cancel = page.getByRole('button', { name: 'Cancel import' });
  await cancel.click();
  await expect(cancel).toBeHidden();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(page.getByRole('alert', { name: 'Import error' })).toHaveCount(0);
  // The data worker still answers for the data shown (it had read the whole file when the click came).
  await page.getByRole('row').nth(1).click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail.getByRole('listitem', { name: 'assistant turn' }).first()).toBeVisible();
  await expect(detail).not.toContainText('c'.repeat(100));
});

test('a gzip file says it is being decompressed, then counts its rows, and can be cancelled; the old data stays', async ({ page }) => {
  // One row per batch (as above), so the click on Cancel lands while the rows come.
  await page.goto('/?batchRows=1');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  // ~120 MB of text that gzip shrinks ~3×: decompressing it takes a few tenths of a second, with a progress report
  // per 4 MB read (the page shows progress at most every 100 ms).
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau'.split(' ');
  let seed = 1;
  const word = () => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length];
  const lines: string[] = [];
  for (let i = 0; i < 150_000; i++) lines.push(JSON.stringify({ prompt: `Q${i >> 2}`, completion: Array.from({ length: 120 }, word).join(' ') }));
  const path = test.info().outputPath('big.jsonl.gz');
  writeFileSync(path, gzipSync(lines.join('\n') + '\n', { level: 1 }));
  // Every text the progress row shows, as it changes.
  await page.evaluate(() => {
    (window as unknown as { shown: string[] }).shown = [];
    new MutationObserver(() => {
      const row = document.querySelector('.progress-row .muted');
      if (row) (window as unknown as { shown: string[] }).shown.push(row.textContent ?? '');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  // It said so while it decompressed, then counted the rows as they came.
  const shown = () => page.evaluate(() => (window as unknown as { shown: string[] }).shown);
  await expect
    .poll(async () => {
      const s = await shown();
      const at = s.indexOf('big.jsonl.gz: decompressing…');
      return at >= 0 && s.slice(at).some((t) => /^big\.jsonl\.gz: [1-9][\d,]* rows$/.test(t));
    })
    .toBe(true);
  const cancel = page.getByRole('button', { name: 'Cancel import' });
  await cancel.click();
  await expect(cancel).toBeHidden();
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  await expect(page.getByRole('alert', { name: 'Import error' })).toHaveCount(0);
});

test('a large JSONL is read in pieces by several workers: the same rows, groups and bad lines; rows of a later piece open and are found', async ({ page }) => {
  // Two pieces (the default is one fewer than the cores) of at least 4 KiB (the default is 16 MB): this 30 KB file is
  // read in pieces.
  await page.goto('/?pieceBytes=4096&pieces=2');
  await expect(statusLine(page)).toContainText('800 trajectories · 200 groups');
  const lines = Array.from({ length: 300 }, (_, k) =>
    JSON.stringify({
      prompt: `Question ${Math.floor(k / 3)}: how many?`,
      completion: `I think ${k}${k === 280 ? ' zebra' : ''}. A: ${k % 7}`,
      uid: `q${Math.floor(k / 3)}`,
      step: Math.floor(k / 100),
    }),
  );
  lines[20] = '{"prompt": "cut off", "completion": ';
  lines[250] = 'not json at all';
  await upload(page, 'pieces.jsonl', Buffer.from(lines.join('\n') + '\n'));
  // 100 uids; q33 (rows 99–101) and q66 (rows 198–200) straddle a step, and a group never spans two steps: 102.
  await expect(statusLine(page)).toContainText('298 trajectories · 102 groups');
  expect(page.workers().some((w) => w.url().includes('import-piece'))).toBe(true);
  await page.getByRole('button', { name: /2 lines could not be read/ }).click();
  const list = page.getByRole('region', { name: 'Skipped lines' });
  await expect(list.getByText('line 21', { exact: true })).toBeVisible();
  await expect(list.getByText('line 251', { exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search text' }).fill('zebra');
  await expect(page.getByTestId('shown-count')).toHaveText('1 shown');
  await page.getByRole('row').filter({ hasText: 'zebra' }).click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail.getByRole('listitem', { name: 'assistant turn' })).toContainText('I think 280 zebra. A: 0');
  await expect(detail.getByRole('listitem', { name: 'user turn' })).toContainText('Question 93: how many?');
});

/**
 * 1,200 rows whose completions read `A<i>` and whose `model` is m<i mod 3>, 400 of each: a reward that is 1 exactly
 * when i mod 3 = 1 gives model m1 a mean of 1 and the others 0, in Group by's table, only if every row was read from
 * its own place in the file.
 */
async function expectRewardByModel(page: Page): Promise<void> {
  await expect(statusLine(page)).toContainText('1,200 trajectories');
  await typeReward(page, 'export default function reward(t) {\n  return parseInt(t.completion.slice(1), 10) % 3 === 1 ? 1 : 0;\n}\n');
  await runAndWait(page, '1,200 scored');
  await page.getByRole('tab', { name: 'Group by' }).click();
  await expect(page.getByRole('combobox', { name: 'Group by column' })).toHaveValue('model');
  const table = page.getByRole('table', { name: 'Reward by group' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').nth(1)).toHaveText(['m0', '400', '0', '0'].join(''));
  await expect(table.getByRole('row').nth(2)).toHaveText(['m1', '400', '1', '0'].join(''));
  await expect(table.getByRole('row').nth(3)).toHaveText(['m2', '400', '0', '0'].join(''));
}

/**
 * A gzip JSONL file is decompressed once, and its rows are read back from those bytes by their lines' spans: by the
 * reward workers and by the table's text search. The reward reads the completion (`A<i>`, from those lines) and Group
 * by splits by `model` (m<i mod 3>, collected at import): the figures a person counts in the file need each row read
 * in its own place.
 */
test('a gzip JSONL file is scored row by row, each row read back in its place, and searched', async ({ page }) => {
  const lines = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ prompt: `Q${i >> 2} ça`, completion: `A${i} 日本`, model: `m${i % 3}` }));
  await upload(page, 'models.jsonl.gz', gzipSync(Buffer.from(lines.join('\n') + '\n')), 'application/gzip');
  await expectRewardByModel(page);
  await expect(page.getByText('JSONL (gzip) · detected as')).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search text' });
  await search.click();
  await page.keyboard.type('a1199 日本', { delay: 50 });
  await expect(page.getByTestId('shown-count')).toHaveText('1 shown');
  await expect(page.getByRole('row').filter({ hasText: 'A1199 日本' })).toBeVisible();
});

/**
 * One Parquet file: each reward worker reads the rows of its tasks by their row numbers in the file (row groups of
 * 500, rows without a completion skipped at import, so rows and file rows differ). The reward reads each completion
 * (`A<i>`) and Group by splits by `model`: every figure needs each row read from its own place in the file.
 */
test('a Parquet file is scored row by row, each row read by its row number in the file', async ({ page }) => {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const n = 1500;
  // Every 5th row has no completion (an issue at import): 1,200 rows scored from 1,500 in the file.
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'prompt', type: 'STRING', data: Array.from({ length: n }, (_, i) => `Q${i >> 2} ça`) },
      { name: 'completion', type: 'STRING', data: Array.from({ length: n }, (_, i) => (i % 5 === 4 ? null : `A${i} 日本`)) },
      { name: 'model', type: 'STRING', data: Array.from({ length: n }, (_, i) => `m${i % 3}`) },
    ],
    rowGroupSize: 500,
  });
  await upload(page, 'models.parquet', Buffer.from(buf), 'application/vnd.apache.parquet');
  // File rows i with i mod 5 ≠ 4: 400 of each model.
  await expectRewardByModel(page);
  await expect(page.getByText('PARQUET · detected as')).toBeVisible();
});
