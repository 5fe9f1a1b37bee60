import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { expectSaved, openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

const shown = (page: Page) => page.getByTestId('shown-count');
const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

test("group ids: the file's own group value is shown, filtered on and opened; prompt groups get a stable label", async ({ page }) => {
  await openStudio(page);
  const lines = [
    { prompt: 'What is 6*7?', completion: 'forty-two A: 42', ground_truth: '42', group: 200 },
    { prompt: 'What is 6*7?', completion: 'thirty-six A: 36', ground_truth: '42', group: 200 },
    { prompt: 'Spell cat.', completion: 'c-a-t', ground_truth: 'cat', group: 7 },
    { prompt: 'Spell cat.', completion: 'k-a-t', ground_truth: 'cat', group: 7 },
  ];
  await upload(page, 'grouped.jsonl', Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));
  await expect(statusLine(page)).toContainText('4 trajectories · 2 groups');
  // The file's values, not positions 0 and 1.
  await expect(row(page, 'thirty-six').getByRole('cell').nth(1)).toHaveText('200');
  await expect(row(page, 'k-a-t').getByRole('cell').nth(1)).toHaveText('7');
  const filter = page.getByRole('textbox', { name: 'Filter by group' });
  await filter.click();
  await page.keyboard.type('7');
  await expect(shown(page)).toHaveText('2 shown');
  await expect(row(page, 'c-a-t')).toBeVisible();
  await expect(row(page, 'forty-two')).toHaveCount(0);
  await filter.fill('1');
  await expect(page.getByText('no group “1”')).toBeVisible();
  await expect(shown(page)).toHaveText('0 shown');
  await filter.fill('200');
  await expect(shown(page)).toHaveText('2 shown');
  await row(page, 'thirty-six').click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' }).getByRole('heading')).toContainText('group 200');
  await page.keyboard.press('Escape');
  await filter.fill('');
  await expect(shown(page)).toHaveText('4 shown');
  // Sorting by group follows the values: 7 before 200.
  await page.getByRole('button', { name: 'Sort by group' }).click();
  await expect(page.locator('.rt-data').first().getByRole('cell').nth(1)).toHaveText('7');

  // No group column: groups of identical prompts, labelled "p-" + cyrb53 of the prompt (scripts/group-label-fixtures.py).
  const noGroup = lines.map(({ prompt, completion }) => JSON.stringify({ prompt, completion })).join('\n') + '\n';
  await upload(page, 'prompts.jsonl', Buffer.from(noGroup));
  await expect(statusLine(page)).toContainText('4 trajectories · 2 groups');
  await expect(row(page, 'thirty-six').getByRole('cell').nth(1)).toHaveText('p-0f47f1461e0e20');
  await expect(row(page, 'k-a-t').getByRole('cell').nth(1)).toHaveText('p-1ea964a458e9b4');
  await filter.fill('p-1ea964a458e9b4');
  await expect(shown(page)).toHaveText('2 shown');
});

test('Columns: advantage and a field as columns, sorted and filtered by range and text, remembered after a reload', async ({ page }) => {
  test.setTimeout(150_000); // many steps and a reload on a shared 2-core machine
  await openStudio(page);
  const columns = page.getByRole('button', { name: 'Columns' });
  await columns.click();
  const panel = page.getByRole('group', { name: 'Table columns and filters' });
  await panel.getByRole('checkbox', { name: 'Advantage' }).check();
  await panel.getByRole('checkbox', { name: 'model' }).check();
  await expect(page.getByRole('columnheader', { name: 'Advantage' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'model' })).toBeVisible();
  // Demo rows 0–3 are group 0; row 1 is 6b_verification.
  await expect(page.locator('.rt-data[data-row="1"] .c-extra').nth(1)).toHaveText('6b_verification');
  await columns.click(); // closes the menu, which lies over the headers
  // TRL GRPO: a lone correct answer among 4 gets (1 − 0.25) / (0.5 + 1e-4) = 1.49970006 (worked by hand; std is Bessel's).
  await page.getByRole('button', { name: 'Sort by Advantage' }).click();
  await page.getByRole('button', { name: 'Sort by Advantage' }).click();
  await expect(page.getByRole('columnheader', { name: 'Advantage' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.locator('.rt-data').first().locator('.c-extra').first()).toHaveText('1.4997');
  await columns.click();
  // Positive advantage = the correct answers in groups that are not all equal: 195 of the 800 (counted in Python
  // from is_correct_openai, which the default reward matches row for row).
  await panel.getByRole('textbox', { name: 'Minimum Advantage' }).fill('0.0001');
  await expect(page.getByTestId('shown-count')).toHaveText('195 shown');
  await panel.getByRole('textbox', { name: 'model contains' }).fill('175B');
  await expect(page.getByTestId('shown-count')).toHaveText('125 shown');
  await expect(columns).toHaveText('Columns · 2 filters');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('shown-count')).toHaveText('125 shown');
  await expect(page.getByRole('columnheader', { name: 'Advantage' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('columnheader', { name: 'model' })).toBeVisible();
  await page.getByRole('button', { name: 'Columns · 2 filters' }).click();
  await expect(panel.getByRole('textbox', { name: 'Minimum Advantage' })).toHaveValue('0.0001');
  await panel.getByRole('checkbox', { name: 'model' }).uncheck();
  await expect(page.getByTestId('shown-count')).toHaveText('195 shown');
});

const THROWING_REWARD = `export default function reward(t) {
  if (t.completion === 'boom') throw new Error('no answer');
  return { score: t.completion.length / 10, components: { short: t.completion.length < 3 ? 1 : 0 } };
}
`;

test('Download rows: the filtered rows as JSONL, CSV and Parquet, read back with an int64 group id and an errored row', async ({ page }) => {
  test.setTimeout(150_000); // an upload, a run and three downloads on a shared 2-core machine
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const { parquetReadObjects } = await import('hyparquet');
  const big = 9007199254740993n; // 2^53 + 1: a double cannot hold it
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'prompt', data: ['p1', 'p1', 'p2', 'p2', 'p3'], type: 'STRING' },
      { name: 'completion', data: ['42', 'boom', 'hello', 'x', 'dropped'], type: 'STRING' },
      { name: 'group', data: [big, big, 200n, 200n, 5n], type: 'INT64' },
    ],
  });
  await openStudio(page);
  await upload(page, 'rollouts.parquet', Buffer.from(buf));
  await expect(statusLine(page)).toContainText('5 trajectories · 3 groups');
  await typeReward(page, THROWING_REWARD);
  await runAndWait(page, '4 scored');
  // Filter: leave group 5 out (reward at most 0.5 keeps the rows scoring 0.2, 0.5 and 0.1; the errored row has none,
  // so the filter is on length instead: at most 5 characters).
  await page.getByRole('button', { name: 'Columns' }).click();
  await page.getByRole('textbox', { name: 'Maximum Length' }).fill('5');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shown-count')).toHaveText('4 shown');
  await page.getByRole('button', { name: 'Sort by length' }).click(); // descending: hello(5), boom(4), 42(2), x(1)

  // Expected, by hand: TRL advantages (r − μ) / (σ + 1e-4). Group big: only "42" scored (0.2), n = 1 → 0.
  // Group 200: 0.5 and 0.1, μ = 0.3, σ (Bessel) = 0.2828427…, so ±0.2 / 0.2829427… = ±0.70685…
  const adv200 = 0.2 / (Math.sqrt(0.08) + 1e-4);
  const want = [
    { index: 2, group: '200', status: 'ok', reward: 0.5, advantage: adv200, length: 5, error: null, short: 0 },
    { index: 1, group: String(big), status: 'error', reward: null, advantage: null, length: 4, error: 'Error: no answer (line 2)', short: null },
    { index: 0, group: String(big), status: 'ok', reward: 0.2, advantage: 0, length: 2, error: null, short: 1 },
    { index: 3, group: '200', status: 'ok', reward: 0.1, advantage: -adv200, length: 1, error: null, short: 1 },
  ];
  const download = async (format: string) => {
    await page.getByRole('combobox', { name: 'Download format' }).selectOption({ label: format });
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download rows' }).click()]);
    return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  };
  const close = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) < 1e-12);
  const check = (
    got: {
      index: number;
      group: string;
      status: string;
      reward: number | null;
      advantage: number | null;
      length: number;
      error: string | null;
      short: number | null;
    }[],
  ) => {
    expect(got.map((g) => [g.index, g.group, g.status, g.length, g.error, g.short])).toEqual(
      want.map((w) => [w.index, w.group, w.status, w.length, w.error, w.short]),
    );
    got.forEach((g, k) => {
      expect(close(g.reward, want[k].reward), `reward of row ${g.index}`).toBe(true);
      expect(close(g.advantage, want[k].advantage), `advantage of row ${g.index}`).toBe(true);
    });
  };

  const jsonl = await download('JSONL');
  expect(jsonl.name).toBe('rollouts-rows.jsonl');
  const parsed = jsonl.bytes
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown> & { components: { short: number | null } });
  check(parsed.map((r) => ({ ...(r as never as (typeof want)[number]), short: r.components.short })));

  const csv = await download('CSV');
  expect(csv.name).toBe('rollouts-rows.csv');
  const lines = csv.bytes.toString('utf8').trimEnd().split('\r\n');
  expect(lines[0]).toBe('index,group,status,reward,advantage,length,error,components.short');
  const num = (s: string) => (s === '' ? null : Number(s));
  check(
    lines.slice(1).map((l) => {
      const c = l.split(',');
      return {
        index: Number(c[0]),
        group: c[1],
        status: c[2],
        reward: num(c[3]),
        advantage: num(c[4]),
        length: Number(c[5]),
        error: c[6] || null,
        short: num(c[7]),
      };
    }),
  );

  const pq = await download('Parquet');
  expect(pq.name).toBe('rollouts-rows.parquet');
  const ab = pq.bytes.buffer.slice(pq.bytes.byteOffset, pq.bytes.byteOffset + pq.bytes.byteLength);
  const rows = (await parquetReadObjects({ file: ab })) as Record<string, unknown>[];
  check(
    rows.map((r) => ({
      index: Number(r.index as bigint),
      group: r.group as string,
      status: r.status as string,
      reward: r.reward as number | null,
      advantage: r.advantage as number | null,
      length: Number(r.length as bigint),
      error: r.error as string | null,
      short: r['components.short'] as number | null,
    })),
  );
});

test('completion previews: batches of ASCII and Latin-1 travel as bytes, others as UTF-16; the table shows them all', async ({ page }) => {
  await openStudio(page);
  // Batches of 2 rows: bytes, UTF-16, bytes, then a batch widened at its second row (an escaped U+0100).
  await page.evaluate(() => history.replaceState(null, '', '/?batchRows=2'));
  const completions = ['plain answer 42', 'café crème ÿ', '日本語の答え', 'emoji 😀 here', 'ascii again', 'Latin-1 é again', 'before it'];
  const lines = completions.map((c, k) => JSON.stringify({ prompt: `p${k}`, completion: c }));
  lines.push('{"prompt":"p7","completion":"escaped \\u0100 too"}');
  await upload(page, 'previews.jsonl', Buffer.from(lines.join('\n') + '\n'));
  await expect(statusLine(page)).toContainText('8 trajectories');
  for (const c of [...completions, 'escaped Ā too']) await expect(row(page, c)).toHaveCount(1);
});
