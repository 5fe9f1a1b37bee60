// Python rewards in the studio itself: the Python template (the GSM8K demo reward as a verl `compute_score`) run by
// the page's Run over a generated 100,000-rollout JSONL (bench/rollouts.mjs) in Chromium, against the same file and
// function in native CPython (bench/python_baseline.py: a plain loop, timed after its own json.loads of the file).
//
// Two pages, alternating in every round with the native run:
// - one Python worker (`?workers=1`): one interpreter on one core, like the single native process;
// - the default pool (one worker per core, at least 2), as a user gets it.
// On each page, per round:
// - first run: the file is uploaded again (a new dataset), and the Run that follows an import runs the Python reward:
//   each worker reads its rows from the file and moves them into Python, then calls the function on every row;
// - run again: Run pressed on the same data 2 s later: only the calls (the rows are kept in the workers, which made
//   the argument copies for it in the meantime);
// - edit run: 2 s later, the code edited (a comment added), and Run pressed once the user has taken `--edit-ms` (default
//   2,000) to edit: a new code gets fresh interpreters (docs/engine.md, "One reward cannot change the next"), started
//   when the edit begins, which read and convert the rows meanwhile.
// Times are the studio's 'reward-run' User Timing measure (from the run's start to the scores being in the page).
// Each ratio is native / studio, the median of the rounds' own ratios (the machine drifts between rounds). The
// interpreters' start-up is not in these times: each page runs Python once before the rounds (see
// bench/python-startup.bench.mjs for start-up).
// Usage: npx vite build && node bench/python-browser.bench.mjs [rows] [reps] [--dist DIR] [--edit-ms MS]
import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpuSample, expectMeasure, launch, measured, median, pasteReward, PORT, shutDown, startPreview, stealSince } from './browser.mjs';
import { writeRollouts } from './rollouts.mjs';
import { importTs } from './tsImport.mjs';

const argv = process.argv.slice(2);
const distAt = argv.indexOf('--dist');
/** `--dist DIR`: serve another build (a base to compare with). */
const DIST = distAt >= 0 ? argv.splice(distAt, 2)[1] : undefined;
const editAt = argv.indexOf('--edit-ms');
/** How long the user takes to edit the code, from the first change to Run. */
const EDITING_MS = editAt >= 0 ? Number(argv.splice(editAt, 2)[1]) : 2000;
const ROWS = Number(argv[0] ?? 100_000);
const REPS = Number(argv[1] ?? 5);
const ROOT = resolve(import.meta.dirname, '..');
/** Between a run and the next: the time a user takes to edit the reward (the workers prepare the next run meanwhile). */
const EDIT_MS = 2000;
const rowsText = ROWS.toLocaleString('en-US');

mkdirSync(resolve(ROOT, 'bench/out'), { recursive: true });
const data = resolve(ROOT, `bench/out/python-${ROWS}.jsonl`);
writeRollouts(data, ROWS);
const mb = statSync(data).size / 1e6;
// The studio's Python template is what the page runs once Python is picked; native runs the very same file.
const { DEFAULT_REWARD_PY } = await importTs('src/core/reward/defaultRewardPy.ts');
const reward = resolve(ROOT, 'bench/out/python-template.py');
writeFileSync(reward, DEFAULT_REWARD_PY);

if (spawnSync('python3', ['--version']).status !== 0) {
  console.error('python3 is needed for the baseline');
  process.exit(1);
}
function runNative() {
  const r = spawnSync('python3', ['bench/python_baseline.py', reward, data, 'compute_score'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const server = await startPreview({ outDir: DIST });
const browser = await launch();
try {
  /** A page on `query` with the file loaded and Python picked and warm (each worker has loaded Pyodide). */
  const openPage = async (query) => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await page.goto(`http://localhost:${PORT}/${query}`);
    await page.getByRole('status', { name: 'Dataset status' }).getByText('800 trajectories').waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
    await page.locator('.monaco-editor .view-lines').filter({ hasText: 'compute_score' }).first().waitFor();
    await run(page, () => page.getByRole('button', { name: 'Run', exact: true }).click(), 800);
    return page;
  };
  /** Start a run with `start` and wait for its 'reward-run' measure; the scores must be all there, with no error. */
  const run = async (page, start, rows = ROWS) => {
    await expectMeasure(page, 'reward-run');
    await start();
    const ms = await measured(page, 'reward-run');
    const summary = page.getByTestId('run-summary');
    await summary.getByText(`${rows.toLocaleString('en-US')} scored`).waitFor({ timeout: 60_000 });
    const text = await summary.textContent();
    if (/error|timed out/.test(text)) throw new Error(`a row failed: ${text}`);
    return { ms, mean: Number(/mean ([\d.]+)/.exec(text)?.[1]) };
  };
  const upload = async (page) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
    await chooser.setFiles(data);
  };

  const pages = { one: await openPage('?workers=1'), pool: await openPage('') };
  const t = { native: [], nativeRead: [], one: [], oneAgain: [], oneEdit: [], pool: [], poolAgain: [], poolEdit: [] };
  let nativeMean;
  const means = new Set();
  const cpu = cpuSample();
  for (let rep = 0; rep < REPS; rep++) {
    const n = runNative();
    t.native.push(n.score_ms);
    t.nativeRead.push(n.read_ms);
    nativeMean = (n.sum / n.rows).toFixed(4);
    const order = rep % 2 === 0 ? ['one', 'pool'] : ['pool', 'one'];
    for (const k of order) {
      const page = pages[k];
      const first = await run(page, () => upload(page));
      // The time a user takes to edit the reward: the workers make the next run's argument copies meanwhile.
      await page.waitForTimeout(EDIT_MS);
      const again = await run(page, () => page.getByRole('button', { name: 'Run', exact: true }).click());
      await page.waitForTimeout(EDIT_MS);
      await pasteReward(page, `${DEFAULT_REWARD_PY}\n# edit ${rep} ${k}\n`, 'reward-studio:code-py');
      await page.waitForTimeout(EDITING_MS);
      const edit = await run(page, () => page.getByRole('button', { name: 'Run', exact: true }).click());
      await page.waitForTimeout(300);
      t[k].push(first.ms);
      t[`${k}Again`].push(again.ms);
      t[`${k}Edit`].push(edit.ms);
      means.add(first.mean.toFixed(4)).add(again.mean.toFixed(4)).add(edit.mean.toFixed(4));
    }
    console.log(
      `round ${rep + 1}: native ${n.score_ms.toFixed(0)} ms (reading ${n.read_ms.toFixed(0)} ms) · one worker ${t.one.at(-1).toFixed(0)} ms, again ${t.oneAgain.at(-1).toFixed(0)} ms, edited ${t.oneEdit.at(-1).toFixed(0)} ms · pool ${t.pool.at(-1).toFixed(0)} ms, again ${t.poolAgain.at(-1).toFixed(0)} ms, edited ${t.poolEdit.at(-1).toFixed(0)} ms`,
    );
  }
  if (means.size !== 1 || !means.has(nativeMean)) throw new Error(`the studio's mean reward ${[...means].join(', ')} is not native's ${nativeMean}`);
  const ratio = (k, base = t.native) => median(t[k].map((x, i) => base[i] / x)).toFixed(2);
  const ms = (k) => `${median(t[k]).toFixed(0)} ms`.padStart(9);
  const cores = await pages.pool.evaluate(() => navigator.hardwareConcurrency);
  console.log(
    `\nPython reward over ${rowsText} rollouts (${mb.toFixed(1)} MB JSONL) in Chromium, medians of ${REPS}; steal ${stealSince(cpu)}; mean reward ${nativeMean} on both sides`,
  );
  const rows = [
    ['native CPython, the scoring loop', 'native', `(its json.loads of the file before it: ${median(t.nativeRead).toFixed(0)} ms)`],
    ['one worker, first run on the data', 'one'],
    ['one worker, run again (2 s later, the same code)', 'oneAgain'],
    [`one worker, the code edited, run (${EDITING_MS / 1000} s of editing)`, 'oneEdit'],
    [`default pool (${Math.max(2, cores)} workers, ${cores} cores), first run`, 'pool'],
    ['default pool, run again (2 s later)', 'poolAgain', '(target ≥ 0.4×)'],
    [`default pool, the code edited, run (${EDITING_MS / 1000} s of editing)`, 'poolEdit'],
  ];
  for (const [label, k, note] of rows) console.log(`  ${`${label}:`.padEnd(54)}${ms(k)}  ${k === 'native' ? '' : `native / this ${ratio(k)}×  `}${note ?? ''}`);
  const withRead = t.native.map((x, i) => x + t.nativeRead[i]);
  console.log(`  first runs against native reading + scoring:       one worker ${ratio('one', withRead)}×, pool ${ratio('pool', withRead)}×`);
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
