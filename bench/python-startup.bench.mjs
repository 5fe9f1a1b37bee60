// Python start-up in the browser: from pressing Run on the Python template (first Python run of the page: each
// worker loads Pyodide) to the 800 demo rollouts scored; then a second Python run (interpreters warm), and the same
// reward in TypeScript as the baseline measured in the same page.
// Usage: npx vite build && node bench/python-startup.bench.mjs [reps]
import { launch, median, PORT, shutDown, startPreview } from './browser.mjs';

const REPS = Number(process.argv[2] ?? 3);
const server = await startPreview();
const browser = await launch();

async function timeRun(page) {
  return page.evaluate(async () => {
    const runs = () => document.querySelectorAll('select[aria-label="Run history"] option').length;
    const before = runs();
    const t0 = performance.now();
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Run').click();
    while (runs() <= before) await new Promise((r) => setTimeout(r, 10));
    return performance.now() - t0;
  });
}

try {
  const first = [];
  const warm = [];
  const ts = [];
  for (let r = 0; r < REPS; r++) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://localhost:${PORT}/`);
    await page.getByTestId('run-summary').getByText('800 scored').waitFor();
    ts.push(await timeRun(page));
    await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
    first.push(await timeRun(page));
    warm.push(await timeRun(page));
    await page.context().close();
  }
  console.log(`Python in the browser, 800 demo rollouts, medians of ${REPS} fresh pages:`);
  console.log(`  first Python run (starts Pyodide in each worker): ${median(first).toFixed(0)} ms  (${first.map((x) => x.toFixed(0)).join(', ')})`);
  console.log(`  second Python run (warm):                         ${median(warm).toFixed(0)} ms`);
  console.log(`  the same reward in TypeScript (baseline):         ${median(ts).toFixed(0)} ms`);
  console.log(`  start-up cost ≈ ${(median(first) - median(warm)).toFixed(0)} ms; warm Python / TypeScript = ${(median(warm) / median(ts)).toFixed(1)}×`);
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
