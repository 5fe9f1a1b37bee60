// Reward pool throughput on 100,000 rollouts with a regex-based reward, in Debian's Chromium:
// - the pool with 1 worker and with 2 workers (the page's `?workers=N`), timed by the studio's 'reward-run' measure;
// - the same compiled function called in a bare loop in one worker of the same page (the baseline), and over each
//   half of the rows in two workers at once (the speed-up the machine itself allows two threads), measured in every
//   round next to the pool's runs so both see the same machine;
// - Edit → Run → histogram updated: wall time from pressing Run to the new summary on screen.
// Usage: npx vite build && node bench/reward.bench.mjs [rows] [reps] [--json] [--baseline DIR]
//   --json: one JSON line on stdout, per reward {bareLoopMs, pool1Ms, pool2Ms, speedup, machineSpeedup,
//   speedupVsMachine, editToHistogramMs} (speed-ups are medians of the rounds' own ratios); the rest goes to stderr.
//   --baseline DIR: A/B against another build (e.g. a copy of dist/ made before a change), served on BENCH_PORT + 1;
//   its pools run in the same rounds, the order rotated, and the JSON gives its figures under `baseline`.
//   BENCH_PORT sets the preview server's port (default 4180).
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { cpuSample, launch, median, pasteReward, PORT, shutDown, startPreview, stealSince } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const JSON_OUT = process.argv.includes('--json');
// --baseline DIR: another build (a copy of an earlier dist/) served beside this one; its pools run in the same rounds.
const at = process.argv.indexOf('--baseline');
const BASELINE = at > 0 ? process.argv[at + 1] : null;
const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--baseline');
const ROWS = Number(args[0] ?? 100_000);
const REPS = Number(args[1] ?? 11);
const FMT = ROWS.toLocaleString('en-US');
// With --json, stdout carries only the JSON line.
const log = JSON_OUT ? (...a) => console.error(...a) : (...a) => console.log(...a);

const REWARDS = {
  'answer check': `export default function reward(t) {
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;
}
`,
  'answer check + word-count penalty': `export default function reward(t) {
  const words = t.completion.match(/\\b[a-z]+\\b/g) ?? [];
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  const correct = m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth);
  return (correct ? 1 : 0) - 0.001 * Math.max(0, words.length - 120);
}
`,
};

mkdirSync('bench/out', { recursive: true });
const path = `bench/out/reward-${ROWS}.jsonl`;
writeRollouts(path, ROWS);
const server = await startPreview();
const baseServer = BASELINE ? await startPreview({ port: PORT + 1, outDir: BASELINE }) : null;
const browser = await launch();
const BUILDS = BASELINE ? ['this', 'baseline'] : ['this'];

async function openWith(workers, build = 'this') {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.text().startsWith('BUSY')) log(workers, m.text());
  });
  await page.goto(`http://localhost:${build === 'this' ? PORT : PORT + 1}/?workers=${workers}`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 300_000 });
  return page;
}

/** Press Run; resolve with the pool's time (measure 'reward-run') and the wall time until the summary changed. */
async function timedRun(page) {
  return page.evaluate(async () => {
    // Let the page finish drawing the previous run (as it has when a person edits code and presses Run again).
    await new Promise((r) => setTimeout(r, 300));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    performance.clearMeasures('reward-run');
    // A run has landed (histogram, table and summary re-rendered) when the run history gains an entry.
    const runs = () => document.querySelectorAll('select[aria-label="Run history"] option').length;
    const before = runs();
    const changed = new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        if (runs() > before) {
          obs.disconnect();
          resolve(performance.now());
        }
      });
      obs.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const t0 = performance.now();
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Run').click();
    const t1 = await changed;
    return { pool: performance.getEntriesByName('reward-run', 'measure')[0].duration, wall: t1 - t0 };
  });
}

/**
 * The baselines for one reward, in workers of the page: the function compiled once and called in a bare loop over
 * all rows in one worker, and over each half of the rows in two workers at once. Set up once; `window.__bare()` then
 * times one of each and resolves with { one, two } in ms.
 */
async function setUpBareLoops(page, reward) {
  await page.evaluate(
    async ({ text, reward }) => {
      const src = `let rows = []; let fn;
    onmessage = (e) => {
      if (e.data.text !== undefined) {
        rows = e.data.text.split('\\n').filter(Boolean).map((l) => { const r = JSON.parse(l); return { completion: r.completion, groundTruth: r.ground_truth }; });
        rows = rows.slice(e.data.from, e.data.to);
        fn = new Function('return ' + e.data.reward.replace('export default function', 'function'))();
        return postMessage('ready');
      }
      let s = 0;
      for (let i = 0; i < rows.length; i++) s += fn(rows[i]);
      postMessage(s);
    }`;
      const url = URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
      const ask = (w, msg) =>
        new Promise((res) => {
          w.onmessage = (e) => res(e.data);
          w.postMessage(msg);
        });
      const n = text.split('\n').filter(Boolean).length;
      for (const w of window.__bareWorkers ?? []) w.terminate();
      const whole = new Worker(url);
      const halves = [new Worker(url), new Worker(url)];
      window.__bareWorkers = [whole, ...halves];
      await ask(whole, { text, reward, from: 0, to: n });
      await ask(halves[0], { text, reward, from: 0, to: n >> 1 });
      await ask(halves[1], { text, reward, from: n >> 1, to: n });
      const time = async (f) => {
        const t0 = performance.now();
        await f();
        return performance.now() - t0;
      };
      const one = () => time(() => ask(whole, 'go'));
      const two = () => time(() => Promise.all(halves.map((w) => ask(w, 'go'))));
      // `halvesFirst` swaps the order (every other round), so neither loop always runs right after the pool's runs.
      window.__bare = async (halvesFirst = false) => {
        if (halvesFirst) {
          const t2 = await two();
          return { one: await one(), two: t2 };
        }
        const t1 = await one();
        return { one: t1, two: await two() };
      };
      // Warm-up: the loops' code optimised before the first timed round.
      for (let i = 0; i < 2; i++) await window.__bare();
    },
    { text: readFileSync(path, 'utf8'), reward },
  );
}

const bareRound = (page, halvesFirst) => page.evaluate((h) => window.__bare(h), halvesFirst);

const round = (x, d = 3) => Number(x.toFixed(d));

/** The figures of one build for one reward, from its runs and the bare loops of the same rounds. */
function figures(runs, bare) {
  const pool1 = median(runs[1].pool);
  const pool2 = median(runs[2].pool);
  const bareOne = median(bare.one);
  const bareTwo = median(bare.two);
  // Medians of each round's own ratios (its runs one after the other): less moved by the machine's drift between
  // rounds than the ratio of two medians.
  const speedup = median(runs[1].pool.map((one, r) => one / runs[2].pool[r]));
  const machineSpeedup = median(bare.one.map((one, r) => one / bare.two[r]));
  const vsMachineRounds = median(runs[1].pool.map((one, r) => one / runs[2].pool[r] / (bare.one[r] / bare.two[r])));
  return {
    bareLoopMs: round(bareOne, 1),
    bareHalvesMs: round(bareTwo, 1),
    pool1Ms: round(pool1, 1),
    pool2Ms: round(pool2, 1),
    speedup: round(speedup),
    machineSpeedup: round(machineSpeedup),
    speedupVsMachine: round(speedup / machineSpeedup),
    speedupVsMachineRounds: round(vsMachineRounds),
    perCore: round(bareOne / pool1),
    editToHistogramMs: round(median(runs[2].wall), 1),
  };
}

function print(name, build, f) {
  log(`\n${name} over ${FMT} rollouts, medians of ${REPS}${BASELINE ? ` (${build} build)` : ''}:`);
  log(`  bare loop of the compiled function, one worker:   ${f.bareLoopMs.toFixed(0)} ms`);
  log(`  pool, 1 worker:                                    ${f.pool1Ms.toFixed(0)} ms  → per-core throughput ${f.perCore.toFixed(2)}× the bare loop`);
  log(
    `  pool, 2 workers:                                   ${f.pool2Ms.toFixed(0)} ms  → speed-up over 1 worker ${(f.pool1Ms / f.pool2Ms).toFixed(2)}×; median of the rounds' own ratios ${f.speedup.toFixed(2)}×`,
  );
  log(
    `  bare loop, each half of the rows in 2 workers:     ${f.bareHalvesMs.toFixed(0)} ms  → ${f.machineSpeedup.toFixed(2)}× over one worker (rounds' median): the speed-up this machine allows`,
  );
  log(
    `  pool's speed-up / the machine's:                   ${f.speedupVsMachine.toFixed(2)} (target ≥ 0.95); median of the rounds' own ${f.speedupVsMachineRounds.toFixed(2)}`,
  );
  log(`  Edit → Run → histogram updated (2 workers):        ${f.editToHistogramMs.toFixed(0)} ms median wall time`);
}

try {
  const pages = {};
  for (const build of BUILDS) for (const workers of [1, 2]) pages[`${build}:${workers}`] = await openWith(workers, build);
  const report = { rows: ROWS, reps: REPS, rewards: {}, ...(BASELINE ? { baseline: {} } : {}) };
  const load0 = loadavg()[0];
  const keys = Object.keys(pages);
  for (const [name, reward] of Object.entries(REWARDS)) {
    for (const k of keys) {
      await pasteReward(pages[k], reward);
      await timedRun(pages[k]); // warm-up: compiles in every worker
    }
    await setUpBareLoops(pages['this:1'], reward);
    // Runs alternate between the pages (1 worker, 2 workers, of each build; the order rotated every round) and the
    // bare loops (one worker, then two halves) run in the same round, so all see the same machine: on these shared
    // cores the speed drifts within a minute.
    const runs = Object.fromEntries(BUILDS.map((b) => [b, { 1: { pool: [], wall: [] }, 2: { pool: [], wall: [] } }]));
    const bare = { one: [], two: [] };
    const cpu = cpuSample();
    for (let r = 0; r < REPS; r++) {
      const order = keys.map((_, i) => keys[(i + r) % keys.length]);
      if (r % 2) order.reverse();
      for (const k of order) {
        const [build, workers] = k.split(':');
        const t = await timedRun(pages[k]);
        runs[build][workers].pool.push(t.pool);
        runs[build][workers].wall.push(t.wall);
      }
      const b = await bareRound(pages['this:1'], r % 2 === 1);
      bare.one.push(b.one);
      bare.two.push(b.two);
    }
    const steal = stealSince(cpu);
    log(`\n${name}: CPU time taken by the hypervisor (steal) during these runs: ${steal}; load average ${loadavg()[0].toFixed(2)}`);
    for (const build of BUILDS)
      for (const workers of [1, 2]) {
        const { pool, wall } = runs[build][workers];
        log(
          `${name}, ${build} build, pool of ${workers}: runs ${pool.map((x) => x.toFixed(0)).join(', ')} ms · edit→histogram ${wall.map((x) => x.toFixed(0)).join(', ')} ms`,
        );
      }
    log(`${name}, bare loop: one worker ${bare.one.map((x) => x.toFixed(0)).join(', ')} ms · two halves ${bare.two.map((x) => x.toFixed(0)).join(', ')} ms`);
    for (const build of BUILDS) {
      const f = figures(runs[build], bare);
      print(name, build, f);
      if (build === 'this') report.rewards[name] = { ...f, steal };
      else report.baseline[name] = f;
    }
  }
  report.loadAverage = [round2(load0), round2(loadavg()[0])];
  if (JSON_OUT) console.log(JSON.stringify(report));
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  baseServer?.kill();
  await shutDown(server, browser);
}

function round2(x) {
  return Number(x.toFixed(2));
}
