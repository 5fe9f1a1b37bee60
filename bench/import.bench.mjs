// Import of a 100,000-rollout JSONL (~100 MB) in the import worker, against a bare JSON.parse loop over the same
// lines in the same browser (in a worker too). Also: the longest main-thread task during the import (and after it,
// until the reward run that follows an import has ended), and the same import read in two pieces by two workers at
// once (`?pieces=2`, or the page flags given with --variant), timed in the same rounds. As shipped, a file is read in one piece fewer than the cores (one
// piece on 2 cores).
// Also a floor no import can go under: the time a worker takes just to read the file's bytes (a BYOB reader into
// one 1 MB buffer, as scanJsonl reads), measured in the same rounds.
// Usage: npx vite build && node bench/import.bench.mjs [rows] [reps] [--rows N] [--reps N] [--variant '?batchRows=4096'] [--dist DIR] [--json]
// --json: one JSON line on stdout (everything else goes to stderr); `ratio` is the median of the rounds' own ratios
// (bare JSON.parse loop time / studio import time, both measured in that round).
import { mkdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { benchFileInput, cpuSample, expectMeasure, launch, measured, median, PORT, shutDown, startPreview, stealSince, watchLongTasks } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';

const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : undefined;
};
const positional = args.filter((a, i) => !a.startsWith('--') && !(i > 0 && ['--rows', '--reps', '--variant', '--dist'].includes(args[i - 1])));
const ROWS = flag('--rows') ?? Number(positional[0] ?? 100_000);
const REPS = flag('--reps') ?? Number(positional[1] ?? 3);
/** The other import timed in the same rounds: page-address flags (importClient `numberAsked`). */
const VARIANT = args.includes('--variant') ? args[args.indexOf('--variant') + 1] : '?pieces=2';
/** Another build to serve instead of dist/ (a before/after comparison: `npx vite build --outDir …` of the old code). */
const DIST = args.includes('--dist') ? args[args.indexOf('--dist') + 1] : undefined;
if (!(Number.isInteger(ROWS) && ROWS > 0 && Number.isInteger(REPS) && REPS > 0)) {
  console.error(`usage: node bench/import.bench.mjs [rows] [reps] [--rows N] [--reps N] [--json] (got rows ${ROWS}, reps ${REPS})`);
  process.exit(2);
}
/** Progress and the human-readable summary: on stderr with --json, so that stdout holds only the JSON line. */
const say = JSON_OUT ? (...a) => console.error(...a) : (...a) => console.log(...a);

mkdirSync('bench/out', { recursive: true });
const path = `bench/out/import-${ROWS}.jsonl`;
writeRollouts(path, ROWS);
const mb = statSync(path).size / 1e6;
const server = await startPreview({ outDir: DIST });
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`http://localhost:${PORT}/`);
  await page.getByRole('status', { name: 'Dataset status' }).getByText('800 trajectories').waitFor();
  await benchFileInput(page, path);

  const ours = [];
  const twoPieces = [];
  const longest = [];
  const afterwards = [];
  const base = [];
  const baseWithRead = [];
  const readOnly = [];
  /** Upload through the UI; the studio measures 'import' from the click to the dataset being ready. */
  const upload = async (query) => {
    await watchLongTasks(page, query);
    await expectMeasure(page, 'import');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
    await chooser.setFiles(path);
    await measured(page, 'import');
    await page
      .getByRole('status', { name: 'Dataset status' })
      .getByText(`${ROWS.toLocaleString('en-US')} trajectories`)
      .waitFor();
    // Let the reward run that follows an import finish, so the next import has both cores to itself.
    await page
      .getByTestId('run-summary')
      .getByText(`${ROWS.toLocaleString('en-US')} scored`)
      .waitFor({ timeout: 300_000 });
    await page.waitForTimeout(300);
    // Long tasks are reported once they have ended: read only now, so the task that ends the import is among them.
    // During the import: any task overlapping it; then, up to 300 ms after the run that follows it.
    return page.evaluate(() => {
      const imp = performance.getEntriesByName('import', 'measure')[0];
      const end = imp.startTime + imp.duration;
      const during = window.__long.filter(([s, d]) => s < end && s + d > imp.startTime).map(([, d]) => d);
      const after = window.__long.filter(([s]) => s >= end).map(([, d]) => d);
      return { ms: imp.duration, long: Math.max(0, ...during), after: Math.max(0, ...after) };
    });
  };
  // Warm-up (not timed): the first import of a page also starts the piece workers and compiles the import code.
  await upload('');
  const cpu = cpuSample();
  for (let rep = 0; rep < REPS; rep++) {
    // Baseline: in a worker of the same page, split the file's text into lines, then time a bare JSON.parse loop.
    const b = await page.evaluate(async () => {
      const file = document.getElementById('bench-file').files[0];
      const src = `onmessage = async (e) => {
        // The bytes alone, read as scanJsonl reads them (BYOB into one 1 MB buffer), nothing done with them.
        const r0 = performance.now();
        const stream = e.data.stream();
        const reader = stream.getReader({ mode: 'byob' });
        // Held by the worker's global: a stream only a suspended reader refers to can be collected mid-read in
        // Chromium, and the read never settles (see scanJsonl.ts READING).
        self.held = [stream, reader];
        let buffer = new ArrayBuffer(1 << 20);
        let got = 0;
        for (;;) {
          const { done, value } = await reader.read(new Uint8Array(buffer));
          if (value) { buffer = value.buffer; got += value.byteLength; }
          if (done) break;
        }
        const read = performance.now() - r0;
        const t0 = performance.now();
        const text = await e.data.text();
        const lines = text.split('\\n');
        const t1 = performance.now();
        let n = 0;
        for (const l of lines) if (l) { JSON.parse(l); n++; }
        const t2 = performance.now();
        postMessage({ parse: t2 - t1, all: t2 - t0, n, read, got });
      }`;
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      const r = await new Promise((res) => {
        w.onmessage = (e) => res(e.data);
        w.postMessage(file);
      });
      w.terminate();
      return r;
    });
    if (b.got !== statSync(path).size) throw new Error(`the read-only baseline read ${b.got} bytes`);
    base.push(b.parse);
    baseWithRead.push(b.all);
    readOnly.push(b.read);

    // Ours, as shipped, then read in two pieces at once; the order alternates.
    const two = VARIANT;
    let r, pair;
    if (rep % 2 === 0) {
      r = await upload('');
      pair = await upload(two);
    } else {
      pair = await upload(two);
      r = await upload('');
    }
    ours.push(r.ms);
    twoPieces.push(pair.ms);
    longest.push(r.long, pair.long);
    afterwards.push(r.after, pair.after);
    say(
      `rep ${rep + 1}: import ${r.ms.toFixed(0)} ms (${VARIANT} ${pair.ms.toFixed(0)} ms) · bare JSON.parse loop ${base.at(-1).toFixed(0)} ms (read+split+parse ${baseWithRead.at(-1).toFixed(0)} ms; read alone ${readOnly.at(-1).toFixed(0)} ms) · longest main-thread task ${Math.max(r.long, pair.long).toFixed(0)} ms`,
    );
  }
  // Text search after the import: each reads the file again in the data worker (a JSONL import keeps no
  // trajectories). Timed by the studio's `search` measure (the data worker's answer, in the page); a build without
  // it, from typing to the table's count changing less the search box's 150 ms wait, polled every 20 ms (Playwright's
  // own waitFor polls ever more slowly, and once read ~650 ms for a 150 ms search).
  const search = async (needle, expected) => {
    const box = page.getByRole('searchbox', { name: 'Search text' });
    await box.fill('');
    await page
      .getByTestId('shown-count')
      .getByText(`${ROWS.toLocaleString('en-US')} shown`)
      .waitFor();
    const before = await page.evaluate(() => performance.getEntriesByName('search', 'measure').length);
    const t0 = Date.now();
    await box.fill(needle);
    await page.waitForFunction((want) => document.querySelector('[data-testid="shown-count"]')?.textContent === want, expected, {
      timeout: 120_000,
      polling: 20,
    });
    const wall = Date.now() - t0 - 150;
    const measured = await page.evaluate((n) => performance.getEntriesByName('search', 'measure')[n]?.duration ?? null, before);
    return Math.round(measured ?? wall);
  };
  const firstSearch = await search('Question 777:', '4 shown');
  const nextSearch = await search('Question 778:', '4 shown');
  const m = median(ours);
  const steal = stealSince(cpu);
  const ratios = ours.map((x, i) => base[i] / x);
  say(
    `\nimport of ${ROWS.toLocaleString('en-US')} rollouts (${mb.toFixed(1)} MB JSONL), median of ${REPS}; CPU taken by the hypervisor (steal) during the rounds: ${steal}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  say(`  studio import (worker, progress, normalize, transfer):  ${m.toFixed(0)} ms  = ${(mb / (m / 1000)).toFixed(1)} MB/s`);
  say(`  bare JSON.parse loop over the same lines (worker):      ${median(base).toFixed(0)} ms  = ${(mb / (median(base) / 1000)).toFixed(1)} MB/s`);
  say(
    `  reading the file's bytes alone (worker, BYOB 1 MB):     ${median(readOnly).toFixed(0)} ms  = ${(median(base) / median(readOnly)).toFixed(2)}× the bare loop's speed`,
  );
  say(`  ratio (throughput, ours / bare JSON.parse):             ${(median(base) / m).toFixed(2)}×  (target ≥ 1.0×)`);
  // Each round's own ratio (its bare loop and its import, minutes apart at most): the machine's speed drifts by up
  // to 2× between rounds, and a ratio of medians taken in different phases says little.
  say(`  median of the rounds' own ratios:                       ${median(ratios).toFixed(2)}×  (${ratios.map((x) => x.toFixed(2)).join(', ')})`);
  say(
    `  the variant ${VARIANT.padEnd(40)} ${median(twoPieces).toFixed(0)} ms = ${(median(base) / median(twoPieces)).toFixed(2)}× the bare loop; as shipped gains ${(median(twoPieces) / m).toFixed(2)}× over it`,
  );
  say(`  ratio against read+split+parse baseline:                ${(median(baseWithRead) / m).toFixed(2)}×`);
  say(`  text search over every row: first ${firstSearch} ms (reads the file again), next ${nextSearch} ms`);
  say(
    `  longest main-thread task during import:                 ${median(longest).toFixed(0)} ms (median; max ${Math.max(...longest).toFixed(0)} ms; target < 100 ms)`,
  );
  say(`  … from the import's end to the end of the run after it: ${median(afterwards).toFixed(0)} ms (median; max ${Math.max(...afterwards).toFixed(0)} ms)`);
  if (JSON_OUT) {
    const r1 = (x) => Math.round(x * 10) / 10;
    const r3 = (x) => Math.round(x * 1000) / 1000;
    console.log(
      JSON.stringify({
        rows: ROWS,
        mb: r1(mb),
        reps: REPS,
        // bare JSON.parse loop time / studio import time: the median of the rounds' own ratios
        ratio: r3(median(ratios)),
        ratioKind: "median of the rounds' own ratios (jsonParseMs / importMs per round)",
        ratioOfMedians: r3(median(base) / m),
        roundRatios: ratios.map(r3),
        importMs: r1(m),
        jsonParseMs: r1(median(base)),
        readOnlyMs: r1(median(readOnly)),
        readSplitParseMs: r1(median(baseWithRead)),
        variant: VARIANT,
        variantMs: r1(median(twoPieces)),
        variantRatio: r3(median(twoPieces.map((x, i) => base[i] / x))),
        longestMainThreadTaskMs: r1(Math.max(...longest)),
        longestAfterImportMs: r1(Math.max(...afterwards)),
        firstSearchMs: firstSearch,
        nextSearchMs: nextSearch,
        steal,
        loadAvg: loadavg().map(r1),
      }),
    );
  }
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
