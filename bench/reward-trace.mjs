// Where a short 2-worker reward run spends its time, from a Chromium trace (all processes: the page, the sandbox
// frame's renderer, the reward workers): per thread, CPU busy time and top-level tasks during each traced run, and
// how far apart the workers' scoring ended. A profiling aid for bench/reward.bench.mjs, not a benchmark.
// Usage: npx vite build && node bench/reward-trace.mjs [rows] [runs] [workers]
//   BENCH_PORT sets the port, BENCH_DIST another build's folder, PROFILE=1 adds V8's CPU samples to the trace file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { launch, openStudioPage, pasteReward, PORT, shutDown, startPreview } from './browser.mjs';
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
const DIST = process.env.BENCH_DIST; // another build to trace (default dist/)
const server = await startPreview(DIST ? { outDir: DIST } : {});
const browser = await launch();

try {
  const { page } = await openStudioPage(browser, `http://localhost:${PORT}/?workers=${WORKERS}`);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 300_000 });
  await pasteReward(page, REWARD);
  // Timed as bench/reward.bench.mjs times a run (a MutationObserver, not polling, which would wake the page).
  const run = () =>
    page.evaluate(async () => {
      await new Promise((r) => setTimeout(r, 300));
      performance.clearMeasures('reward-run');
      const runs = () => document.querySelectorAll('select[aria-label="Run history"] option').length;
      const before = runs();
      const landed = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          if (runs() > before) {
            obs.disconnect();
            resolve();
          }
        });
        obs.observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Run').click();
      await landed;
      return { ms: performance.getEntriesByName('reward-run', 'measure')[0].duration };
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
  // Runs in trace time: the User Timing measure 'reward-run' (begin and end events, in order).
  const measures = events.filter((e) => e.name === 'reward-run' && (e.ph === 'b' || e.ph === 'e'));
  const begins = measures.filter((e) => e.ph === 'b');
  const ends = measures.filter((e) => e.ph === 'e');
  const pagePid = begins[0]?.pid;
  // The sandbox's renderer: the process whose dedicated workers run the rewards.
  const framePid = [...names].find(([k, n]) => n === 'DedicatedWorker thread' && Number(k.split(':')[0]) !== pagePid)?.[0].split(':')[0];
  const role = (k) => {
    const [pid] = k.split(':');
    const n = names.get(k) ?? k;
    if (pid === String(pagePid) && n === 'CrRendererMain') return 'page main thread';
    if (pid === framePid && n === 'CrRendererMain') return 'sandbox main thread';
    if (pid === framePid && n === 'DedicatedWorker thread') return 'reward worker';
    if (pid === framePid && n.startsWith('ThreadPool')) return 'sandbox thread pool (GC helpers)';
    return 'other';
  };
  // Busy time: outermost slices only (RunTask nests inside ThreadControllerImpl::RunTask).
  const byThread = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const k = `${e.pid}:${e.tid}`;
    if (!byThread.has(k)) byThread.set(k, []);
    byThread.get(k).push(e);
  }
  const outer = new Map();
  for (const [k, list] of byThread) {
    list.sort((x, y) => x.ts - y.ts || y.dur - x.dur);
    const top = [];
    let end = -Infinity;
    for (const e of list) {
      if (e.ts < end) continue;
      top.push(e);
      end = e.ts + e.dur;
    }
    outer.set(k, top);
  }
  console.log(`runs (reward-run measure): ${marks.map((m) => m.ms.toFixed(0)).join(', ')} ms`);
  // Linux: the nice value of each process's main thread (Chromium raises it for a renderer that shows nothing).
  const nice = (pid) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[16];
    } catch {
      return 'unknown';
    }
  };
  console.log(`nice of the main thread: page ${nice(pagePid)}, sandbox ${nice(framePid)}`);
  const sum = {};
  begins.forEach((b, i) => {
    const a = b.ts;
    const z = ends[i]?.ts ?? a;
    const line = [];
    for (const [k, top] of outer) {
      const r = role(k);
      if (r === 'other') continue;
      let ms = 0;
      let n = 0;
      let gc = 0;
      for (const e of top) {
        if (e.ts + e.dur < a || e.ts > z) continue;
        ms += (Math.min(z, e.ts + e.dur) - Math.max(a, e.ts)) / 1000;
        n++;
      }
      for (const e of byThread.get(k)) if (/^(MinorGC|MajorGC|V8.GC_MC_)$/.test(e.name) && e.ts >= a && e.ts <= z) gc += e.dur / 1000;
      if (!n) continue;
      line.push(`${r} ${ms.toFixed(1)} ms/${n} tasks${gc ? ` (GC ${gc.toFixed(1)} ms)` : ''}`);
      const s = (sum[r] ??= { ms: 0, n: 0, gc: 0, threads: new Set() });
      s.ms += ms;
      s.n += n;
      s.gc += gc;
      s.threads.add(k);
    }
    console.log(`run ${i + 1}, ${((z - a) / 1000).toFixed(1)} ms: ${line.join('; ')}`);
  });
  console.log(`\nper run, mean over ${begins.length} (all threads of a kind together):`);
  for (const [r, s] of Object.entries(sum))
    console.log(
      `  ${r.padEnd(34)} busy ${(s.ms / begins.length).toFixed(1).padStart(6)} ms in ${(s.n / begins.length).toFixed(1).padStart(5)} tasks; GC ${(s.gc / begins.length).toFixed(1)} ms`,
    );
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
