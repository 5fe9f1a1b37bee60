import { expect, test } from '@playwright/test';
import { openStudio, statusLine, upload } from './helpers';

test('open a rollout: the conversation, its reward and ground truth; arrow keys move', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('row').filter({ hasText: 'Janet eats 3 duck eggs for breakfast and bakes 4' }).click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail.getByRole('heading')).toContainText('Rollout 3');
  await expect(detail.getByRole('listitem', { name: 'user turn' })).toContainText('Janet’s ducks lay 16 eggs per day');
  await expect(detail.getByRole('listitem', { name: 'assistant turn' })).toContainText('A: 18');
  await expect(detail.getByTestId('detail-reward')).toHaveText('1');
  await expect(detail).toContainText('Ground truth18');
  await page.keyboard.press('ArrowDown');
  await expect(detail.getByRole('heading')).toContainText('Rollout 4');
  await expect(detail.getByRole('heading')).toContainText('group 1');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(detail.getByRole('heading')).toContainText('Rollout 2');
  await page.getByRole('button', { name: 'Close rollout' }).click();
  await expect(detail).toBeHidden();
});

test('tool calls are shown with pretty-printed arguments, tool results, and text stays text', async ({ page }) => {
  await openStudio(page);
  const row = {
    messages: [
      { role: 'user', content: 'Weather in Paris? <img src=x onerror="window.__pwned=1"> **bold**' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"C"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_9', content: '{"temp": 22}' },
      { role: 'assistant', content: 'It is 22°C.' },
    ],
  };
  await upload(page, 'tools.jsonl', Buffer.from(JSON.stringify(row) + '\n'));
  await expect(statusLine(page)).toContainText('1 trajectory · 1 group');
  await page.getByRole('row').filter({ hasText: 'It is 22°C.' }).click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  const call = detail.getByLabel('tool call get_weather');
  await expect(call).toContainText('get_weather');
  expect(await call.locator('pre').textContent()).toBe('{\n  "city": "Paris",\n  "unit": "C"\n}');
  await expect(detail.getByRole('listitem', { name: 'tool turn' })).toContainText('reply to call_9');
  await expect(detail.getByRole('listitem', { name: 'tool turn' })).toContainText('{"temp": 22}');
  await expect(detail.getByRole('listitem', { name: 'user turn' })).toContainText('<img src=x onerror="window.__pwned=1"> **bold**');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('sort and filter the table: reward, one group, text search, errors only', async ({ page }) => {
  await openStudio(page);
  const shown = page.getByTestId('shown-count');
  await expect(shown).toHaveText('800 shown');
  await page.getByRole('button', { name: 'Sort by reward' }).click();
  const firstReward = page.locator('.rt-data').first().locator('.c-reward');
  await expect(firstReward).toHaveText('1');
  await page.getByRole('button', { name: 'Sort by reward' }).click();
  await expect(firstReward).toHaveText('0');
  await page.getByRole('textbox', { name: 'Filter by group' }).fill('0');
  await expect(shown).toHaveText('4 shown');
  await page.getByRole('textbox', { name: 'Filter by group' }).fill('');
  await page.getByRole('searchbox', { name: 'Search text' }).fill('BOLTS');
  await expect(shown).toHaveText('4 shown');
  await page.getByRole('searchbox', { name: 'Search text' }).fill('');
  await expect(shown).toHaveText('800 shown');
  await page.getByRole('checkbox', { name: 'Errors only' }).check();
  await expect(shown).toHaveText('0 shown');
});

test('text search reads the file: escaped text, any case, numbers as they read, typed key by key', async ({ page }) => {
  await openStudio(page);
  // A file as Python's json.dumps writes it (\u escapes) and as other writers do (\/, exponents).
  const lines = [
    String.raw`{"prompt": "O\u00f9 est le caf\u00e9 ?", "completion": "Au coin."}`,
    '{"prompt": "café au lait", "completion": "Merci."}',
    String.raw`{"prompt": "Which path?", "completion": "a\/b"}`,
    '{"prompt": "Tokens?", "completion": "Many.", "budget": 1e3}',
  ];
  await upload(page, 'escaped.jsonl', Buffer.from(lines.join('\n') + '\n'));
  await expect(statusLine(page)).toContainText('4 trajectories');
  const shown = page.getByTestId('shown-count');
  const search = page.getByRole('searchbox', { name: 'Search text' });
  await search.click();
  await page.keyboard.type('CAFÉ', { delay: 120 });
  await expect(shown).toHaveText('2 shown');
  await expect(page.getByRole('row').filter({ hasText: 'Au coin.' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Search status' })).toHaveText('');
  await search.fill('a/b');
  await expect(shown).toHaveText('1 shown');
  await search.fill('1000');
  await expect(shown).toHaveText('1 shown');
  await expect(page.getByRole('row').filter({ hasText: 'Many.' })).toBeVisible();
  await search.fill('zebra');
  await expect(shown).toHaveText('0 shown');
  await search.press('Control+a');
  await search.press('Backspace');
  await expect(shown).toHaveText('4 shown');
});

test('clicking a histogram bar shows the rollouts behind it', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('figure', { name: 'Reward histogram' }).getByRole('button', { name: 'reward 1, 295 rollouts' }).click();
  await expect(page.getByTestId('shown-count')).toHaveText('295 shown');
  await expect(page.getByText('reward 1 · run #1')).toBeVisible();
  await page.getByRole('button', { name: 'Clear chart selection' }).click();
  await expect(page.getByTestId('shown-count')).toHaveText('800 shown');
});

test('the table stays virtualized at 100,000 rows', async ({ page }) => {
  await openStudio(page);
  const line = (k: number) => JSON.stringify({ prompt: `question ${k % 25000}`, completion: `answer ${k}` });
  const text = Array.from({ length: 100000 }, (_, k) => line(k)).join('\n');
  await upload(page, 'hundred-k.jsonl', Buffer.from(text));
  await expect(statusLine(page)).toContainText('100,000 trajectories · 25,000 groups', { timeout: 30000 });
  const rows = page.locator('.rt-data');
  expect(await rows.count()).toBeLessThan(100);
  await page.locator('.rt-body').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.locator('.rt-data[data-row="99999"]')).toBeVisible();
  expect(await rows.count()).toBeLessThan(100);
});
