// Reward-model inference speed (issue 6): the 800 GSM8K demo rollouts (public/demo/gsm8k-rollouts.jsonl) through
// the tiny demo model (public/models/tiny-reward) and a larger generated one (scripts/make-tiny-reward-model.mjs
// --large: GPT-2 vocabulary × hidden 256, 4 token layers, up to 512 positions, 53 MB), in onnxruntime-web (WASM
// execution provider) inside Debian's Chromium against onnxruntime-node (CPU execution provider, the baseline) in
// this process, on the same machine at the same time.
//
// - Inputs: encoded in Node as the studio does (core/models/encode RolloutEncoder, 'pair' mode, the model folder's
//   own tokenizer files and max length read by core/models/modelFolder), cut into batches by core/models/batching
//   (planBatches with DEFAULT_BATCH_LIMITS, longest first; padBatch). Both runtimes get the same padded int64
//   tensors: the page (tests-pages/ort-bench.ts via window.ortBench) receives them once and builds its tensors
//   before timing. A pass = session.run over every batch plus reading the logits, timed inside each runtime.
// - Threads: a page that runs the model as the studio does (runtime/modelSession createModelSession: its own thread
//   setting, called through its infer), and pages with numThreads 1 and 2 and bare session.run (one page per count:
//   the WASM module is initialised once per page; the explicit page with the studio's count is left out, the studio
//   page stands for it); Node with its default intra-op pool (physical cores) and with intraOpNumThreads 1. Printed
//   ratios: web / node throughput for the studio's setting against Node's default, like for like at 1 thread, and
//   2 WASM threads against Node's default (when the studio's count is not 2).
// - Batching gain: the same rollouts with batch size 1 (planBatches with maxRows 1: same order, no padding)
//   against the dynamic batches, in both runtimes: dynamic / batch-1 throughput.
// - Cached re-run: in a page, the studio's scoring path (core/models/scoreRollouts + runtime/modelSession +
//   the real IndexedDB cache runtime/modelCache, as workers/model.worker.ts calls them, but on the page's main
//   thread) with the cache cleared, then again with every score in the cache; and the same in Node with an
//   in-memory cache. Printed: the cached re-run in ms and as a ratio to the uncached run.
// - WebGPU is not timed: Chromium here has only a software adapter (SwiftShader); its speed would mean nothing.
// Every configuration is timed once per round, rounds interleave the configurations (the machine is shared, load
// drifts), medians of REPS rounds after a warm-up pass each.
//
// Build and serving: the page needs the app's COOP/COEP headers (cross-origin isolation: threaded WASM), which
// `vite preview` with this config sends, and must reach the 53 MB model, which must never go under public/ (it
// would ship) nor into dist/ (other browser benches and tests use dist/ at the same time). So this bench builds its
// own copy into $TMPDIR/rs-bench-dist (`vite build --outDir`, ~30 s here; `--no-build` reuses one already there),
// writes the large model into $TMPDIR/rs-bench-models/large (deterministic bytes), copies it to
// <outDir>/bench-models/large/, and serves that copy on port 4181 (bench/browser.mjs uses 4180).
// Usage: node bench/model.bench.mjs [--reps=5] [--no-build] [--tiny-only] [--max-tokens=16384] [--also-max-tokens=4096,2048]
//        node bench/model.bench.mjs --real-size [--json] [--no-build] [--rollouts=16] [--max-length=128] [--reps=3]
//          [--models=encoder-fp32,...] [--tiny]: transformer reward models at real size instead (bench/model-real-size.mjs).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, openAsBlob, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { launch, median, shutDown, startPreview } from './browser.mjs';
import { importTs } from './tsImport.mjs';
import { LARGE, writeModelFolder } from '../scripts/make-tiny-reward-model.mjs';
import { runRealSize } from './model-real-size.mjs';

// Flags only: bench/run.mjs hands every bench the same positional arguments (rows, reps), which mean other things here.
const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const NO_BUILD = process.argv.includes('--no-build');
const TINY_ONLY = process.argv.includes('--tiny-only');
const REPS = Number(flag('reps') ?? 5);
const REAL_SIZE = process.argv.includes('--real-size');
// --json (with --real-size): one JSON line on stdout, everything else on stderr.
const JSON_OUT = process.argv.includes('--json');
// --max-tokens=N: time the dynamic batches with another token budget (the cached re-run keeps the studio's defaults);
// --also-max-tokens=N,M: time batches with those budgets too, in the same rounds (to compare budgets within one run).
const ROOT = resolve(import.meta.dirname, '..');
// --real-size builds and serves its own copy (1.4 GB of models beside it), so that it never races the default bench.
const OUT_DIR = join(tmpdir(), REAL_SIZE ? 'rs-bench-dist-real' : 'rs-bench-dist');
const LARGE_DIR = join(tmpdir(), 'rs-bench-models', 'large');
const PORT = REAL_SIZE ? 4182 : 4181;
const ORIGIN = `http://localhost:${PORT}`;
const DEMO = join(ROOT, 'public/demo/gsm8k-rollouts.jsonl');
const MODEL_FILES = ['model.onnx', 'config.json', 'tokenizer.json', 'tokenizer_config.json'];

const { loadAll } = await importTs('src/core/dataset/loadAll.ts');
const { RolloutEncoder } = await importTs('src/core/models/encode.ts');
const { inspectModelFolder } = await importTs('src/core/models/modelFolder.ts');
const { DEFAULT_BATCH_LIMITS, padBatch, planBatches } = await importTs('src/core/models/batching.ts');
const { scoreRollouts } = await importTs('src/core/models/scoreRollouts.ts');
const LIMITS = flag('max-tokens') ? { ...DEFAULT_BATCH_LIMITS, maxTokens: Number(flag('max-tokens')) } : DEFAULT_BATCH_LIMITS;
const ALSO = (flag('also-max-tokens') ?? '').split(',').filter(Boolean).map(Number);
const { sha256HexOf } = await importTs('src/core/digest.ts');

const version = (pkg) => JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const loadStart = load();

// ---------------------------------------------------------------- build, large model, server

if (NO_BUILD && existsSync(join(OUT_DIR, 'tests-pages/ort-parity.html'))) {
  (JSON_OUT ? console.error : console.log)(`reusing the build in ${OUT_DIR} (--no-build)`);
} else {
  (JSON_OUT ? console.error : console.log)(`building the app into ${OUT_DIR} (never dist/) …`);
  const b = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn', '--outDir', OUT_DIR, '--emptyOutDir'], {
    cwd: ROOT,
    stdio: JSON_OUT ? ['ignore', 2, 2] : 'inherit',
  });
  if (b.status !== 0) throw new Error(`vite build --outDir ${OUT_DIR} failed`);
}
if (REAL_SIZE) {
  await runRealSize({ root: ROOT, outDir: OUT_DIR, port: PORT, flag, noBuild: NO_BUILD, json: JSON_OUT }); // exits
}
const MODELS = [{ name: 'tiny', dir: join(ROOT, 'public/models/tiny-reward'), url: '/models/tiny-reward/' }];
if (!TINY_ONLY) {
  const bytes = writeModelFolder(LARGE, LARGE_DIR);
  const served = join(OUT_DIR, 'bench-models/large');
  mkdirSync(served, { recursive: true });
  for (const f of MODEL_FILES) copyFileSync(join(LARGE_DIR, f), join(served, f));
  console.log(`large model: ${LARGE_DIR} (model.onnx ${(bytes / 1e6).toFixed(1)} MB), served as /bench-models/large/`);
  MODELS.push({ name: 'large', dir: LARGE_DIR, url: '/bench-models/large/' });
}

// ---------------------------------------------------------------- inputs, encoded as the studio does

const { rows } = await loadAll({ name: 'gsm8k-rollouts.jsonl', blob: await openAsBlob(DEMO) });
const N = rows.length;

async function prepare(m) {
  const picked = MODEL_FILES.map((f) => ({ path: f, size: statSync(join(m.dir, f)).size, text: async () => readFileSync(join(m.dir, f), 'utf8') }));
  const r = await inspectModelFolder(picked);
  if (!r.ok) throw new Error(r.message);
  const folder = r.folder;
  const encoder = new RolloutEncoder(
    {
      tokenizerJson: folder.tokenizerJson,
      tokenizerConfig: folder.tokenizerConfig,
      chatTemplate: folder.chatTemplate,
      maxLength: folder.maxLength,
      config: folder.config,
    },
    'pair',
  );
  const t0 = performance.now();
  const encoded = rows.map((t) => encoder.encode(t));
  const encodeMs = performance.now() - t0;
  const ids = encoded.map((e) => e.ids);
  const lengths = ids.map((x) => x.length);
  const batchesOf = (plan) =>
    plan.map((b) =>
      padBatch(
        Array.from(b, (j) => ids[j]),
        { padId: encoder.padId },
      ),
    );
  const dynamic = batchesOf(planBatches(lengths, LIMITS));
  const also = Object.fromEntries(ALSO.map((t) => [`maxTokens ${t}`, batchesOf(planBatches(lengths, { ...LIMITS, maxTokens: t }))]));
  const single = batchesOf(planBatches(lengths, { maxTokens: Number.MAX_SAFE_INTEGER, maxRows: 1 }));
  const tokens = lengths.reduce((a, b) => a + b, 0);
  const padded = dynamic.reduce((a, b) => a + b.batch * b.sequence, 0);
  return {
    ...m,
    folder,
    encoder,
    encodeMs,
    plans: { dynamic, single, ...also },
    facts: {
      maxLength: folder.maxLength,
      tokens,
      padded,
      truncated: encoded.filter((e) => e.truncated).length,
      longest: Math.max(...lengths),
      batches: dynamic.length,
    },
  };
}

const prepared = [];
for (const m of MODELS) prepared.push(await prepare(m));

// ---------------------------------------------------------------- onnxruntime-node

const nodeFeeds = (batches) =>
  batches.map((b) => ({
    input_ids: new ort.Tensor('int64', b.inputIds, [b.batch, b.sequence]),
    attention_mask: new ort.Tensor('int64', b.attentionMask, [b.batch, b.sequence]),
  }));

/** One pass over all batches: wall ms, CPU ms of this process (all of onnxruntime's threads), the logits. */
async function nodePass(session, feeds) {
  const logits = [];
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const f of feeds) {
    const r = await session.run(f);
    for (const v of r.logits.data) logits.push(v);
  }
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpu: (c.user + c.system) / 1000, logits };
}

// ---------------------------------------------------------------- Chromium

const server = await startPreview({ port: PORT, outDir: OUT_DIR });
const browser = await launch();
const errors = [];

async function openPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  // (A 404 shows twice: as a console error without its URL, and here with it; the page has no favicon.)
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('response', (r) => r.status() >= 400 && errors.push(`HTTP ${r.status()} ${r.url()}`));
  await page.goto(`${ORIGIN}/tests-pages/ort-parity.html`);
  await page.locator('#out').getByText('ready').waitFor();
  // CPU time of the page's renderer process (the page's thread and onnxruntime-web's worker threads), by CDP.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  page.cpuMs = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const t = metrics.find((x) => x.name === 'ProcessTime');
    return t ? t.value * 1000 : Number.NaN;
  };
  return page;
}

const webKey = (threads) => `web ${threads} thread${threads > 1 ? 's' : ''}`;
const toNumbers = (b) => ({
  inputIds: Array.from(b.inputIds, Number),
  attentionMask: Array.from(b.attentionMask, Number),
  batch: b.batch,
  sequence: b.sequence,
});

try {
  // Pages: the studio's own session (its thread setting) and explicit 1 and 2 threads; an explicit page with the
  // studio's thread count is closed (the studio page is timed under that count instead).
  const pages = [];
  for (const numThreads of ['studio', 1, 2]) {
    const page = await openPage();
    const l = await page.evaluate((r) => window.ortBench.load(r), { model: prepared[0].name, modelUrl: prepared[0].url + 'model.onnx', numThreads });
    if (!l.crossOriginIsolated) throw new Error('the bench page is not cross-origin isolated: no threaded WASM');
    if (numThreads !== 'studio' && l.threads === pages[0].threads) await page.context().close();
    else pages.push({ page, numThreads, threads: l.threads });
  }
  const studioThreads = pages[0].threads;
  const webOf = (threads) => pages.find((p) => p.threads === threads);

  const results = {};
  for (const m of prepared) {
    for (const p of pages) {
      if (m !== prepared[0]) await p.page.evaluate((r) => window.ortBench.load(r), { model: m.name, modelUrl: m.url + 'model.onnx', numThreads: p.numThreads });
      for (const [plan, batches] of Object.entries(m.plans)) {
        await p.page.evaluate(([name, b]) => window.ortBench.setBatches(name, b), [`${m.name}/${plan}`, batches.map(toNumbers)]);
      }
    }
    m.feeds = Object.fromEntries(Object.entries(m.plans).map(([k, v]) => [k, nodeFeeds(v)]));
    const nodeSessions = {
      default: await ort.InferenceSession.create(join(m.dir, 'model.onnx'), { executionProviders: ['cpu'], graphOptimizationLevel: 'all' }),
      1: await ort.InferenceSession.create(join(m.dir, 'model.onnx'), {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
      }),
    };
    const configs = [
      { key: 'node default', run: (plan) => nodePass(nodeSessions.default, m.feeds[plan]) },
      { key: 'node 1 thread', run: (plan) => nodePass(nodeSessions[1], m.feeds[plan]) },
      ...pages.map((p) => ({
        key: webKey(p.threads),
        run: async (plan) => {
          const c0 = await p.page.cpuMs();
          const r = await p.page.evaluate((q) => window.ortBench.time(q), { model: m.name, plan: `${m.name}/${plan}`, passes: 1 });
          return { ms: r.ms[0], cpu: (await p.page.cpuMs()) - c0, logits: r.logits };
        },
      })),
    ];
    const ms = {};
    const cpu = {};
    let maxDiff = 0;
    for (const plan of Object.keys(m.plans)) {
      const ref = (await configs[0].run(plan)).logits;
      for (const c of configs.slice(1)) {
        const { logits } = await c.run(plan); // warm-up, and every runtime's logits against Node's
        for (let i = 0; i < ref.length; i++) maxDiff = Math.max(maxDiff, Math.abs(logits[i] - ref[i]));
      }
      for (let rep = 0; rep < REPS; rep++) {
        // Rotate the order each round so that no configuration always runs right after the same one.
        for (let k = 0; k < configs.length; k++) {
          const c = configs[(k + rep) % configs.length];
          const r = await c.run(plan);
          ((ms[c.key] ??= {})[plan] ??= []).push(r.ms);
          ((cpu[c.key] ??= {})[plan] ??= []).push(r.cpu);
        }
      }
      process.stdout.write(`  ${m.name}, ${plan}: ${configs.map((c) => `${c.key} [${ms[c.key][plan].map((x) => x.toFixed(0)).join(', ')}] ms`).join(' · ')}\n`);
    }
    await Promise.all(Object.values(nodeSessions).map((s) => s.release()));
    results[m.name] = { ms, cpu, maxDiff };
  }

  // Cached re-run: the studio's scoring path twice (cache cleared, then all hits), in a fresh page (fresh
  // IndexedDB) with the studio's own session (its thread setting), and in Node with an in-memory cache.
  const SCORE_REPS = Math.max(3, Math.min(REPS, 5));
  const scorePage = await openPage();
  const cachedRuns = {};
  for (const m of prepared) {
    const web = await scorePage.evaluate((r) => window.ortBench.score(r), {
      modelDir: m.url,
      rolloutsUrl: '/demo/gsm8k-rollouts.jsonl',
      numThreads: 0,
      repeats: SCORE_REPS,
    });
    const session = await ort.InferenceSession.create(join(m.dir, 'model.onnx'), { executionProviders: ['cpu'], graphOptimizationLevel: 'all' });
    const infer = async (x) =>
      (
        await session.run({
          input_ids: new ort.Tensor('int64', x.inputIds, [x.batch, x.sequence]),
          attention_mask: new ort.Tensor('int64', x.attentionMask, [x.batch, x.sequence]),
        })
      ).logits.data;
    const map = new Map();
    const cache = { getMany: async (keys) => keys.map((k) => map.get(k)), putMany: async (entries) => void entries.forEach(([k, v]) => map.set(k, v)) };
    const opts = { numLabels: 1, cache, modelKey: `${await sha256HexOf(readFileSync(join(m.dir, 'model.onnx')))}|pair|${m.folder.maxLength}` };
    const node = { uncached: [], cached: [] };
    for (let rep = 0; rep < SCORE_REPS; rep++) {
      map.clear();
      let t0 = performance.now();
      const a = await scoreRollouts(rows, m.encoder, infer, opts);
      node.uncached.push(performance.now() - t0);
      t0 = performance.now();
      const b = await scoreRollouts(rows, m.encoder, infer, opts);
      node.cached.push(performance.now() - t0);
      if (a.inferredCount !== N || b.cachedCount !== N)
        throw new Error(`node scoring: ${a.inferredCount} inferred, then ${b.cachedCount} from cache (want ${N})`);
    }
    await session.release();
    if (web.uncached.some((r) => r.inferredCount !== N) || web.cached.some((r) => r.cachedCount !== N || r.inferredCount !== 0))
      throw new Error(`web scoring did not run / hit the cache as expected: ${JSON.stringify(web)}`);
    cachedRuns[m.name] = { web, node };
  }

  // ---------------------------------------------------------------- report

  const rps = (msv) => N / (msv / 1000);
  const fmtR = (x) => `${x.toFixed(2)}×`;
  const nodeDefault = 'node default';
  const studioKey = webKey(studioThreads);
  console.log(
    `\nReward-model inference, ${N} GSM8K demo rollouts (pair mode), onnxruntime-web ${version('onnxruntime-web')} WASM in ${browser.version()} vs onnxruntime-node ${version('onnxruntime-node')} (CPU EP), Node ${process.versions.node}`,
  );
  console.log(
    `dynamic batches: planBatches with maxTokens ${LIMITS.maxTokens}, maxRows ${LIMITS.maxRows}${LIMITS === DEFAULT_BATCH_LIMITS ? ' (DEFAULT_BATCH_LIMITS)' : ' (--max-tokens; DEFAULT_BATCH_LIMITS is ' + DEFAULT_BATCH_LIMITS.maxTokens + ')'}`,
  );
  console.log(`machine: ${availableParallelism()} cores, load average ${loadStart} at the start, ${load()} at the end; medians of ${REPS} rounds`);
  console.log(
    `web threads: the studio's session (createModelSession) runs ${studioThreads} WASM thread${studioThreads > 1 ? 's' : ''} here ("${studioKey}" is that session, through its infer); pages with ${pages.map((p) => p.threads).join(', ')} thread(s); Node default = onnxruntime's intra-op pool (physical cores)`,
  );
  for (const m of prepared) {
    const { ms, cpu, maxDiff } = results[m.name];
    const med = (key, plan) => median(ms[key][plan]);
    const f = m.facts;
    console.log(
      `\n${m.name} (max ${f.maxLength} tokens): ${f.tokens} tokens, ${f.truncated} truncated, longest ${f.longest}; ${f.batches} dynamic batches, ${f.padded} padded tokens (${((f.padded / f.tokens - 1) * 100).toFixed(1)}% padding); encode ${m.encodeMs.toFixed(0)} ms in Node; max |web − node| logit ${maxDiff.toExponential(1)}`,
    );
    for (const key of Object.keys(ms)) {
      const d = med(key, 'dynamic');
      const s = med(key, 'single');
      const cd = median(cpu[key].dynamic);
      const cs = median(cpu[key].single);
      console.log(
        `  ${(key === studioKey ? `${key} (studio)` : key).padEnd(23)} dynamic ${d.toFixed(0).padStart(6)} ms = ${rps(d).toFixed(0).padStart(6)} rollouts/s [${ms[key].dynamic.map((x) => x.toFixed(0)).join(', ')}] (CPU ${cd.toFixed(0)} ms)` +
          ` · batch 1 ${s.toFixed(0).padStart(6)} ms = ${rps(s).toFixed(0).padStart(6)} rollouts/s [${ms[key].single.map((x) => x.toFixed(0)).join(', ')}] (CPU ${cs.toFixed(0)} ms)` +
          ` · batching gain ${fmtR(s / d)} (CPU ${fmtR(cs / cd)})`,
      );
      for (const plan of Object.keys(m.plans).filter((p) => p.startsWith('maxTokens '))) {
        const a = med(key, plan);
        const ca = median(cpu[key][plan]);
        console.log(
          `  ${''.padEnd(23)} ${plan} (${m.plans[plan].length} batches): ${a.toFixed(0)} ms = ${rps(a).toFixed(0)} rollouts/s [${ms[key][plan].map((x) => x.toFixed(0)).join(', ')}] (CPU ${ca.toFixed(0)} ms) · gain over batch 1 ${fmtR(s / a)} (CPU ${fmtR(cs / ca)}) · over maxTokens ${LIMITS.maxTokens} ${fmtR(d / a)} (CPU ${fmtR(cd / ca)})`,
        );
      }
    }
    const ratio = (web, node) => fmtR(med(node, 'dynamic') / med(web, 'dynamic'));
    console.log(
      `  web / node throughput, dynamic batches: studio setting (${studioThreads} thread${studioThreads > 1 ? 's' : ''}) vs Node default ${ratio(studioKey, nodeDefault)} · 1 thread vs 1 thread ${ratio('web 1 thread', 'node 1 thread')}${webOf(2) && studioThreads !== 2 ? ` · 2 threads vs Node default ${ratio('web 2 threads', nodeDefault)}` : ''}   (target ≥ 0.5×)`,
    );
    console.log(
      `  web / node CPU-time ratio at 1 thread (less sensitive to other processes on the machine): dynamic ${fmtR(median(cpu['node 1 thread'].dynamic) / median(cpu['web 1 thread'].dynamic))} · batch 1 ${fmtR(median(cpu['node 1 thread'].single) / median(cpu['web 1 thread'].single))}`,
    );
    const { web, node } = cachedRuns[m.name];
    const wu = median(web.uncached.map((r) => r.ms));
    const wc = median(web.cached.map((r) => r.ms));
    const nu = median(node.uncached);
    const nc = median(node.cached);
    console.log(
      `  cached re-run, browser (scoreRollouts + IndexedDB cache, ${web.threads} WASM thread${web.threads > 1 ? 's' : ''}): uncached ${wu.toFixed(0)} ms [${web.uncached.map((r) => r.ms.toFixed(0)).join(', ')}] · all ${N} from cache ${wc.toFixed(0)} ms [${web.cached.map((r) => r.ms.toFixed(0)).join(', ')}] → ${fmtR(wc / wu)} the uncached time (${(wu / wc).toFixed(1)}× faster)`,
    );
    console.log(
      `  cached re-run, Node (scoreRollouts + in-memory cache):          uncached ${nu.toFixed(0)} ms · from cache ${nc.toFixed(0)} ms → ${fmtR(nc / nu)} the uncached time`,
    );
  }
  console.log('\nWebGPU: not timed (headless Chromium here has only a software adapter, SwiftShader: not a speed figure).');
  if (errors.length) console.log(`page errors:\n  ${errors.join('\n  ')}`);
} catch (e) {
  console.error(e);
  if (errors.length) console.error(`page errors:\n  ${errors.join('\n  ')}`);
  process.exitCode = 1;
} finally {
  await shutDown(server, browser);
}
