// `node bench/model.bench.mjs --real-size [--json]` (issue 26): transformer reward models at real size
// (scripts/make-real-size-models.mjs: a 124.6M-parameter BERT-shape encoder and a 114.0M-parameter Qwen2-shape
// decoder, each with fp32 and fp16 weights) through the studio's scoring path in Chromium (onnxruntime-web, WASM EP,
// runtime/modelSession createModelSession + its infer, its thread setting) against onnxruntime-node (CPU EP, default
// threads) in this process, on the same padded tensors, in one run.
//
// - Inputs: the first --rollouts=16 GSM8K demo rollouts, encoded as the studio does (RolloutEncoder, 'pair' mode,
//   the model folder's tokenizer; max length min(the model's, --max-length=128)), cut by planBatches with
//   DEFAULT_BATCH_LIMITS and padded by padBatch (with token_type_ids for the encoder).
// - A pass = every batch through the runtime plus reading the logits, timed inside each runtime. Per model: a warm-up
//   pass each (and their logits compared), then --reps=3 rounds alternating Node and web; medians. Sized so that a
//   run of the six models takes ~5 minutes on 2 cores (32 rollouts took 7 minutes; one fp32 encoder pass on WASM ~10 s).
// - Models are written into <build>/bench-models/real/<name>/ (served from there, read by Node from there; 1.4 GB in
//   all, never under public/), and reused when already there with --no-build.
// - WebGPU (--webgpu=auto, the default): the studio's session on the WebGPU EP in a second page, timed in the same
//   rounds, when the page's adapter is a real one (not a fallback such as SwiftShader); webgpuVsWasm = WASM time /
//   WebGPU time, else null. --webgpu=on times it on any adapter (plumbing), off never. Headless Chromium here has
//   only SwiftShader; bench/model-webgpu.mjs is the browserless route to a GPU machine (bench/README.md).
// Output with --json: one line on stdout, {models: [{name, arch, params, dtype, wasmVsNode, webgpuVsWasm,
// rolloutsPerSecond: {web, node}, ...}]}; the progress goes to stderr.
import { existsSync, openAsBlob, readFileSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { ALL, modelName, tinyOf, writeRealSizeModel } from '../scripts/make-real-size-models.mjs';
import { launch, median, shutDown, startPreview } from './browser.mjs';
import { importTs } from './tsImport.mjs';

const MODEL_FILES = ['model.onnx', 'config.json', 'tokenizer.json', 'tokenizer_config.json'];

export async function runRealSize({ root, outDir, port, flag, noBuild, json }) {
  const log = (...a) => (json ? console.error(...a) : console.log(...a));
  const ROLLOUTS = Number(flag('rollouts') ?? 16);
  const MAX_LENGTH = Number(flag('max-length') ?? 128);
  const REPS = Number(flag('reps') ?? 3);
  const only = flag('models')?.split(',');
  // --web-threads=N: a bare session with ort.env.wasm.numThreads N instead of the studio's; --node-threads=N:
  // intraOpNumThreads N instead of onnxruntime-node's default (like-for-like thread experiments).
  const webThreads = flag('web-threads') ? Number(flag('web-threads')) : 'studio';
  const nodeThreads = flag('node-threads') ? { intraOpNumThreads: Number(flag('node-threads')), interOpNumThreads: 1 } : {};
  const load0 = loadavg()[0];

  const models = [];
  // --tiny: the same graphs at hidden 16, 2 layers (checks the bench's plumbing in seconds; no speed figure).
  const tiny = process.argv.includes('--tiny');
  for (const [spec0, dtype] of ALL) {
    const spec = tiny ? tinyOf(spec0) : spec0;
    const name = modelName(spec, dtype);
    if (only && !only.includes(modelName(spec0, dtype))) continue;
    const dir = join(outDir, 'bench-models/real', name);
    let params;
    if (noBuild && existsSync(join(dir, 'README.md'))) {
      params = Number(/([\d,]+) parameters/.exec(readFileSync(join(dir, 'README.md'), 'utf8'))[1].replaceAll(',', ''));
    } else {
      log(`writing ${dir} …`);
      params = writeRealSizeModel(spec, dtype, dir).params;
    }
    models.push({ name, arch: spec.arch, dtype, params, dir, url: `/bench-models/real/${name}/`, bytes: statSync(join(dir, 'model.onnx')).size });
  }

  const rows = await benchRollouts(root, ROLLOUTS);
  // --max-tokens=N: another padded-token budget per batch (batch shape experiments); default the studio's.
  const maxTokens = flag('max-tokens') ? Number(flag('max-tokens')) : undefined;
  for (const m of models) Object.assign(m, await benchBatches(m.dir, m.bytes, m.arch, rows, { maxLength: MAX_LENGTH, maxTokens }));

  const server = await startPreview({ port, outDir });
  const browser = await launch();
  const errors = [];
  const out = [];
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('console', (msg) => msg.type() === 'error' && !msg.text().startsWith('Failed to load resource') && errors.push(msg.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://localhost:${port}/tests-pages/ort-parity.html`);
    await page.locator('#out').getByText('ready').waitFor();
    // WebGPU in a page of its own (one execution provider per realm): --webgpu=auto times it on a real adapter only,
    // on (SwiftShader too: checks the plumbing, says nothing of speed), off never.
    const webgpuMode = flag('webgpu') ?? 'auto';
    let gpuPage = null;
    let adapter = null;
    if (webgpuMode !== 'off') {
      gpuPage = await context.newPage();
      gpuPage.on('pageerror', (e) => errors.push(String(e)));
      await gpuPage.goto(`http://localhost:${port}/tests-pages/ort-parity.html`);
      await gpuPage.locator('#out').getByText('ready').waitFor();
      const a = await gpuPage.evaluate(() => window.ortBench.adapter());
      adapter = a.ok ? a.info : { unavailable: a.reason };
      if (!a.ok || (a.info.isFallbackAdapter && webgpuMode !== 'on')) {
        log(`WebGPU not timed: ${a.ok ? `a fallback adapter (${a.info.description || a.info.architecture}); --webgpu=on times it anyway` : a.reason}`);
        await gpuPage.close();
        gpuPage = null;
      }
    }
    for (const m of models) {
      const l = await page.evaluate((r) => window.ortBench.load(r), { model: m.name, modelUrl: m.url + 'model.onnx', numThreads: webThreads });
      if (!l.crossOriginIsolated) throw new Error('the bench page is not cross-origin isolated: no threaded WASM');
      const plain = m.batches.map((b) => ({
        inputIds: Array.from(b.inputIds, Number),
        attentionMask: Array.from(b.attentionMask, Number),
        ...(b.typeIds ? { typeIds: Array.from(b.typeIds, Number) } : {}),
        batch: b.batch,
        sequence: b.sequence,
      }));
      await page.evaluate(([name, b]) => window.ortBench.setBatches(name, b), [m.name, plain]);
      let gpuLoadMs = null;
      if (gpuPage) {
        gpuLoadMs = (
          await gpuPage.evaluate((r) => window.ortBench.load(r), { model: m.name, modelUrl: m.url + 'model.onnx', numThreads: 'studio', provider: 'webgpu' })
        ).loadMs;
        await gpuPage.evaluate(([name, b]) => window.ortBench.setBatches(name, b), [m.name, plain]);
      }
      const t0 = performance.now();
      const session = await ort.InferenceSession.create(join(m.dir, 'model.onnx'), {
        executionProviders: ['cpu'],
        graphOptimizationLevel: 'all',
        ...nodeThreads,
      });
      const nodeLoadMs = performance.now() - t0;
      const feeds = m.batches.map((b) => {
        const dims = [b.batch, b.sequence];
        const f = { input_ids: new ort.Tensor('int64', b.inputIds, dims), attention_mask: new ort.Tensor('int64', b.attentionMask, dims) };
        if (session.inputNames.includes('token_type_ids')) f.token_type_ids = new ort.Tensor('int64', b.typeIds, dims);
        return f;
      });
      const nodePass = async () => {
        const logits = [];
        const s = performance.now();
        for (const f of feeds) for (const v of (await session.run(f)).logits.data) logits.push(v);
        return { ms: performance.now() - s, logits };
      };
      const webPass = async () => {
        const r = await page.evaluate((q) => window.ortBench.time(q), { model: m.name, plan: m.name, passes: 1 });
        return { ms: r.ms[0], logits: r.logits };
      };
      const gpuPass = async () => {
        const r = await gpuPage.evaluate((q) => window.ortBench.time(q), { model: m.name, plan: m.name, passes: 1 });
        return { ms: r.ms[0], logits: r.logits };
      };
      const a = await nodePass();
      const b = await webPass();
      let maxDiff = 0;
      for (let i = 0; i < a.logits.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a.logits[i] - b.logits[i]));
      if (!a.logits.every(Number.isFinite) || !b.logits.every(Number.isFinite)) throw new Error(`${m.name}: non-finite logits`);
      let gpuDiff = null;
      if (gpuPage) {
        const g = await gpuPass();
        if (!g.logits.every(Number.isFinite)) throw new Error(`${m.name}: non-finite WebGPU logits`);
        gpuDiff = 0;
        for (let i = 0; i < a.logits.length; i++) gpuDiff = Math.max(gpuDiff, Math.abs(a.logits[i] - g.logits[i]));
      }
      const ms = { node: [], web: [], webgpu: [] };
      const pass = { node: nodePass, web: webPass, webgpu: gpuPass };
      const kinds = gpuPage ? ['node', 'web', 'webgpu'] : ['node', 'web'];
      for (let rep = 0; rep < REPS; rep++) {
        // Each round starts with another runtime, so none always runs first.
        const order = kinds.map((_, j) => kinds[(j + rep) % kinds.length]);
        for (const k of order) ms[k].push((await pass[k]()).ms);
        log(`  ${m.name} round ${rep + 1}: ${kinds.map((k) => `${k} ${ms[k].at(-1).toFixed(0)} ms`).join(', ')}`);
      }
      await session.release();
      const node = median(ms.node);
      const web = median(ms.web);
      const webgpu = gpuPage ? median(ms.webgpu) : null;
      const rps = (x) => Number((rows.length / (x / 1000)).toFixed(2));
      const row = {
        name: m.name,
        arch: m.arch,
        params: m.params,
        dtype: m.dtype,
        wasmVsNode: Number((node / web).toFixed(3)),
        webgpuVsWasm: webgpu === null ? null : Number((web / webgpu).toFixed(3)),
        rolloutsPerSecond: { web: rps(web), node: rps(node), ...(webgpu === null ? {} : { webgpu: rps(webgpu) }) },
        ms: { web: ms.web.map(Math.round), node: ms.node.map(Math.round), ...(webgpu === null ? {} : { webgpu: ms.webgpu.map(Math.round) }) },
        webThreads: l.threads,
        webSession: webThreads === 'studio' ? 'studio (createModelSession)' : 'bare session',
        nodeThreads: nodeThreads.intraOpNumThreads ?? 'default',
        loadMs: { web: Math.round(l.loadMs), node: Math.round(nodeLoadMs), ...(gpuLoadMs === null ? {} : { webgpu: Math.round(gpuLoadMs) }) },
        onnxBytes: m.bytes,
        rollouts: rows.length,
        maxLength: m.maxLength,
        tokens: m.tokens,
        paddedTokens: m.padded,
        batches: m.batches.length,
        maxLogitDiff: Number(maxDiff.toExponential(2)),
        ...(gpuDiff === null ? {} : { maxWebgpuLogitDiff: Number(gpuDiff.toExponential(2)) }),
      };
      out.push(row);
      log(
        `${m.name}: ${m.params.toLocaleString('en-US')} params, ${rows.length} rollouts (${m.tokens} tokens, ${m.batches.length} batches): node ${node.toFixed(0)} ms [${row.ms.node.join(', ')}], web ${web.toFixed(0)} ms [${row.ms.web.join(', ')}] (${l.threads} WASM threads) → web/node ${row.wasmVsNode}× (target ≥ 0.5×); max |web − node| logit ${row.maxLogitDiff}`,
      );
    }
    const summary = {
      models: out,
      webgpuAdapter: adapter,
      machine: { cores: availableParallelism(), loadAverage: [load0, loadavg()[0]].map((x) => Number(x.toFixed(2))) },
      versions: {
        onnxruntimeWeb: version(root, 'onnxruntime-web'),
        onnxruntimeNode: version(root, 'onnxruntime-node'),
        chromium: browser.version(),
        node: process.versions.node,
      },
      reps: REPS,
    };
    if (json) process.stdout.write(JSON.stringify(summary) + '\n');
    else log(JSON.stringify(summary, null, 2));
    if (errors.length) log(`page errors:\n  ${errors.join('\n  ')}`);
  } catch (e) {
    console.error(e);
    if (errors.length) console.error(`page errors:\n  ${errors.join('\n  ')}`);
    process.exitCode = 1;
  } finally {
    await shutDown(server, browser);
  }
}

const version = (root, pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;

/** The bench's rollouts: the first `n` GSM8K demo rollouts, read as the studio reads them. */
export async function benchRollouts(root, n) {
  const { loadAll } = await importTs('src/core/dataset/loadAll.ts');
  const { rows } = await loadAll({ name: 'gsm8k-rollouts.jsonl', blob: await openAsBlob(join(root, 'public/demo/gsm8k-rollouts.jsonl')) });
  return rows.slice(0, n);
}

/**
 * A model folder's padded batches for `rows`, built as the studio builds them: RolloutEncoder ('pair' mode, the
 * folder's tokenizer, max length min(the model's, maxLength)), planBatches (the studio's limits, or maxTokens), padBatch.
 */
export async function benchBatches(dir, onnxBytes, arch, rows, { maxLength: cap, maxTokens }) {
  const { RolloutEncoder } = await importTs('src/core/models/encode.ts');
  const { inspectModelFolder } = await importTs('src/core/models/modelFolder.ts');
  const { DEFAULT_BATCH_LIMITS, padBatch, planBatches } = await importTs('src/core/models/batching.ts');
  const picked = MODEL_FILES.filter((f) => f !== 'model.onnx').map((f) => ({
    path: f,
    size: statSync(join(dir, f)).size,
    text: async () => readFileSync(join(dir, f), 'utf8'),
  }));
  // inspectModelFolder wants the graph among the files; its bytes are not read here.
  picked.push({ path: 'model.onnx', size: onnxBytes, text: async () => '' });
  const r = await inspectModelFolder(picked);
  if (!r.ok) throw new Error(r.message);
  const f = r.folder;
  const maxLength = Math.min(f.maxLength ?? cap, cap);
  const encoder = new RolloutEncoder(
    { tokenizerJson: f.tokenizerJson, tokenizerConfig: f.tokenizerConfig, chatTemplate: f.chatTemplate, maxLength, config: f.config },
    'pair',
  );
  const encoded = rows.map((t) => encoder.encode(t));
  const limits = maxTokens ? { ...DEFAULT_BATCH_LIMITS, maxTokens } : DEFAULT_BATCH_LIMITS;
  const plan = planBatches(
    encoded.map((e) => e.ids.length),
    limits,
  );
  const takesTypes = arch === 'encoder';
  const batches = plan.map((b) =>
    padBatch(
      Array.from(b, (j) => encoded[j].ids),
      { padId: encoder.padId, ...(takesTypes ? { typeIds: Array.from(b, (j) => encoded[j].typeIds) } : {}) },
    ),
  );
  return {
    batches,
    maxLength,
    tokens: encoded.reduce((a, e) => a + e.ids.length, 0),
    padded: batches.reduce((a, b) => a + b.batch * b.sequence, 0),
  };
}
