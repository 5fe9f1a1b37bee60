// Text search at scale (issue 27): `node bench/search.bench.mjs --rows 1000000 --json` (build first; `--dist DIR`
// serves another build). Imports the scale bench's file (bench/rollouts.mjs), waits for the run the studio starts,
// then types needles into "Search text" and takes the studio's `search` measure of each (the data worker's answer,
// from the request to the table's rows; the 150 ms wait after a key is not in it). Baseline, in a worker of the same
// page: the file read in 64 MB slices, every line parsed with JSON.parse and its values tested with the search's
// regex (a search that keeps no rows, without the raw-line test). Prints one JSON line
// {rows, searches: {needle: ms}, bareParseSearchMs, ratio} (ratio: the bare loop / the median search).
import { benchFileInput, launch, median, openStudioPage, PORT, shutDown, startPreview } from './browser.mjs';
import { scaleFile } from './rollouts.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROWS = arg('rows', 1_000_000);
const JSON_OUT = process.argv.includes('--json');
const FMT = ROWS.toLocaleString('en-US');
const log = (...a) => console.error(...a);
// No row holds "zebra"; "must now" is in ~2 % of completions; "q12345" in the uids q12345, q123450…; "983" could be a
// number's text; "Question 777:" text a flattened turn could hold ("user: …"); "zebra" again: a repeat costs the same.
const NEEDLES = ['zebra', 'must now', 'q12345', '983', 'Question 777:', 'zebra'];

const path = scaleFile(ROWS, log);

const dist = process.argv.includes('--dist') ? process.argv[process.argv.indexOf('--dist') + 1] : undefined;
const server = await startPreview({ outDir: dist });
const browser = await launch();
try {
  const { page } = await openStudioPage(browser, `http://localhost:${PORT}/`, { viewport: { width: 1600, height: 1000 } });
  await benchFileInput(page, path);
  log(`importing ${FMT} rollouts …`);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload trajectories' }).click()]);
  await chooser.setFiles(path);
  await page.getByTestId('run-summary').getByText(`${FMT} scored`).waitFor({ timeout: 600_000 });
  await page.waitForTimeout(2000);

  const box = page.getByRole('searchbox', { name: 'Search text' });
  const searches = {};
  const counts = {};
  for (const [i, needle] of NEEDLES.entries()) {
    const before = await page.evaluate(() => performance.getEntriesByName('search', 'measure').length);
    const t0 = Date.now();
    await box.fill(needle);
    // Builds before the `search` measure are timed from the key to the table's new count, less the 150 ms wait.
    await page.waitForFunction(
      ([n, all]) => performance.getEntriesByName('search', 'measure').length > n || document.querySelector('[data-testid="shown-count"]').textContent !== all,
      [before, `${FMT} shown`],
      { timeout: 600_000, polling: 20 },
    );
    const wall = Date.now() - t0;
    await page.waitForFunction((n) => performance.getEntriesByName('search', 'measure').length > n, before, { timeout: 2000, polling: 20 }).catch(() => null);
    const measured = await page.evaluate((n) => performance.getEntriesByName('search', 'measure')[n]?.duration ?? null, before);
    const ms = measured ?? wall - 150;
    const shown = await page.getByTestId('shown-count').textContent();
    const key = searches[needle] === undefined ? needle : `${needle} (again)`;
    searches[key] = Math.round(ms);
    counts[key] = shown;
    log(
      `search ${i + 1} "${needle}": ${ms.toFixed(0)} ms${measured === null ? ' (no measure: wall time less 150 ms)' : ''} (${wall} ms from the first key to the table) → ${shown}`,
    );
    await box.fill('');
    await page.waitForTimeout(1000);
  }

  log('baseline …');
  const bare = await page.evaluate(async () => {
    const src = `onmessage = async (e) => {
      const file = e.data;
      const re = /zebra/i;
      const visit = (v) => {
        if (typeof v === 'string') return re.test(v);
        if (typeof v === 'number' || typeof v === 'boolean') return re.test(String(v));
        if (v === null || typeof v !== 'object') return false;
        for (const k in v) if (visit(v[k])) return true;
        return false;
      };
      const t0 = performance.now();
      const dec = new TextDecoder();
      let carry = '';
      let hits = 0;
      for (let at = 0; at < file.size; at += 64 << 20) {
        const text = carry + dec.decode(await file.slice(at, at + (64 << 20)).arrayBuffer(), { stream: true });
        const cut = text.lastIndexOf('\\n');
        carry = text.slice(cut + 1);
        for (const l of text.slice(0, cut + 1).split('\\n')) if (l && visit(JSON.parse(l))) hits++;
      }
      postMessage({ ms: performance.now() - t0, hits });
    }`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    const runs = [];
    for (let r = 0; r < 2; r++)
      runs.push(
        await new Promise((res) => {
          w.onmessage = (e) => res(e.data);
          w.postMessage(document.getElementById('bench-file').files[0]);
        }),
      );
    w.terminate();
    return runs;
  });
  const bareMs = Math.min(...bare.map((r) => r.ms));
  log(`bare parse-and-test loop: ${bare.map((r) => r.ms.toFixed(0)).join(', ')} ms (${bare[0].hits} hits)`);
  const out = { rows: ROWS, searches, bareParseSearchMs: Math.round(bareMs), ratio: +(bareMs / median(Object.values(searches))).toFixed(3) };
  log(JSON.stringify(counts));
  if (JSON_OUT) console.log(JSON.stringify(out));
  else log(out);
} finally {
  await shutDown(server, browser);
}
