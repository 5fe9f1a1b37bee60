// Download rows (issue 21): the longest main-thread task while the studio writes the file of a 100,000-rollout
// dataset (scored by the default reward), as shipped (built in the data worker) against the same file built on the
// page's thread (`?rowsOnPage`, the studio before this change), in the same rounds, order alternating. Also the time
// from the click to the download, and the file's size (both variants must give the same bytes: checked).
// Usage: npx vite build && node bench/download.bench.mjs [rows] [reps] [format: jsonl|csv|parquet]
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { cpuSample, launch, median, PORT, shutDown, startPreview, stealSince, watchLongTasks } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 3);
const FORMATS = process.argv[4] ? [process.argv[4]] : ['jsonl', 'csv', 'parquet'];
const LABELS = { jsonl: 'JSONL', csv: 'CSV', parquet: 'Parquet' };

mkdirSync('bench/out', { recursive: true });
const path = `bench/out/download-${ROWS}.jsonl`;
writeRollouts(path, ROWS);
// BENCH_PORT: another port than browser.mjs's 4180, where several people bench on one machine.
const port = Number(process.env.BENCH_PORT ?? PORT);
const server = await startPreview({ port });
const browser = await launch();
try {
  const page = await browser.newPage({ acceptDownloads: true });
  await page.goto(`http://localhost:${port}/`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page
    .getByTestId('run-summary')
    .getByText(`${ROWS.toLocaleString('en-US')} scored`)
    .waitFor({ timeout: 300_000 });
  await page.waitForTimeout(500);

  /** Click Download rows; the longest task from the click to the download, its wall time, and the file's hash. */
  const download = async (format, query) => {
    await watchLongTasks(page, query);
    await page.getByRole('combobox', { name: 'Download format' }).selectOption(LABELS[format]);
    const t0 = Date.now();
    const start = await page.evaluate(() => performance.now());
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 300_000 }), page.getByRole('button', { name: 'Download rows' }).click()]);
    const wall = Date.now() - t0;
    const file = await dl.path();
    await page.waitForTimeout(300); // long tasks are reported once they have ended
    const long = await page.evaluate((t) => Math.max(0, ...window.__long.filter(([s, d]) => s + d > t).map(([, d]) => d)), start);
    const bytes = readFileSync(file);
    return { long, wall, size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') };
  };

  const cpu = cpuSample();
  const results = {};
  for (const format of FORMATS) {
    await download(format, ''); // warm-up: the first request of a kind compiles its code in the worker
    const ours = [];
    const page_ = [];
    for (let rep = 0; rep < REPS; rep++) {
      const pair = rep % 2 === 0 ? [await download(format, ''), await download(format, '?rowsOnPage')] : [null, await download(format, '?rowsOnPage')];
      if (!pair[0]) pair[0] = await download(format, '');
      const [w, p] = pair;
      if (w.hash !== p.hash) throw new Error(`${format}: the worker's file differs from the page's (${w.size} against ${p.size} bytes)`);
      ours.push(w);
      page_.push(p);
      console.log(
        `${format} rep ${rep + 1}: longest main-thread task ${w.long.toFixed(0)} ms in the worker, ${p.long.toFixed(0)} ms on the page · click to file ${w.wall} / ${p.wall} ms · ${(w.size / 1e6).toFixed(1)} MB`,
      );
    }
    results[format] = { ours, page: page_ };
  }
  console.log(`\nDownload rows of ${ROWS.toLocaleString('en-US')} scored rollouts, medians of ${REPS}; steal during the rounds: ${stealSince(cpu)}`);
  for (const [format, { ours, page: p }] of Object.entries(results)) {
    const lw = median(ours.map((r) => r.long));
    const lp = median(p.map((r) => r.long));
    console.log(
      `  ${format.padEnd(8)} longest main-thread task: ${lw.toFixed(0)} ms (worker) against ${lp.toFixed(0)} ms (page) = ${(lw / Math.max(1, lp)).toFixed(3)}× · click to file ${median(ours.map((r) => r.wall))} / ${median(p.map((r) => r.wall))} ms · ${(ours[0].size / 1e6).toFixed(1)} MB, same bytes`,
    );
  }
} finally {
  await shutDown(server, browser);
}
