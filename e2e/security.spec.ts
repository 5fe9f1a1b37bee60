import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import FIXTURES from '../src/core/session/fixtures/share-links.json' with { type: 'json' };
import { SHARE_VERSION } from '../src/core/session/schema';
import { decodeShare, encodeFrame, toBase64Url } from '../src/core/session/shareCodec';
import { expectSaved, openStudio, runAndWait, statusLine, typeReward, upload } from './helpers';

/** Attacks on the studio from reward code, as a hostile colleague would write it (issue 20). */

/** Show only the rows that failed, open row `row` and give the note that says why it failed. */
async function failedRowNote(page: Page, row: number) {
  await page.getByRole('checkbox', { name: 'Errors only' }).check();
  await page.locator(`.rt-data[data-row="${row}"]`).click();
  return page.getByRole('complementary', { name: 'Rollout detail' }).getByRole('note');
}

test('forged result messages posted by reward code are dropped and reported; the scores are the real ones', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await openStudio(page);
  await typeReward(
    page,
    `export default function reward(t) {
  if (t.index % 100 === 0) {
    const n = 800;
    const forged = { kind: 'result', taskId: t.index + 1, result: { start: 0, scores: new Float64Array(n).fill(99), status: new Uint8Array(n).fill(1), errors: [], components: {}, notes: [{ row: 0, note: { evil: true } }] } };
    self.postMessage(forged);
    postMessage(forged);
    Object.getOwnPropertyDescriptor(self, "postMessage").value.call(self, forged);
    try { MessagePort.prototype.postMessage = function () { throw new Error('patched'); }; } catch {}
  }
  return 1;
}
`,
  );
  await runAndWait(page, 'mean 1.0000 · 800 scored');
  await expect(page.getByText(/Reward code posted a message of its own to the page; it was dropped/).first()).toBeVisible();
  expect(pageErrors).toEqual([]);
  // The page starts again as it was.
  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('run-summary')).toContainText('mean 1.0000 · 800 scored');
});

test('a reward cannot change what the next one computes or posts: the realm is frozen, and the rollouts', async ({ page }) => {
  await openStudio(page);
  // Eleven changes a later reward in the same worker would see; each is refused, and the reward scores how many were.
  await typeReward(
    page,
    `export default function reward(t) {
  const tries = [
    () => { String.prototype.includes = () => false; },
    () => { Function.prototype.call = function () { return 0; }; },
    () => { JSON.parse = () => ({}); },
    () => { Array.prototype.map = function () { return []; }; },
    () => { Object.values = () => []; },
    () => { globalThis.Math = { max: () => -1 }; },
    () => { Object.defineProperty(self, 'Number', { value: () => 0 }); },
    () => { Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true }); },
    () => { Float64Array.prototype.fill = function () { return this; }; },
    () => { MessagePort.prototype.postMessage = function () {}; },
    () => { t.completion = 'x'; },
  ];
  let refused = 0;
  for (const f of tries) try { f(); } catch { refused++; }
  return refused;
}
`,
  );
  await runAndWait(page, 'mean 11.0000 · 800 scored');
  // The next reward gets the realm and the rollouts as they were: 1 + 1 + 1 + 1 (+ 1000 when its own Error subclass names itself).
  await typeReward(
    page,
    `class Mine extends Error { constructor(m) { super(m); this.name = 'Mine'; } }
export default function reward(t) {
  const ok = t.completion.includes(t.completion) && JSON.parse('2') === 2 && [1].map((x) => x)[0] === 1;
  return (ok ? 1 : 0) + Math.max(0, Object.values({ a: 1 })[0]) + Number('1') + (t.completion === 'x' ? 0 : 1) + (String(new Mine('m')) === 'Mine: m' ? 1000 : 0);
}
`,
  );
  await runAndWait(page, 'mean 1004.0000 · 800 scored');
});

test('a reward that changes its rollout fails those rows, and the detail view says why and what to do', async ({ page }) => {
  await openStudio(page);
  await typeReward(
    page,
    'export default function reward(t) {\n  if (t.index % 2 === 0) t.messages.push({ role: "user", content: "more" });\n  return t.messages.length;\n}\n',
  );
  await runAndWait(page, '400 scored · 400 errors');
  await expect(await failedRowNote(page, 0)).toContainText('rollouts and built-ins are read-only in reward code: change a copy');
});

test('a reward that changes RegExp.prototype (left unfrozen for speed) stops its run with the reason; the next Run is whole', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, "export default function reward(t) {\n  RegExp.prototype[Symbol.split] = () => ['x'];\n  return 1;\n}\n");
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'reward code changed RegExp.prototype' })).toBeVisible({ timeout: 15_000 });
  await typeReward(page, 'export default function reward(t) {\n  return t.completion.split(/\\s+/).length > 1 ? 1 : 0;\n}\n');
  await runAndWait(page, 'mean 1.0000 · 800 scored');
});

test('close() in reward code fails that row with the reason; the run goes on', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, 'export default function reward(t) {\n  if (t.index === 5) self.close();\n  return 1;\n}\n');
  await runAndWait(page, '799 scored · 1 error');
  await expect(await failedRowNote(page, 5)).toContainText('close() is not available in reward code');
});

test('a reward that never returns on any row stops early with the reason', async ({ page }) => {
  await openStudio(page);
  await page.getByRole('spinbutton', { name: 'Time limit per row (ms)' }).fill('300');
  await typeReward(page, 'export default function reward(t) {\n  while (true) {}\n}\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'every row so far timed out: the reward probably never returns' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeHidden();
});

test('megabyte notes are cut; components named __proto__, constructor and toString are kept', async ({ page }) => {
  await openStudio(page);
  await typeReward(
    page,
    `export default function reward(t) {
  return { score: 1, note: 'x'.repeat(3_000_000), components: JSON.parse('{"__proto__": 1, "constructor": 2, "toString": 3}') };
}
`,
  );
  await runAndWait(page, 'mean 1.0000 · 800 scored');
  for (const name of ['__proto__', 'constructor', 'toString']) await expect(page.getByRole('figure', { name: `Component ${name} histogram` })).toBeVisible();
  await page.locator('.rt-data[data-row="3"]').click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toContainText('(note cut at 2,000 characters)');
});

test('a parquet INT64 above 2^53 is shown exactly; opening its row and reloading leave the page whole', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const { parquetWriteBuffer } = await import('hyparquet-writer');
  const buf = parquetWriteBuffer({
    columnData: [
      { name: 'prompt', data: ['What is 6*7?', 'What is 6*7?'], type: 'STRING' },
      { name: 'completion', data: ['42', '41'], type: 'STRING' },
      { name: 'request_id', data: [9007199254740993n, 18446744073709551n], type: 'INT64' },
    ],
  });
  await openStudio(page);
  await upload(page, 'big-ids.parquet', Buffer.from(buf));
  await expect(statusLine(page)).toContainText('2 trajectories');
  await page.locator('.rt-data[data-row="0"]').click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  await expect(detail).toContainText('9007199254740993');
  await expectSaved(page);
  await page.reload();
  await expect(statusLine(page)).toContainText('2 trajectories');
  await page.locator('.rt-data[data-row="0"]').click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toContainText('9007199254740993');
  expect(pageErrors).toEqual([]);
});

test('a share link whose inline data does not match its SHA-256 is refused whole; the session stays as it was', async ({ page }) => {
  const r = decodeShare(FIXTURES.v2_inline);
  if (!r.ok || !r.data) throw new Error('fixture');
  const data = new Uint8Array(r.data);
  data[data.length - 2] ^= 1; // one bit of the carried rows changed, the named SHA-256 kept
  const forged = toBase64Url(encodeFrame(JSON.stringify(r.session), data, SHARE_VERSION));
  await openStudio(page);
  await page.goto(`/#s=${forged}`);
  await expect(page.getByText(/This share link cannot be opened: the data it carries does not match its SHA-256/)).toBeVisible();
  await expect(statusLine(page)).toContainText('800 trajectories');
});

test('a truncated .gz loads the rows before the cut and says the file ends early', async ({ page }) => {
  const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ prompt: `q${i}`, completion: `a${i} `.repeat(20) })).join('\n') + '\n';
  const gz = gzipSync(Buffer.from(text));
  await openStudio(page);
  await upload(page, 'cut.jsonl.gz', gz.subarray(0, Math.floor(gz.length * 0.6)), 'application/gzip');
  await expect(statusLine(page)).toContainText('trajectories');
  await expect(statusLine(page)).not.toContainText('800 trajectories');
  await page.getByRole('button', { name: /could not be read/ }).click();
  await expect(page.getByRole('region', { name: 'Skipped lines' })).toContainText('the gzip stream ends early, so the file is cut short');
});

test('a 30 MB completion opens at once: its first part, and a button for the rest', async ({ page }) => {
  test.slow(); // uploading 30 MB and laying out all of it after "Show all" take tens of seconds on a busy 2-core machine
  const huge = 'x'.repeat(30_000_000);
  const rows = [JSON.stringify({ prompt: 'p', completion: 'short' }), JSON.stringify({ prompt: 'p', completion: huge })].join('\n') + '\n';
  await openStudio(page);
  await upload(page, 'huge.jsonl', Buffer.from(rows));
  await expect(statusLine(page)).toContainText('2 trajectories');
  await page.locator('.rt-data[data-row="1"]').click();
  const detail = page.getByRole('complementary', { name: 'Rollout detail' });
  const assistant = detail.getByRole('listitem', { name: 'assistant turn' });
  await expect(assistant.getByRole('button', { name: 'Show all (30,000,000 characters)' })).toBeVisible();
  expect((await assistant.locator('pre').first().textContent())!.length).toBe(20_000);
  await assistant.getByRole('button', { name: 'Show all (30,000,000 characters)' }).click();
  await expect(assistant.getByRole('button', { name: /Show all/ })).toHaveCount(0);
});

/** What reward code finds when it reaches for the studio's storage: it must find nothing to open (issue 20). */
const STORAGE_PROBE = `export default function reward(t) {
  // Origin "null" is the sandbox; each storage that opens adds 1.
  let score = self.origin === 'null' ? 0 : 100;
  const tries = [
    () => indexedDB.open('reward-studio'),
    () => Object.getOwnPropertyDescriptor(WorkerGlobalScope.prototype, 'indexedDB').get.call(self).open('reward-studio'),
    () => caches.keys(),
  ];
  for (const f of tries) {
    try { if (f()) score += 1; } catch {}
  }
  if (t.index === 0) {
    // A nested worker tries too: where it can, it leaves a database of its own behind.
    const src = "try { indexedDB.open('planted-by-reward').onsuccess = () => postMessage('planted'); } catch (e) { postMessage(e.name); }";
    try { new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' }))); } catch {}
  }
  return score;
}
`;

test('TypeScript reward code cannot open the studio’s IndexedDB or caches, directly, through the prototype or from a nested worker', async ({ page }) => {
  await openStudio(page);
  await typeReward(page, STORAGE_PROBE);
  // In the studio's own origin the first two tries open a request: the mean would be at least 2 (100 outside the sandbox).
  await runAndWait(page, 'mean 0.0000 · 800 scored');
  await page.waitForTimeout(1500); // the nested worker's try, had it worked, would have created its database by now
  const names = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
  expect(names).not.toContain('planted-by-reward');
  // The studio's own storage still works for the studio.
  expect(names.length).toBeGreaterThan(0);
});

/** Open the studio, switch to Python, type `code`, press Run and wait for `summary` (Pyodide starts on the first run). */
async function runPythonReward(page: Page, code: string, summary: string): Promise<void> {
  await openStudio(page);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('py');
  await typeReward(page, code);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText(summary, { timeout: 90_000 });
}

test('Python reward code cannot open the studio’s IndexedDB either, though it reaches the worker’s global scope', async ({ page }) => {
  test.setTimeout(120_000);
  // The js module is empty in the studio's Python, but a JsProxy's constructor chain still reaches Function.
  await runPythonReward(
    page,
    `import pyodide_js

scope = pyodide_js.constructor.constructor("return self")()

def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    score = 0 if scope.origin == "null" else 100
    for reach in (lambda: scope.indexedDB.open("reward-studio"), lambda: scope.caches.keys()):
        try:
            if reach() is not None:
                score += 1
        except Exception:
            pass
    return score
`,
    'mean 0.0000 · 800 scored',
  );
});

test('Python reward code cannot change its worker’s JavaScript realm for the next run either', async ({ page }) => {
  test.setTimeout(120_000);
  await runPythonReward(
    page,
    `import pyodide_js

def run_js(code):
    pyodide_js.constructor.constructor('"use strict"; ' + code)()

run_js("return 1")  # reaches the realm: a refusal below is the realm refusing

def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    refused = 0
    for code in ("String.prototype.includes = () => false", "Function.prototype.call = function () {}", "self.JSON = {}"):
        try:
            run_js(code)
        except Exception:
            refused += 1
    return refused
`,
    'mean 3.0000 · 800 scored',
  );
});

test('a Python reward cannot change what the next Python code computes: each code gets an interpreter of its own', async ({ page }) => {
  test.setTimeout(180_000);
  // What one interpreter keeps between codes: builtins, modules, classes, the decimal context, and the rows the
  // harness holds for the next run (reached through the frames); plus a timer that would patch again later.
  await runPythonReward(
    page,
    `import asyncio, builtins, collections, decimal, math, re, statistics, string, sys

def poison():
    builtins.abs = lambda x: -1
    builtins.divmod = lambda a, b: (0, 0)
    re.match = lambda *a, **k: None
    statistics.mean = lambda xs: -1
    math.sqrt = lambda x: -1.0
    collections.Counter.most_common = lambda self, n=None: []
    decimal.getcontext().prec = 2
    string.digits = "x"
    f = sys._getframe()
    while f is not None and "_held" not in f.f_globals:
        f = f.f_back
    if f is not None:
        rows = f.f_globals["_held"]["rows"]
        for i, r in list(rows.items()):
            rows[i] = (r[0], "forged") + r[2:]
        f.f_globals["_ready"].clear()

def again():
    poison()
    asyncio.get_event_loop().call_later(0.05, again)

def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    poison()
    try:
        asyncio.get_event_loop().call_later(0.05, again)
    except Exception:
        pass
    return 1
`,
    'mean 1.0000 · 800 scored',
  );
  await typeReward(
    page,
    `import collections, decimal, math, re, statistics, string

def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    ok = 0
    ok += abs(-3) == 3
    ok += divmod(7, 2) == (3, 1)
    ok += re.match("a", "abc") is not None
    ok += statistics.mean([1, 2, 3]) == 2
    ok += math.sqrt(16.0) == 4.0
    ok += collections.Counter("aab").most_common(1) == [("a", 2)]
    ok += str(decimal.Decimal(1) / decimal.Decimal(3)) == "0." + "3" * 28
    ok += string.digits == "0123456789"
    ok += solution_str != "forged"
    return ok
`,
  );
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-summary')).toContainText('mean 9.0000 · 800 scored', { timeout: 90_000 });
});

test('a reward sandbox that stops answering mid-run (as when a reward crashes its process) fails that run with the reason; the page lives and the next Run works', async ({
  page,
}) => {
  await openStudio(page);
  const sandbox = page.frames().find((f) => f.url().endsWith('/sandbox.html'));
  expect(sandbox).toBeDefined();
  expect(await sandbox!.evaluate(() => [self.origin, self.crossOriginIsolated])).toEqual(['null', true]);
  await typeReward(page, 'export default function reward(t) {\n  const s = Date.now();\n  while (Date.now() - s < 40) {}\n  return 2;\n}\n');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
  // The sandbox's own thread stops for good. (It runs in a process of its own: a thread of the page would freeze the
  // page too, and the steps below would fail.)
  const frozen = sandbox!
    .evaluate(() => {
      for (;;);
    })
    .catch((e: Error) => e.message);
  await expect(page.getByRole('alert').filter({ hasText: 'the reward sandbox stopped' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toBeHidden();
  // The page removed the frozen sandbox.
  expect(await frozen).toContain('detached');
  // A fresh sandbox takes the next run.
  await typeReward(page, 'export default function reward(t) {\n  return 3;\n}\n');
  await runAndWait(page, 'mean 3.0000 · 800 scored');
});

test('a reward that allocates without end on one row: that row fails, its worker is replaced, the rest are scored and the page stays whole', async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await openStudio(page);
  await page.getByRole('spinbutton', { name: 'Time limit per row (ms)' }).fill('1500');
  await typeReward(
    page,
    'export default function reward(t) {\n  if (t.index === 7) {\n    const hoard = [];\n    for (;;) hoard.push(new Array(1e6).fill(t.index));\n  }\n  return 1;\n}\n',
  );
  await runAndWait(page, 'mean 1.0000 · 799 scored · 1 timed out');
  await expect(await failedRowNote(page, 7)).toContainText('timed out');
  expect(pageErrors).toEqual([]);
});

test('a panel that throws while rendering shows why; the rest of the studio works, and the reload after it starts safely', async ({ page }) => {
  // The detail view renders the row's fields with JSON.stringify(fields, null, 2): make exactly that throw, once asked.
  await page.addInitScript(() => {
    const stringify = JSON.stringify;
    JSON.stringify = function (this: unknown, ...args: Parameters<typeof JSON.stringify>) {
      if (args[2] === 2 && sessionStorage.getItem('test:break-detail') === '1') throw new Error('a field the view cannot show');
      return stringify.apply(this, args);
    } as typeof JSON.stringify;
  });
  await openStudio(page);
  await page.evaluate(() => sessionStorage.setItem('test:break-detail', '1'));
  await page.locator('.rt-data[data-row="3"]').click();
  await expect(page.getByRole('alert', { name: 'Rollout detail failed' })).toContainText('a field the view cannot show');
  // From here on JSON.stringify works again (saving the session uses it); the failed panel stays failed until asked.
  await page.evaluate(() => sessionStorage.removeItem('test:break-detail'));
  // The rest works: the editor, the table, a run.
  await expect(page.getByRole('heading', { name: 'Reward Studio' })).toBeVisible();
  await typeReward(page, 'export default function reward(t) {\n  return 2;\n}\n');
  await runAndWait(page, 'mean 2.0000 · 800 scored');
  // Run #2 is in IndexedDB before the reload (the session keeps its runs; this test is not about a reload racing a save).
  const storedRuns = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('reward-studio');
          open.onsuccess = () => {
            const count = open.result.transaction('runs').objectStore('runs').index('bySession').count(sessionStorage.getItem('reward-studio:tab-session')!);
            count.onsuccess = () => {
              resolve(count.result);
              open.result.close();
            };
          };
        }),
    );
  await expect.poll(storedRuns).toBe(2);
  // The open rollout was saved with the session: the reload leaves it closed and says why.
  await expectSaved(page);
  await page.reload();
  await expect(page.getByTestId('run-summary')).toContainText('mean 2.0000 · 800 scored');
  await expect(page.getByText('The Rollout detail panel failed before this reload')).toBeVisible();
  await expect(page.getByRole('alert', { name: 'Rollout detail failed' })).toBeHidden();
  // Asked again, the panel comes back.
  await page.locator('.rt-data[data-row="3"]').click();
  await expect(page.getByRole('complementary', { name: 'Rollout detail' })).toBeVisible();
});
