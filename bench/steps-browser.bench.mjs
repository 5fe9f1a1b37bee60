// The Over steps tab in Debian's Chromium on a generated run (bench/rollouts.mjs: a step per 1,000 rollouts, so
// 100,000 rows are 100 steps, the same 250 groups at each): after the import and the studio's own run, open the tab and time from the click to its
// per-step table being drawn, then each of its other views; record the page's long tasks meanwhile. Baseline in the
// same page: sorting as many random doubles as there are rows.
// Usage: npx vite build && node bench/steps-browser.bench.mjs [rows] [reps]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { launch, median, shutDown, sortBaselineMs, startPreview, watchLongTasks } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 3);
const FMT = ROWS.toLocaleString('en-US');
const PORT = 4392;

mkdirSync('bench/out', { recursive: true });
const path = `bench/out/steps-${ROWS}.jsonl`;
writeRollouts(path, ROWS);
// The same 250 prompts (by their uid, the group column) at every step, as a trainer samples a prompt set again.
const lines = readFileSync(path, 'utf8')
  .split('\n')
  .filter((l) => l !== '');
writeFileSync(path, lines.map((l, i) => JSON.stringify({ ...JSON.parse(l), uid: `q${Math.floor((i % 1000) / 4)}` })).join('\n') + '\n');
const server = await startPreview({ port: PORT });
const browser = await launch();
try {
  const page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
  await page.goto(`http://localhost:${PORT}/`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 300_000 });
  await page.waitForTimeout(1000);
  const steps = Math.ceil(ROWS / 1000);
  const times = { 'Over steps': [], 'Per prompt': [], 'Compare two steps': [] };
  const longest = { 'Over steps': [], 'Per prompt': [], 'Compare two steps': [] };
  const sorts = [];
  for (let r = 0; r < REPS; r++) {
    await page.getByRole('tab', { name: 'Distribution' }).click();
    await page.waitForTimeout(500);
    for (const view of Object.keys(times)) {
      await watchLongTasks(page, '');
      const t0 = await page.evaluate(() => performance.now());
      if (view === 'Over steps') {
        await page.getByRole('tab', { name: 'Over steps' }).click();
        await page.getByRole('table', { name: 'Figures per step' }).getByRole('row').nth(steps).waitFor({ timeout: 60_000 });
      } else if (view === 'Per prompt') {
        await page.getByRole('radio', { name: view }).check();
        await page.getByRole('table', { name: "Prompt's mean reward per step" }).waitFor({ timeout: 60_000 });
      } else {
        await page.getByRole('radio', { name: view }).check();
        await page.locator('dl[aria-label="Step comparison"]').waitFor({ timeout: 60_000 });
      }
      const [t1, long] = await page.evaluate(
        () => new Promise((res) => requestAnimationFrame(() => setTimeout(() => res([performance.now(), window.__long]), 0))),
      );
      times[view].push(t1 - t0);
      longest[view].push(Math.max(0, ...long.filter(([s]) => s >= t0).map(([, d]) => d)));
      if (process.env.STEPS_DEBUG)
        console.log(
          view,
          long
            .filter(([s]) => s >= t0)
            .map(([s, d]) => `${(s - t0).toFixed(0)}+${d.toFixed(0)}`)
            .join(' '),
        );
    }
    await page.getByRole('radio', { name: 'Over steps' }).check();
    sorts.push(await sortBaselineMs(page, ROWS));
  }
  const sort = median(sorts);
  console.log(`Over steps tab, ${FMT} rollouts in ${steps} steps, medians of ${REPS} (click → drawn; longest main-thread task):`);
  for (const v of Object.keys(times)) {
    console.log(`  ${v.padEnd(18)} ${median(times[v]).toFixed(0).padStart(6)} ms   longest task ${median(longest[v]).toFixed(0).padStart(4)} ms`);
  }
  console.log(`  baseline: sort of ${FMT} doubles ${sort.toFixed(1)} ms`);
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
