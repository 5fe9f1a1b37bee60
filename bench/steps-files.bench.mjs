// A training run of many files (issue 24): 50 steps × 10,000 rollouts (500,000 rows) written as verl dumps
// (`rollout_data_dir/{step}.jsonl`: input, output, gts, score, step), opened with **Open folder** in one tab of the
// production build in headless Chromium. Figures: time to the first step's charts (its rows scored and drawn), time
// to every step loaded, the longest main-thread task (long-task observer) from the pick to the end of the reward run
// that follows; then the Over steps tab on all 500,000 rows (click → per-step table, longest task). Baseline in the same run: the same rows as ONE file through the one-file import (Upload trajectories).
// `--parquet`: the folder holds the same rows as TRL completions logs (`{step}.parquet`: step, prompt, completion,
// ground_truth, score), which have no line index: each reward worker reads whole only the files its rows are in. The
// JSON line then also gives the workers' heaps after the folder's run (`rewardWorkersHeapMB`, `dataWorkerHeapMB`).
// `--dist DIR` serves another build.
// Usage: npx vite build && node bench/steps-files.bench.mjs [steps] [rowsPerStep] [reps] [--parquet] [--dist DIR]
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { cpuSample, launch, median, shutDown, startPreview, stealSince, workerHeaps } from './browser.mjs';

const PARQUET = process.argv.includes('--parquet');
const DIST = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : undefined;
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--dist');
const STEPS = Number(positional[0] ?? 50);
const PER_STEP = Number(positional[1] ?? 10_000);
const REPS = Number(positional[2] ?? 1);
const ROWS = STEPS * PER_STEP;
const PORT = 4187; // not bench/browser.mjs's: other benchmarks may be serving there
const fmt = (n) => n.toLocaleString('en-US');

// verl's dump shape: groups of 8 rollouts share one `input` (verl has no group id: grouped by identical input).
const dir = `bench/out/steps-${STEPS}x${PER_STEP}`;
const one = `bench/out/steps-${STEPS}x${PER_STEP}-one.jsonl`;
if (!statSync(one, { throwIfNoEntry: false })) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const words =
    'the of and to a in is that for it as was with be by on not this are or from at which but have an they you were there would their we been has when will more no if out so what up its about into than them can only other new some could time these two may then do first any now such like over even most made after also did many before must through back years where much way well down should because each just those people'.split(
      ' ',
    );
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const text = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  const all = [];
  for (let s = 1; s <= STEPS; s++) {
    const lines = [];
    let input = '';
    for (let i = 0; i < PER_STEP; i++) {
      if (i % 8 === 0) input = `Question ${Math.floor(i / 8)}: ${text(25)}?`;
      const gts = String(Math.floor(rnd() * 100));
      const answer = rnd() < 0.3 ? gts : String(Math.floor(rnd() * 100));
      lines.push(JSON.stringify({ input, output: `${text(40)}\nA: ${answer}`, gts, score: answer === gts ? 1 : 0, step: s }));
    }
    const body = lines.join('\n') + '\n';
    writeFileSync(`${dir}/${s}.jsonl`, body);
    all.push(body);
  }
  writeFileSync(one, all.join(''));
}
// The same rows as TRL completions logs, one parquet file per step.
const parquetDir = `${dir}-parquet`;
if (PARQUET && !existsSync(parquetDir)) {
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  mkdirSync(parquetDir, { recursive: true });
  for (let s = 1; s <= STEPS; s++) {
    const rows = (await import('node:fs'))
      .readFileSync(`${dir}/${s}.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const col = (name, type, f) => ({ name, type, data: rows.map(f) });
    const buf = parquetWriteBuffer({
      columnData: [
        col('step', 'INT32', (r) => r.step),
        col('prompt', 'STRING', (r) => r.input),
        col('completion', 'STRING', (r) => r.output),
        col('ground_truth', 'STRING', (r) => r.gts),
        col('score', 'DOUBLE', (r) => r.score),
      ],
    });
    writeFileSync(`${parquetDir}/${String(s).padStart(5, '0')}.parquet`, new Uint8Array(buf));
  }
}
const folderPath = PARQUET ? parquetDir : dir;
const mb = statSync(one).size / 1e6;
const files = readdirSync(folderPath).length;

const server = await startPreview({ port: PORT, ...(DIST ? { outDir: DIST } : {}) });
const browser = await launch();
try {
  const page = await browser.newPage();
  await page.goto(`http://localhost:${PORT}/`);
  await page.getByRole('status', { name: 'Dataset status' }).getByText('800 trajectories').waitFor();

  /**
   * Pick `what` with the button `button`; resolves with the page's own times (ms from the studio's `import:start`):
   * the first step on screen (`import-first-step`), its rows scored (the end of the first `reward-run` that starts
   * after it: the charts are drawn from that run), every row loaded (`import`), every row scored (the end of the run
   * that starts after `import`), and the longest main-thread task from the pick to then.
   */
  const open = async (button, what) => {
    await page.evaluate(() => {
      performance.clearMeasures();
      window.__long = [];
      window.__measures = [];
      for (const o of window.__obs ?? []) o.disconnect();
      const tasks = new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]);
      });
      tasks.observe({ type: 'longtask' });
      window.__done = new Promise((resolve) => {
        const measures = new PerformanceObserver((l) => {
          for (const e of l.getEntries()) window.__measures.push({ name: e.name, start: e.startTime, end: e.startTime + e.duration });
          const imp = window.__measures.find((m) => m.name === 'import');
          if (imp && window.__measures.some((m) => m.name === 'reward-run' && m.start >= imp.end)) resolve();
        });
        measures.observe({ type: 'measure' });
        window.__obs = [tasks, measures];
      });
    });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: button }).click()]);
    await chooser.setFiles(what);
    await page.evaluate(() => window.__done);
    await page.waitForTimeout(300);
    return page.evaluate(() => {
      const ms = window.__measures;
      const start = performance.getEntriesByName('import:start', 'mark').at(-1).startTime;
      const imp = ms.find((m) => m.name === 'import');
      const first = ms.find((m) => m.name === 'import-first-step');
      const firstRun = first ? ms.find((m) => m.name === 'reward-run' && m.start >= first.end) : undefined;
      const lastRun = ms.find((m) => m.name === 'reward-run' && m.start >= imp.end);
      const long = window.__long.filter(([s, d]) => s + d > start && s < lastRun.end + 300).map(([, d]) => d);
      return {
        status: document.querySelector('[aria-label="Dataset status"]')?.textContent ?? '',
        // Where the main thread was held (ms from the pick): for the profile in bench/README.md.
        tasks: window.__long.filter(([s, d]) => s + d > start && d >= 50).map(([s, d]) => `${Math.round(s - start)}+${Math.round(d)}`),
        marks: ms.map((m) => `${m.name}@${Math.round(m.start - start)}-${Math.round(m.end - start)}`),
        firstShown: first ? first.end - start : null,
        firstCharts: firstRun ? firstRun.end - start : null,
        loaded: imp.end - start,
        scored: lastRun.end - start,
        longest: Math.max(0, ...long),
      };
    });
  };

  /** The Over steps tab on the whole run: click → its per-step table drawn, and the longest main-thread task meanwhile. */
  const overSteps = async () => {
    await page.evaluate(() => {
      window.__tabLong = [];
      window.__tabObs?.disconnect();
      window.__tabObs = new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__tabLong.push(e.duration);
      });
      window.__tabObs.observe({ type: 'longtask' });
      window.__tabClick = performance.now();
    });
    await page.getByRole('tab', { name: 'Over steps' }).click();
    await page.getByRole('table', { name: 'Figures per step' }).getByRole('row').nth(STEPS).waitFor();
    const drawn = await page.evaluate(() => performance.now() - window.__tabClick);
    await page.waitForTimeout(300);
    const longest = await page.evaluate(() => Math.max(0, ...window.__tabLong));
    await page.getByRole('tab', { name: 'Distribution' }).click();
    return { drawn, longest };
  };

  const cpu = cpuSample();
  const folder = [];
  const single = [];
  // A warm-up of the one-file import (not timed): the first import of a page compiles the import code.
  await open('Upload trajectories', one);
  for (let rep = 0; rep < REPS; rep++) {
    const f = await open('Open folder', folderPath);
    if (rep === 0) {
      const heaps = await workerHeaps(page.context(), page);
      f.rewardWorkersHeapMB = Math.round(heaps.filter((w) => w.url.startsWith('blob:')).reduce((n, w) => n + w.usedMB, 0));
      f.dataWorkerHeapMB = Math.round(heaps.filter((w) => /import\.worker/.test(w.url)).reduce((n, w) => n + w.usedMB, 0));
    }
    const tab = await overSteps();
    f.overStepsMs = tab.drawn;
    f.overStepsLongest = tab.longest;
    const o = await open('Upload trajectories', one);
    for (const r of [f, o]) if (!r.status.includes(`${fmt(ROWS)} trajectories`)) throw new Error(`not every row loaded: ${r.status}`);
    folder.push(f);
    single.push(o);
    console.log(`rep ${rep + 1}: folder ${JSON.stringify(f)} · one file ${JSON.stringify(o)}`);
  }
  const m = (xs, k) => median(xs.map((x) => x[k]));
  const result = {
    bench: 'steps',
    steps: STEPS,
    rowsPerStep: PER_STEP,
    rows: ROWS,
    files,
    mb: Number(mb.toFixed(1)),
    reps: REPS,
    firstStepShownMs: Math.round(m(folder, 'firstShown')),
    firstStepChartsMs: Math.round(m(folder, 'firstCharts')),
    allStepsLoadedMs: Math.round(m(folder, 'loaded')),
    allStepsScoredMs: Math.round(m(folder, 'scored')),
    longestTaskMs: Math.round(Math.max(...folder.map((x) => x.longest))),
    overStepsTabMs: Math.round(m(folder, 'overStepsMs')),
    overStepsLongestTaskMs: Math.round(Math.max(...folder.map((x) => x.overStepsLongest))),
    ...(folder[0].rewardWorkersHeapMB !== undefined
      ? { rewardWorkersHeapMB: folder[0].rewardWorkersHeapMB, dataWorkerHeapMB: folder[0].dataWorkerHeapMB, parquet: PARQUET }
      : {}),
    baselineOneFileLoadedMs: Math.round(m(single, 'loaded')),
    baselineOneFileScoredMs: Math.round(m(single, 'scored')),
    baselineLongestTaskMs: Math.round(Math.max(...single.map((x) => x.longest))),
    ratioLoadedFolderOverOneFile: Number((m(folder, 'loaded') / m(single, 'loaded')).toFixed(2)),
    ratioFirstChartsOverOneFileLoaded: Number((m(folder, 'firstCharts') / m(single, 'loaded')).toFixed(3)),
    targets: { firstStepChartsMs: 2000, allStepsLoadedMs: 15000, longestTaskMs: 100, overStepsLongestTaskMs: 100 },
    steal: stealSince(cpu),
    load: execSync('uptime').toString().trim(),
  };
  console.log(JSON.stringify(result));
} finally {
  await shutDown(server, browser);
}
