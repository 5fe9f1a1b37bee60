// Shared set-up for browser benchmarks: a preview server of the production build and Debian's Chromium.
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import CHROMIUM_ARGS from '../e2e/chromium-args.json' with { type: 'json' };

// BENCH_PORT: another port, where several benches share a machine.
export const PORT = Number(process.env.BENCH_PORT ?? 4180);

/** `vite preview` of dist/ on PORT; `outDir` and `port` serve another build (bench/model.bench.mjs builds its own). */
export async function startPreview({ port = PORT, outDir } = {}) {
  const args = ['node_modules/vite/bin/vite.js', 'preview', '--port', String(port), '--strictPort', ...(outDir ? ['--outDir', outDir] : [])];
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  for (let i = 0; i < 100; i++) {
    // Exited (port taken: --strictPort): do not time whatever else answers on that port.
    if (proc.exitCode !== null) throw new Error(`vite preview exited with code ${proc.exitCode} (is port ${port} in use?)`);
    try {
      const r = await fetch(`http://localhost:${port}/`);
      if (r.ok) return proc;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.kill();
  throw new Error('vite preview did not start (run `npx vite build` first)');
}

/** `BENCH_JS_FLAGS`: V8 flags for Chromium (experiments on the engine's heap; a page cannot set them). */
export async function launch() {
  const flags = process.env.BENCH_JS_FLAGS ? [`--js-flags=${process.env.BENCH_JS_FLAGS}`] : [];
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...flags] });
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** End a benchmark: stop the preview server, close Chromium (it can hang on close: give up after 5 s), and exit. */
export async function shutDown(server, browser) {
  server.kill();
  await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5000))]);
  process.exit(process.exitCode ?? 0);
}

export { cpuSample, stealSince } from './cpu.mjs';

/**
 * Arm the page to notice the next User Timing measure `name` (earlier ones cleared); `measured` then waits for it and
 * returns its duration. A PerformanceObserver, not Playwright's waitForFunction: that polls on every animation frame,
 * which makes the page draw frames while the work runs and takes CPU from its workers.
 */
export async function expectMeasure(page, name) {
  await page.evaluate((n) => {
    performance.clearMeasures(n);
    window.__measured = new Promise((resolve) => {
      const o = new PerformanceObserver((l) => {
        if (l.getEntriesByName(n).length > 0) {
          o.disconnect();
          resolve();
        }
      });
      o.observe({ type: 'measure' });
    });
  }, name);
}

/** The duration of the measure `expectMeasure` armed the page for, once it is recorded. */
export async function measured(page, name) {
  await page.evaluate(() => window.__measured);
  return page.evaluate((n) => performance.getEntriesByName(n, 'measure')[0].duration, name);
}

/** Put `query` in the page's URL (flags such as ?pieces) and record every long task from now on in window.__long. */
export async function watchLongTasks(page, query) {
  await page.evaluate((q) => {
    history.replaceState(null, '', `/${q}`);
    window.__long = [];
    window.__obs?.disconnect();
    window.__obs = new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]);
    });
    window.__obs.observe({ type: 'longtask' });
  }, query);
}

/** Paste a reward into the editor as a person would (the context needs clipboard permissions); resolves once saved. */
export async function pasteReward(page, code, key = 'reward-studio:code') {
  await page.evaluate((t) => navigator.clipboard.writeText(t), code);
  await page.locator('.monaco-editor').first().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.waitForFunction(([t, k]) => localStorage.getItem(k) === t, [code, key]);
}

/** `path` in a hidden file input of the page (not the studio's), for baselines that read the file in a worker. */
export async function benchFileInput(page, path) {
  await page.evaluate(() => {
    const i = document.createElement('input');
    i.type = 'file';
    i.id = 'bench-file';
    i.hidden = true;
    document.body.append(i);
  });
  await page.setInputFiles('#bench-file', path);
}

/** The studio at `url` in a new context that may paste (pasteReward), once the demo's first run is on screen. */
export async function openStudioPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByTestId('run-summary').getByText('800 scored').waitFor();
  return { context, page };
}

/** The benches' baseline in the page: Chromium's own sort of `n` random doubles, in ms. */
export async function sortBaselineMs(page, n) {
  return page.evaluate((k) => {
    const a = new Float64Array(k).map(() => Math.random());
    const t0 = performance.now();
    a.sort();
    return performance.now() - t0;
  }, n);
}

/**
 * The JS heap of every dedicated worker of the page and of its frames (the reward workers live in the sandbox frame's
 * process, out of Playwright's reach), after a forced GC in each: CDP auto-attach from each frame's session, the
 * workers' messages through `Target.sendMessageToTarget`. Returns [{ frame, url, usedMB, buffersMB }].
 */
export async function workerHeaps(context, page) {
  const out = [];
  for (const f of page.frames()) {
    let s;
    try {
      s = await context.newCDPSession(f);
    } catch {
      continue; // an in-process frame: its workers are the page's
    }
    let id = 0;
    const pending = new Map();
    const attached = [];
    s.on('Target.attachedToTarget', (ev) => attached.push(ev));
    s.on('Target.receivedMessageFromTarget', (ev) => {
      const m = JSON.parse(ev.message);
      pending.get(m.id)?.(m);
      pending.delete(m.id);
    });
    await s.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    await new Promise((r) => setTimeout(r, 300));
    const call = (sessionId, method) =>
      new Promise((res) => {
        const i = ++id;
        pending.set(i, res);
        void s.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: i, method, params: {} }) });
      });
    for (const a of attached) {
      if (a.targetInfo.type !== 'worker') continue;
      await call(a.sessionId, 'HeapProfiler.collectGarbage');
      const r = (await call(a.sessionId, 'Runtime.getHeapUsage')).result;
      if (r) out.push({ frame: f.url().split('/').pop(), url: a.targetInfo.url, usedMB: r.usedSize / 1e6, buffersMB: (r.backingStorageSize ?? 0) / 1e6 });
    }
    await s.detach().catch(() => undefined);
  }
  return out;
}
