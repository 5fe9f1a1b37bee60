// Main-thread time of the diagnostics for 100,000 rollouts, in Debian's Chromium: after a run lands, open each tab
// of the Diagnostics panel (Distribution, Length, Advantage collapse, Label check, Compare runs) and time from the click
// to the frame after it is drawn (computing the statistics for every row + rendering the charts). Baseline in the same
// page and run: sorting 100,000 random doubles (Float64Array.prototype.sort) on the main thread.
// Usage: npx vite build && node bench/diagnostics.bench.mjs [rows] [reps]
import { mkdirSync } from 'node:fs';
import { launch, median, openStudioPage, pasteReward, PORT, shutDown, sortBaselineMs, startPreview } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 5);
const FMT = ROWS.toLocaleString('en-US');
const TABS = ['Distribution', 'Length', 'Advantage collapse', 'Label check', 'Compare runs'];
const REWARD = `export default function reward(t) {
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : t.completion.length / 1000;
}
`;

mkdirSync('bench/out', { recursive: true });
const path = `bench/out/reward-${ROWS}.jsonl`;
writeRollouts(path, ROWS);
const server = await startPreview();
const browser = await launch();
try {
  const { page } = await openStudioPage(browser, `http://localhost:${PORT}/`, { viewport: { width: 1600, height: 1000 } });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 300_000 });
  // A second, continuous reward so the compare tab has two runs and the statistics are not all 0/1.
  await pasteReward(page, REWARD);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.locator('select[aria-label="Run history"] option').nth(1).waitFor({ state: 'attached', timeout: 120_000 });
  await page.waitForTimeout(1000);

  const perTab = Object.fromEntries(TABS.map((t) => [t, []]));
  const sorts = [];
  for (let r = 0; r < REPS; r++) {
    for (const tab of TABS) {
      // Leave the tab and come back: each visit recomputes that tab's statistics from the run's typed arrays.
      const ms = await page.evaluate(async (name) => {
        const click = (n) => [...document.querySelectorAll('[role="tab"]')].find((b) => b.textContent === n).click();
        const frame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
        click(name === 'Distribution' ? 'Length' : 'Distribution');
        await frame();
        await new Promise((res) => setTimeout(res, 200));
        const t0 = performance.now();
        click(name);
        await frame();
        return performance.now() - t0;
      }, tab);
      perTab[tab].push(ms);
    }
    sorts.push(await sortBaselineMs(page, ROWS));
  }
  const total = TABS.reduce((s, t) => s + median(perTab[t]), 0);
  const sort = median(sorts);
  console.log(`Diagnostics for ${FMT} rollouts, medians of ${REPS} (main thread, click → next frame):`);
  for (const t of TABS) console.log(`  ${t.padEnd(20)} ${median(perTab[t]).toFixed(0).padStart(6)} ms   (${perTab[t].map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  all five tabs        ${total.toFixed(0).padStart(6)} ms`);
  console.log(`  baseline: sort of ${FMT} doubles ${sort.toFixed(1)} ms → diagnostics = ${(total / sort).toFixed(1)}× one sort`);
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
