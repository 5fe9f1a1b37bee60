// Screenshots for the README, from the production build: `npx vite build && node scripts/screenshots.mjs`.
import { launch, PORT, startPreview } from '../bench/browser.mjs';

const server = await startPreview();
const browser = await launch();
try {
  const page = await (await browser.newContext({ viewport: { width: 1500, height: 940 } })).newPage();
  await page.goto(`http://localhost:${PORT}/`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  await page.locator('.rt-data').nth(2).click();
  await page.waitForTimeout(800);
  await page.screenshot({ path: 'docs/screenshot.png' });
  for (const [tab, file] of [['Length', 'length'], ['Advantage collapse', 'collapse']]) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForTimeout(800);
    await page.getByRole('region', { name: 'Diagnostics' }).screenshot({ path: `docs/diagnostics-${file}.png` });
  }
} finally {
  server.kill();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]);
  process.exit(0);
}
