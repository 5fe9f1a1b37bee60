// Reward pool throughput on 100,000 rollouts with a regex-based reward, in Debian's Chromium:
// - the pool with 1 worker and with 2 workers (the page's `?workers=N`), timed by the studio's 'reward-run' measure;
// - the same compiled function called in a bare loop in one worker of the same page (the baseline);
// - Edit → Run → histogram updated: wall time from pressing Run to the new summary on screen.
// Usage: npx vite build && node bench/reward.bench.mjs [rows] [reps]
import { mkdirSync } from 'node:fs';
import { cpuSample, launch, median, PORT, shutDown, startPreview, stealSince } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const ROWS = Number(process.argv[2] ?? 100_000);
const REPS = Number(process.argv[3] ?? 11);
const FMT = ROWS.toLocaleString('en-US');

// Two regex-based rewards: the demo's answer check (one anchored regex per rollout), and a length-penalised answer
// check that also counts words with a global regex (scans and allocates per word, as format/keyword rewards do).
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
const browser = await launch();

async function openWith(workers) {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.text().startsWith('BUSY')) console.log(workers, m.text());
  });
  await page.goto(`http://localhost:${PORT}/?workers=${workers}`);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 300_000 });
  return page;
}

/** Paste a reward into the editor as a person would. */
async function paste(page, reward) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), reward);
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.waitForFunction((t) => localStorage.getItem('reward-studio:code') === t, reward);
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

/** The baselines for one reward, in one worker of the page: the function in a bare loop over all rows, and over each half in two workers at once. */
async function bareLoops(page, reward) {
  return page.evaluate(
    async ({ text, reward, reps }) => {
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
      const whole = new Worker(url);
      const halves = [new Worker(url), new Worker(url)];
      await ask(whole, { text, reward, from: 0, to: n });
      await ask(halves[0], { text, reward, from: 0, to: n >> 1 });
      await ask(halves[1], { text, reward, from: n >> 1, to: n });
      const one = [];
      const two = [];
      for (let rep = 0; rep < reps + 2; rep++) {
        let t0 = performance.now();
        await ask(whole, 'go');
        one.push(performance.now() - t0);
        t0 = performance.now();
        await Promise.all(halves.map((w) => ask(w, 'go')));
        two.push(performance.now() - t0);
      }
      for (const w of [whole, ...halves]) w.terminate();
      const med = (xs) => xs.slice(2).sort((a, b) => a - b)[(xs.length - 2) >> 1];
      return { one: med(one), two: med(two) };
    },
    { text: await (await import('node:fs/promises')).readFile(path, 'utf8'), reward, reps: REPS },
  );
}

try {
  const pages = { 1: await openWith(1), 2: await openWith(2) };
  for (const [name, reward] of Object.entries(REWARDS)) {
    for (const workers of [1, 2]) {
      await paste(pages[workers], reward);
      await timedRun(pages[workers]); // warm-up: compiles in every worker
    }
    // Runs alternate between the two pages (1 worker, 2 workers; the order swapped every round), so both see the
    // same machine: on these shared cores the speed drifts within a minute.
    const runs = { 1: { pool: [], wall: [] }, 2: { pool: [], wall: [] } };
    const cpu = cpuSample();
    for (let r = 0; r < REPS; r++) {
      for (const workers of r % 2 ? [2, 1] : [1, 2]) {
        const t = await timedRun(pages[workers]);
        runs[workers].pool.push(t.pool);
        runs[workers].wall.push(t.wall);
      }
    }
    console.log(`${name}: CPU time taken by the hypervisor (steal) during these runs: ${stealSince(cpu)}`);
    const results = {};
    for (const workers of [1, 2]) {
      const { pool, wall } = runs[workers];
      results[workers] = { pool: median(pool), wall: median(wall) };
      console.log(
        `${name}, pool of ${workers}: runs ${pool.map((x) => x.toFixed(0)).join(', ')} ms · edit→histogram ${wall.map((x) => x.toFixed(0)).join(', ')} ms`,
      );
    }
    const { one: bare, two: bare2 } = await bareLoops(pages[1], reward);
    console.log(`\n${name} over ${FMT} rollouts, medians of ${REPS}:`);
    console.log(`  bare loop of the compiled function, one worker:   ${bare.toFixed(0)} ms`);
    console.log(
      `  pool, 1 worker:                                    ${results[1].pool.toFixed(0)} ms  → per-core throughput ${(bare / results[1].pool).toFixed(2)}× the bare loop (target ≥ 0.5×)`,
    );
    // Also the median of each round's own ratio (its 1-worker run over its 2-worker run, run one after the other):
    // less moved by the machine's drift between rounds than the ratio of the two medians.
    const paired = median(runs[1].pool.map((one, r) => one / runs[2].pool[r]));
    console.log(
      `  pool, 2 workers:                                   ${results[2].pool.toFixed(0)} ms  → speed-up over 1 worker ${(results[1].pool / results[2].pool).toFixed(2)}× (target ≥ 1.6×); median of the rounds' own ratios ${paired.toFixed(2)}×`,
    );
    console.log(
      `  bare loop, each half of the rows in 2 workers:     ${bare2.toFixed(0)} ms  → ${(bare / bare2).toFixed(2)}× over one worker: the speed-up this machine allows`,
    );
    console.log(`  Edit → Run → histogram updated (2 workers):        ${results[2].wall.toFixed(0)} ms median wall time\n`);
  }
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
