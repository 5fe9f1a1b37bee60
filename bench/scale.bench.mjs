// A million rollouts in one tab (issue 27), in Debian's Chromium on the production build. One sequence:
// upload the file → the run the studio starts by itself after the import → edit the reward in the editor and press
// Run (several times) → open every diagnostic tab → the page's heap; then, in workers of the same page, the
// baselines: a bare JSON.parse loop over the file's lines, and one bare loop of the same compiled reward over all rows.
// Prints ONE JSON line on stdout (progress on stderr):
//   {rows, importVsJsonParse, runVsBareLoop, editRunVsBareLoop, tabsReadyMs, maxMainThreadLagMs, heapMB}
// - importVsJsonParse: bare JSON.parse loop (objects dropped, time of the parse calls only) / studio import
//   (User Timing measure `import`: file handed over → dataset ready on the main thread);
// - runVsBareLoop: bare loop (median of 5, after 2 warm-ups) / the run the studio starts by itself after the import
//   (its `reward-run` measure: the run's start → results in the store);
// - editRunVsBareLoop: the same baseline / the median `reward-run` of the runs after an edit + Run;
// - tabsReadyMs: the slowest diagnostic tab on its first visit after the runs, click → the frame after its figures are
//   drawn (a tab computing in a worker shows aria-busy until then);
// - maxMainThreadLagMs: the longest main-thread task (PerformanceObserver `longtask`) from the upload to the last tab;
// - heapMB: the page's JS heap after the runs and tabs: CDP Runtime.getHeapUsage usedSize of the page's main thread,
//   no forced GC (stderr also gives it after HeapProfiler.collectGarbage, the ArrayBuffer contents outside the JS heap
//   (backingStorageSize), and the reward sandbox frame's heap);
// - dataWorkerHeapMB, rewardWorkersHeapMB: the data worker's JS heap and the reward workers' together, each after a
//   forced GC (CDP, through the frames' sessions).
// `--gzip` uploads the same file gzip-compressed (written once, level 1); `--parquet` the same rows as one Parquet file
// (one row group per 1,048,576 rows, as pyarrow writes it); the baselines still read the plain lines. `--chat` uploads
// them as OpenAI chat records with a tool call (`chatFile`), and the baselines read those lines (the completion is the
// last turn's content).
// Usage: npx vite build && node bench/scale.bench.mjs [--rows 1000000] [--edits 3] [--gzip | --parquet | --chat] [--dist DIR] [--json]
import { statSync } from 'node:fs';
import { benchFileInput, cpuSample, launch, median, openStudioPage, pasteReward, PORT, shutDown, startPreview, stealSince, workerHeaps } from './browser.mjs';
import { chatFile, gzippedFile, parquetFile, scaleFile } from './rollouts.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROWS = arg('rows', 1_000_000);
const EDITS = arg('edits', 3);
const JSON_OUT = process.argv.includes('--json');
const FMT = ROWS.toLocaleString('en-US');
const log = (...a) => console.error(...a);

// The demo's answer check (one anchored regex per rollout): a cheap reward, where reading the rows is most of a run.
const reward = (edit) => `export default function reward(t) {
  // edit ${edit}
  const m = /A:\\s*(-?[\\d,]+(?:\\.\\d+)?)\\s*$/.exec(t.completion);
  return m !== null && Number(m[1].replace(/,/g, '')) === Number(t.groundTruth) ? 1 : 0;
}
`;

const path = scaleFile(ROWS, log);
const GZIP = process.argv.includes('--gzip');
const PARQUET = process.argv.includes('--parquet');
const CHAT = process.argv.includes('--chat');
const upload = GZIP ? await gzippedFile(path, log) : PARQUET ? await parquetFile(path, log) : CHAT ? chatFile(path, log) : path;
// The lines the baselines read: the chat records themselves, else the plain rows.
const lines = CHAT ? upload : path;
const mb = statSync(lines).size / 1e6;

// `--dist DIR` serves another build (an A/B against an earlier commit built there).
const dist = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : undefined;
const server = await startPreview({ outDir: dist });
const browser = await launch();
try {
  const { context, page } = await openStudioPage(browser, `http://localhost:${PORT}/`, { viewport: { width: 1600, height: 1000 } });
  const cdp = await context.newCDPSession(page);

  await pasteReward(page, reward(0));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.locator('select[aria-label="Run history"] option').nth(1).waitFor({ state: 'attached' });
  // The file for the baselines, in a hidden input of the page (not the studio's).
  await benchFileInput(page, lines);

  // Every long task from here on, and the next `reward-run` measures as they come.
  await page.evaluate(() => {
    window.__long = [];
    window.__phase = 'import';
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration, window.__phase]);
    }).observe({ type: 'longtask' });
    performance.clearMeasures();
    window.__runs = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) if (e.name === 'reward-run') window.__runs.push(e.duration);
    }).observe({ type: 'measure' });
  });
  const cpu = cpuSample();

  // 1. Import; the studio runs the editor's reward by itself right after.
  log(`importing ${FMT} rollouts …`);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(upload);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 600_000 });
  await page.waitForFunction(() => window.__runs.length >= 1 && performance.getEntriesByName('import', 'measure').length > 0, null, {
    timeout: 60_000,
    polling: 200,
  });
  const importMs = await page.evaluate(() => performance.getEntriesByName('import', 'measure')[0].duration);
  const firstRunMs = await page.evaluate(() => window.__runs[0]);
  log(`import ${importMs.toFixed(0)} ms · first run after it (started by the studio) ${firstRunMs.toFixed(0)} ms`);

  // 2. Edit → Run, a few times; each run waits until the previous one is in the history and the page has settled.
  const editRuns = [];
  for (let e = 1; e <= EDITS; e++) {
    await page.waitForTimeout(1000);
    await pasteReward(page, reward(e));
    await page.evaluate((ph) => (window.__phase = ph), `edit ${e}`);
    const before = await page.evaluate(() => window.__runs.length);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForFunction((n) => window.__runs.length > n, before, { timeout: 600_000, polling: 200 });
    editRuns.push(await page.evaluate(() => window.__runs.at(-1)));
    log(`edit ${e} → Run: ${editRuns.at(-1).toFixed(0)} ms`);
  }
  await page.waitForTimeout(1000);

  // 3. Every diagnostic tab once after the runs, in the list's order from the one open (which is timed last, coming
  // back to it: its first drawing after a run fell in the run's phase): click → the frame after it is drawn. A tab is
  // timed on its first visit, so nothing it keeps from an earlier drawing is counted in its favour.
  const tabs = await page.locator('[role="tablist"][aria-label="Diagnostics"] [role="tab"]').allTextContents();
  const open = await page.locator('[role="tablist"][aria-label="Diagnostics"] [role="tab"][aria-selected="true"]').textContent();
  const at = tabs.indexOf(open);
  const order = [...tabs.slice(at + 1), ...tabs.slice(0, at + 1)];
  const tabMs = {};
  for (const tab of order) {
    tabMs[tab] = await page.evaluate(async (name) => {
      const list = document.querySelector('[role="tablist"][aria-label="Diagnostics"]');
      const frame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
      window.__phase = `tab ${name}`;
      const t0 = performance.now();
      [...list.querySelectorAll('[role="tab"]')].find((b) => b.textContent === name).click();
      await frame();
      // A tab whose figures are computed in the stats worker shows aria-busy until they are drawn: timed to then.
      const busy = () => list.closest('section').querySelector('[aria-busy="true"]');
      while (busy() && performance.now() - t0 < 60_000) await frame();
      const ms = performance.now() - t0;
      await new Promise((res) => setTimeout(res, 500));
      return ms;
    }, tab);
    log(`tab ${tab}: ${tabMs[tab].toFixed(0)} ms`);
  }
  await page.waitForTimeout(500);
  const long = await page.evaluate(() => window.__long);
  const longest = Math.max(0, ...long.map(([, d]) => d));
  const longCount = long.filter(([, d]) => d > 100).length;
  // Where the long tasks fell: the phase (import and the run after it, an edit's run, a tab) of each over 100 ms.
  const byPhase = {};
  for (const [, d, ph] of long) if (d > 100) byPhase[ph] = [...(byPhase[ph] ?? []), Math.round(d)];
  log(`main-thread tasks over 100 ms by phase: ${JSON.stringify(byPhase)}`);
  const top = [...long].sort((a, b) => b[1] - a[1]).slice(0, 5);
  log(`the five longest main-thread tasks: ${top.map(([, d, ph]) => `${Math.round(d)} ms (${ph})`).join(', ')}`);
  const steal = stealSince(cpu);

  // 4. The page's heap (main thread), as it is and after a full GC; the sandbox frame's too where it is reachable.
  const usage = await cdp.send('Runtime.getHeapUsage');
  const heap = usage.usedSize / 1e6;
  // ArrayBuffers' contents (the run's typed arrays, the import's columns) are outside the JS heap: said apart.
  const buffers = (usage.backingStorageSize ?? NaN) / 1e6;
  await cdp.send('HeapProfiler.collectGarbage');
  const heapAfterGc = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
  let frameHeap = 'n/a';
  for (const f of page.frames()) {
    if (f === page.mainFrame()) continue;
    try {
      const s = await context.newCDPSession(f);
      frameHeap = `${f.url().split('/').pop()} ${((await s.send('Runtime.getHeapUsage')).usedSize / 1e6).toFixed(0)} MB`;
    } catch {
      /* an in-process frame shares the page's heap */
    }
  }
  const heaps = await workerHeaps(context, page);
  const dataWorker = heaps.filter((w) => /import\.worker/.test(w.url)).reduce((n, w) => n + w.usedMB, 0);
  const rewardWorkers = heaps.filter((w) => w.url.startsWith('blob:')).reduce((n, w) => n + w.usedMB, 0);
  log(
    `page heap ${heap.toFixed(0)} MB (after a forced GC ${heapAfterGc.toFixed(0)} MB), ArrayBuffer contents ${buffers.toFixed(0)} MB; sandbox frame: ${frameHeap}; workers after a forced GC: ${heaps.map((w) => `${w.url.split('/').pop().slice(0, 24)} (${w.frame || 'page'}) ${w.usedMB.toFixed(0)} MB`).join(', ')}`,
  );

  // 5. Baselines in workers of the same page, with the studio idle: the file read in 64 MB slices, split into lines;
  // the JSON.parse calls alone are timed (objects dropped), then the rows the reward reads are kept (untimed) and the
  // reward, compiled once, is called over all of them in a bare loop.
  log('baselines …');
  const base = await page.evaluate(
    async ({ code, chat }) => {
      const src = `let rows = []; let fn;
      onmessage = async (e) => {
        if (e.data.file) {
          const file = e.data.file;
          const dec = new TextDecoder();
          let carry = '';
          let parse = 0;
          for (let at = 0; at < file.size; at += 64 << 20) {
            const text = carry + dec.decode(await file.slice(at, at + (64 << 20)).arrayBuffer(), { stream: true });
            const cut = text.lastIndexOf('\\n');
            const lines = text.slice(0, cut + 1).split('\\n');
            carry = text.slice(cut + 1);
            const t0 = performance.now();
            for (const l of lines) if (l) JSON.parse(l);
            parse += performance.now() - t0;
            for (const l of lines) if (l) { const r = JSON.parse(l); rows.push(e.data.chat ? { completion: r.messages[r.messages.length - 1].content, groundTruth: r.ground_truth } : { prompt: r.prompt, completion: r.completion, groundTruth: r.ground_truth }); }
          }
          fn = new Function('return ' + e.data.code.replace('export default function', 'function'))();
          return postMessage({ parse, n: rows.length });
        }
        const t0 = performance.now();
        let s = 0;
        for (let i = 0; i < rows.length; i++) s += fn(rows[i]);
        postMessage({ loop: performance.now() - t0, s });
      }`;
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
      const ask = (msg) =>
        new Promise((res) => {
          w.onmessage = (e) => res(e.data);
          w.postMessage(msg);
        });
      const { parse, n } = await ask({ file: document.getElementById('bench-file').files[0], code, chat });
      const loops = [];
      for (let r = 0; r < 7; r++) loops.push((await ask('go')).loop);
      w.terminate();
      return { parse, n, loops: loops.slice(2) };
    },
    { code: reward(0), chat: CHAT },
  );
  if (base.n !== ROWS) throw new Error(`the baseline read ${base.n} rows, not ${ROWS}`);
  const bare = median(base.loops);
  log(`bare JSON.parse loop ${base.parse.toFixed(0)} ms · bare reward loop ${base.loops.map((x) => x.toFixed(0)).join(', ')} ms (median ${bare.toFixed(0)})`);
  const editMs = median(editRuns);
  const out = {
    rows: ROWS,
    importVsJsonParse: +(base.parse / importMs).toFixed(3),
    runVsBareLoop: +(bare / firstRunMs).toFixed(3),
    editRunVsBareLoop: +(bare / editMs).toFixed(3),
    tabsReadyMs: Math.round(Math.max(...Object.values(tabMs))),
    maxMainThreadLagMs: Math.round(longest),
    heapMB: Math.round(heap),
    dataWorkerHeapMB: Math.round(dataWorker),
    rewardWorkersHeapMB: Math.round(rewardWorkers),
  };
  log(
    `\n${FMT} rollouts (${mb.toFixed(0)} MB${GZIP ? ', uploaded gzip-compressed' : PARQUET ? ', uploaded as Parquet' : CHAT ? ', chat records with a tool call' : ''}), one tab; CPU taken by the hypervisor (steal) during the sequence: ${steal}; load average ${(
      await import('node:os')
    )
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  log(`  import ${importMs.toFixed(0)} ms against a bare JSON.parse loop of ${base.parse.toFixed(0)} ms → ${out.importVsJsonParse}×`);
  log(`  first run after the import (started by the studio) ${firstRunMs.toFixed(0)} ms against a bare loop of ${bare.toFixed(0)} ms → ${out.runVsBareLoop}×`);
  log(`  edit → Run: ${editRuns.map((x) => x.toFixed(0)).join(', ')} ms (median ${editMs.toFixed(0)}) → ${out.editRunVsBareLoop}×`);
  log(`  slowest tab ${out.tabsReadyMs} ms; longest main-thread task ${out.maxMainThreadLagMs} ms (${longCount} over 100 ms); page heap ${out.heapMB} MB`);
  if (JSON_OUT) console.log(JSON.stringify(out));
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
