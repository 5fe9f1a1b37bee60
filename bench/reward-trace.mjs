// Where a short 2-worker reward run spends its time, from a Chromium trace (all processes: the page, the sandbox
// frame's renderer, the reward workers): per thread, CPU busy time and top-level tasks during each traced run, and
// how far apart the workers' scoring ended. A profiling aid for bench/reward.bench.mjs, not a benchmark.
// Usage: npx vite build && node bench/reward-trace.mjs [rows] [runs] [workers]   (BENCH_PORT sets the port)
import { mkdirSync, writeFileSync } from 'node:fs';
import { launch, PORT, shutDown, startPreview } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const RUNS = Number(process.argv[3] ?? 5);
const WORKERS = Number(process.argv[4] ?? 2);
const FMT = ROWS.toLocaleString('en-US');
const REWARD = `export default function reward(t) {
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;
}
`;

mkdirSync('bench/out', { recursive: true });
const path = `bench/out/reward-${ROWS}.jsonl`;
writeRollouts(path, ROWS);
const server = await startPreview();
const browser = await launch();

try {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await page.goto(`http://localhost:${PORT}/?workers=${WORKERS}`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 300_000 });
  await page.evaluate((t) => navigator.clipboard.writeText(t), REWARD);
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.waitForFunction((t) => localStorage.getItem('reward-studio:code') === t, REWARD);
  const run = () =>
    page.evaluate(async () => {
      await new Promise((r) => setTimeout(r, 300));
      performance.clearMeasures('reward-run');
      const runs = () => document.querySelectorAll('select[aria-label="Run history"] option').length;
      const before = runs();
      const t0 = performance.timeOrigin + performance.now();
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Run').click();
      while (runs() === before) await new Promise((r) => setTimeout(r, 5));
      return { t0, ms: performance.getEntriesByName('reward-run', 'measure')[0].duration };
    });
  for (let i = 0; i < 3; i++) await run();
  await browser.startTracing(undefined, {
    categories: [
      'toplevel',
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8',
      'blink.user_timing',
      '__metadata',
      ...(process.env.PROFILE ? ['disabled-by-default-v8.cpu_profiler'] : []),
    ],
  });
  const marks = [];
  for (let i = 0; i < RUNS; i++) marks.push(await run());
  const buf = await browser.stopTracing();
  writeFileSync('bench/out/reward-trace.json', buf);
  const events = JSON.parse(buf.toString()).traceEvents ?? JSON.parse(buf.toString());
  const names = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name);
  // Runs in trace time: the User Timing measure 'reward-run' gives each run's start and end on the page's clock.
  const measures = events.filter((e) => e.name === 'reward-run' && (e.ph === 'b' || e.ph === 'e'));
  const spans = [];
  for (const b of measures.filter((e) => e.ph === 'b')) {
    const end = measures.find((e) => e.ph === 'e' && e.id2?.local === b.id2?.local && e.id === b.id && e.ts >= b.ts);
    spans.push([b.ts, (end ?? b).ts]);
  }
  console.log(`runs (reward-run measure): ${marks.map((m) => m.ms.toFixed(0)).join(', ')} ms; ${spans.length} spans in the trace`);
  for (const [a, z] of spans) {
    const busy = new Map();
    for (const e of events) {
      if (e.ph !== 'X' || e.ts + (e.dur ?? 0) < a || e.ts > z) continue;
      if (e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask' && e.name !== 'ThreadPool_RunTask') continue;
      const k = `${e.pid}:${e.tid}`;
      const b = busy.get(k) ?? { ms: 0, n: 0, last: 0, first: Infinity };
      b.ms += (Math.min(z, e.ts + e.dur) - Math.max(a, e.ts)) / 1000;
      b.n++;
      b.first = Math.min(b.first, (e.ts - a) / 1000);
      b.last = Math.max(b.last, (e.ts + e.dur - a) / 1000);
      busy.set(k, b);
    }
    console.log(`\nrun of ${((z - a) / 1000).toFixed(1)} ms:`);
    for (const [k, b] of [...busy].sort((x, y) => y[1].ms - x[1].ms).slice(0, 14))
      console.log(
        `  ${(names.get(k) ?? k).padEnd(34)} busy ${b.ms.toFixed(1).padStart(6)} ms in ${String(b.n).padStart(4)} tasks, ${b.first.toFixed(1)}–${b.last.toFixed(1)} ms`,
      );
  }
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
