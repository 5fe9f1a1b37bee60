// WebGPU against WASM for the real-size reward models (issue 26), on a machine with a GPU but no browser: the lent
// GPU machine has an NVIDIA Vulkan driver and nothing else (no Node, no browser, no registry; 64 MiB may be carried).
// So this runs onnxruntime-web itself in Node: its WebGPU EP on Dawn (the `webgpu` npm package: dawn.node, the
// WebGPU implementation Chromium uses) and its WASM EP, with the studio's session options and feeds
// (src/worker/modelSession.ts), on the batches the studio would build (bench/model-real-size.mjs benchBatches).
//
//   node bench/model-webgpu.mjs --prepare [--tiny] [--rollouts=16] [--max-length=128]
//     here: writes bench/out/device/ (batches, onnxruntime-web's files, dawn.node, a Vulkan loader, this Node
//     gzipped): carry that folder to the GPU machine.
//   there: python3 -c "import lzma,shutil;shutil.copyfileobj(lzma.open('bench/out/device/node.xz'),open('/tmp/node','wb'))" &&
//          chmod +x /tmp/node &&
//          /tmp/node bench/model-webgpu.mjs --run --json [--tiny] [--reps=3] [--models=encoder-fp32,...]
//     builds each model in memory (scripts/make-real-size-models.mjs), times one pass over the batches per round in
//     a child process per provider, and prints one JSON line {adapter, models: [{name, arch, params, dtype,
//     webgpuVsWasm, rolloutsPerSecond: {wasm, webgpu}, ...}]}.
// Locally (no GPU) `VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json` gives Dawn a software adapter: right
// for checking the plumbing, meaningless for speed.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ALL, buildRealSizeModel, modelName, tinyOf, writeRealSizeModel } from '../scripts/make-real-size-models.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEV = join(ROOT, 'bench/out/device');
const flag = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const has = (name) => process.argv.includes(`--${name}`);
const WEBGPU_PACKAGE = 'webgpu@0.6.2';
const BIG = ['ort/ort-wasm-simd-threaded.wasm', 'ort/ort-wasm-simd-threaded.asyncify.wasm', 'webgpu/dist/linux-x64/dawn.node'];
const ORT_FILES = [
  'ort.node.min.mjs',
  'ort.webgpu.bundle.min.mjs',
  'ort-wasm-simd-threaded.wasm',
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.asyncify.wasm',
  'ort-wasm-simd-threaded.asyncify.mjs',
];

if (has('prepare')) await prepare();
else if (flag('child')) await child(flag('child'));
else if (has('adapter')) await adapterOnly();
else if (has('run')) await run();
else {
  console.error('usage: node bench/model-webgpu.mjs --prepare | --run [--json]  (see the head of this file)');
  process.exitCode = 2;
}

async function prepare() {
  const { benchBatches, benchRollouts } = await import('./model-real-size.mjs');
  const rolloutsN = Number(flag('rollouts') ?? 16);
  const maxLength = Number(flag('max-length') ?? 128);
  rmSync(DEV, { recursive: true, force: true });
  mkdirSync(join(DEV, 'ort'), { recursive: true });
  // Batches depend only on the tokenizer and the length cap: tiny folders carry the same tokenizers as the real ones.
  const rows = await benchRollouts(ROOT, rolloutsN);
  const batches = { rollouts: rows.length, maxLength };
  for (const [spec] of [ALL[0], ALL[3]]) {
    const dir = join(tmpdir(), 'rs-webgpu-prepare', spec.arch);
    writeRealSizeModel(tinyOf(spec), 'fp32', dir);
    const b = await benchBatches(dir, 0, spec.arch, rows, { maxLength });
    batches[spec.arch] = b.batches.map((x) => ({
      batch: x.batch,
      sequence: x.sequence,
      inputIds: Array.from(x.inputIds, Number),
      attentionMask: Array.from(x.attentionMask, Number),
      ...(x.typeIds ? { typeIds: Array.from(x.typeIds, Number) } : {}),
    }));
  }
  writeFileSync(join(DEV, 'batches.json'), JSON.stringify(batches));
  const ortDir = join(ROOT, 'node_modules/onnxruntime-web/dist');
  for (const f of ORT_FILES) copyFileSync(join(ortDir, f), join(DEV, 'ort', f));
  writeFileSync(join(DEV, 'ort/version'), JSON.parse(readFileSync(join(ROOT, 'node_modules/onnxruntime-web/package.json'), 'utf8')).version);
  // Dawn for Node: a bench-time download, only the linux-x64 binary kept (the package has every platform's).
  const tmp = join(tmpdir(), 'rs-webgpu-pack');
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const pack = spawnSync('npm', ['pack', WEBGPU_PACKAGE, '--silent'], { cwd: tmp, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack ${WEBGPU_PACKAGE} failed: ${pack.stderr}`);
  const tgz = pack.stdout.trim().split('\n').at(-1);
  const tar = spawnSync('tar', ['xzf', tgz, 'package/index.js', 'package/package.json', 'package/dist/linux-x64/dawn.node'], { cwd: tmp });
  if (tar.status !== 0) throw new Error(`unpacking ${tgz} failed`);
  mkdirSync(join(DEV, 'webgpu/dist/linux-x64'), { recursive: true });
  for (const f of ['index.js', 'package.json', 'dist/linux-x64/dawn.node']) copyFileSync(join(tmp, 'package', f), join(DEV, 'webgpu', f));
  // dawn.node loads the Vulkan loader by name; the GPU machine has the NVIDIA driver but not the loader.
  const loader = ['/usr/lib/x86_64-linux-gnu/libvulkan.so.1', '/usr/lib/chromium/libvulkan.so.1'].find(existsSync);
  if (!loader) throw new Error('no libvulkan.so.1 here (install Debian libvulkan1, or chromium)');
  mkdirSync(join(DEV, 'lib'), { recursive: true });
  copyFileSync(loader, join(DEV, 'lib/libvulkan.so.1'));
  // This Node, xz-compressed (gzip leaves it over the carry limit); the GPU machine's python3 has lzma to unpack it.
  const xz = spawnSync('xz', ['-6', '-T0', '-c', process.execPath], { maxBuffer: 1 << 28 });
  if (xz.status !== 0) throw new Error('xz failed (install xz-utils)');
  writeFileSync(join(DEV, 'node.xz'), xz.stdout);
  // Under the 64 MiB a session may carry: the large files travel gzipped and `--run` unpacks them.
  for (const f of BIG) {
    writeFileSync(join(DEV, f + '.gz'), gzipSync(readFileSync(join(DEV, f)), { level: 9 }));
    rmSync(join(DEV, f));
  }
  const du = spawnSync('du', ['-sh', DEV], { encoding: 'utf8' }).stdout.trim();
  console.log(`wrote ${DEV} (${du}; ${rows.length} rollouts, max length ${maxLength}, Vulkan loader from ${loader}); carry bench/out/device`);
}

async function run() {
  const json = has('json');
  const log = (...a) => (json ? console.error(...a) : console.log(...a));
  const reps = Number(flag('reps') ?? 3);
  const tiny = has('tiny');
  const only = flag('models')?.split(',');
  unpack();
  const batches = JSON.parse(readFileSync(join(DEV, 'batches.json'), 'utf8'));
  const dir = join(tmpdir(), 'rs-webgpu-models');
  mkdirSync(dir, { recursive: true });
  const out = [];
  let adapter = null;
  for (const [spec0, dtype] of ALL) {
    const name = modelName(spec0, dtype);
    if (only && !only.includes(name)) continue;
    const spec = tiny ? tinyOf(spec0) : spec0;
    const t0 = performance.now();
    const { bytes, params } = buildRealSizeModel(spec, dtype);
    const file = join(dir, `${name}.onnx`);
    writeFileSync(file, bytes);
    log(`${name}: built ${params.toLocaleString('en-US')} parameters in ${Math.round(performance.now() - t0)} ms`);
    const r = {};
    // One process per provider (onnxruntime-web's entry points must not share a realm); the order alternates.
    const order = out.length % 2 ? ['webgpu', 'wasm'] : ['wasm', 'webgpu'];
    for (const p of order) {
      const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), `--child=${p}`, `--model=${file}`, `--arch=${spec.arch}`, `--reps=${reps}`], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
        env: childEnv(),
      });
      const line = c.stdout.trim().split('\n').at(-1);
      if (c.status !== 0 || !line?.startsWith('{')) {
        r[p] = {
          error:
            (c.stderr || '')
              .split('\n')
              .filter((l) => /error|Error/.test(l))
              .slice(-3)
              .join(' | ')
              .slice(0, 600) || `exit ${c.status}`,
        };
        log(`  ${p}: failed: ${r[p].error}`);
        continue;
      }
      r[p] = JSON.parse(line);
      adapter ??= r[p].adapter ?? null;
      log(`  ${p}: session ${r[p].loadMs} ms, passes [${r[p].ms.join(', ')}] ms${r[p].threads ? ` (${r[p].threads} threads)` : ''}`);
    }
    rmSync(file, { force: true });
    const med = (p) => (r[p]?.ms ? median(r[p].ms) : null);
    const wasm = med('wasm');
    const webgpu = med('webgpu');
    let maxLogitDiff = null;
    if (r.wasm?.logits && r.webgpu?.logits) {
      maxLogitDiff = 0;
      for (let i = 0; i < r.wasm.logits.length; i++) maxLogitDiff = Math.max(maxLogitDiff, Math.abs(r.wasm.logits[i] - r.webgpu.logits[i]));
    }
    const rps = (ms) => (ms === null ? null : Number((batches.rollouts / (ms / 1000)).toFixed(2)));
    out.push({
      name,
      arch: spec.arch,
      params,
      dtype,
      webgpuVsWasm: wasm !== null && webgpu !== null ? Number((wasm / webgpu).toFixed(3)) : null,
      rolloutsPerSecond: { wasm: rps(wasm), webgpu: rps(webgpu) },
      ms: { wasm: r.wasm?.ms ?? null, webgpu: r.webgpu?.ms ?? null },
      sessionMs: { wasm: r.wasm?.loadMs ?? null, webgpu: r.webgpu?.loadMs ?? null },
      wasmThreads: r.wasm?.threads ?? null,
      maxLogitDiff: maxLogitDiff === null ? null : Number(maxLogitDiff.toExponential(2)),
      errors: Object.fromEntries(['wasm', 'webgpu'].filter((p) => r[p]?.error).map((p) => [p, r[p].error])),
    });
    log(`  → WebGPU/WASM ${out.at(-1).webgpuVsWasm}×, max |Δlogit| ${out.at(-1).maxLogitDiff}`);
  }
  const summary = {
    adapter,
    models: out,
    rollouts: batches.rollouts,
    maxLength: batches.maxLength,
    reps,
    tiny,
    machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? '' },
    versions: { node: process.versions.node, onnxruntimeWeb: readFileSync(join(DEV, 'ort/version'), 'utf8').trim(), webgpu: WEBGPU_PACKAGE },
  };
  if (json) process.stdout.write(JSON.stringify(summary) + '\n');
  else log(JSON.stringify(summary, null, 2));
}

/** `--adapter`: the adapter Dawn finds, or exit 1 (a cheap check before the timed run). */
async function adapterOnly() {
  unpack();
  const c = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child=adapter'], { encoding: 'utf8', env: childEnv() });
  process.stdout.write(c.stdout);
  process.stderr.write(c.stderr.slice(-2000));
  process.exitCode = c.status ?? 1;
}

function unpack() {
  for (const f of BIG) if (!existsSync(join(DEV, f))) writeFileSync(join(DEV, f), gunzipSync(readFileSync(join(DEV, f + '.gz'))));
}

function childEnv() {
  return { ...process.env, LD_LIBRARY_PATH: [join(DEV, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') };
}

/** One provider, one model: session, a warm-up pass, `reps` timed passes; one JSON line on stdout. */
async function child(provider) {
  const arch = flag('arch');
  const reps = Number(flag('reps') ?? 3);
  let adapter;
  if (provider === 'webgpu' || provider === 'adapter') {
    const { create, globals } = await import(pathToFileURL(join(DEV, 'webgpu/index.js')).href);
    Object.assign(globalThis, globals);
    // dawn.node refuses views of shared memory, which the threaded WASM build's heap is (Chromium takes them): copy.
    const writeBuffer = globals.GPUQueue.prototype.writeBuffer;
    globals.GPUQueue.prototype.writeBuffer = function (buffer, offset, data, dataOffset = 0, size) {
      if (ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer) {
        const n = size ?? data.length - dataOffset;
        data = data.slice(dataOffset, dataOffset + n);
        dataOffset = 0;
        size = n;
      }
      return writeBuffer.call(this, buffer, offset, data, dataOffset, size);
    };
    const gpu = create([]);
    globalThis.navigator = { gpu, hardwareConcurrency: availableParallelism() };
    const a = await gpu.requestAdapter();
    if (!a) throw new Error('no WebGPU adapter');
    const i = a.info;
    adapter = { vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description, isFallbackAdapter: Boolean(i.isFallbackAdapter) };
    if (provider === 'adapter') {
      process.stdout.write(JSON.stringify(adapter) + '\n');
      process.exit(0);
    }
  }
  const ort = await import(pathToFileURL(join(DEV, 'ort', provider === 'wasm' ? 'ort.node.min.mjs' : 'ort.webgpu.bundle.min.mjs')).href);
  // As the studio's cross-origin isolated page: every core up to 8 for WASM threads.
  if (provider === 'wasm') ort.env.wasm.numThreads = Math.min(8, availableParallelism());
  // The WASM EP's Node entry point (the browser ones fetch() their threads' script, which Node cannot): same binary.
  if (provider === 'wasm') ort.env.wasm.wasmBinary = readFileSync(join(DEV, 'ort/ort-wasm-simd-threaded.wasm'));
  const batches = JSON.parse(readFileSync(join(DEV, 'batches.json'), 'utf8'))[arch];
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(readFileSync(flag('model')), { executionProviders: [provider], graphOptimizationLevel: 'all' });
  const loadMs = Math.round(performance.now() - t0);
  const names = new Set(session.inputNames);
  const output = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0];
  const feeds = batches.map((b) => {
    const dims = [b.batch, b.sequence];
    const i64 = (xs) => new ort.Tensor('int64', BigInt64Array.from(xs, BigInt), dims);
    const f = { input_ids: i64(b.inputIds) };
    if (names.has('attention_mask')) f.attention_mask = i64(b.attentionMask);
    if (names.has('token_type_ids')) f.token_type_ids = i64(b.typeIds ?? new Array(b.batch * b.sequence).fill(0));
    return f;
  });
  const pass = async () => {
    const logits = [];
    const s = performance.now();
    for (const f of feeds) {
      const result = await session.run(f);
      for (const v of await result[output].getData()) logits.push(v);
      for (const v of Object.values(result)) v.dispose();
    }
    return { ms: performance.now() - s, logits };
  };
  const { logits } = await pass();
  const ms = [];
  for (let k = 0; k < reps; k++) ms.push(Math.round((await pass()).ms));
  await session.release();
  process.stdout.write(JSON.stringify({ provider, adapter, loadMs, ms, logits, threads: provider === 'wasm' ? ort.env.wasm.numThreads : undefined }) + '\n');
  process.exit(0);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
