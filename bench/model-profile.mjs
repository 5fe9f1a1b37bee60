// Where the time goes in the real-size reward models: per-op-type kernel time from onnxruntime-node's profiler
// (enableProfiling), 1 intra-op thread, two runs of one [16, 128] batch after a warm-up. The WASM build compiles the
// same graph optimiser; per-op profiles from onnxruntime-web are not read here.
// Usage: node bench/model-profile.mjs [MODELS_DIR] [name ...]   (MODELS_DIR: scripts/make-real-size-models.mjs output,
// by default the one `node bench/model.bench.mjs --real-size` writes)
import { readFileSync, readdirSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';

const [dir = join(tmpdir(), 'rs-bench-dist-real/bench-models/real'), ...names] = process.argv.slice(2);
const B = 16;
const S = 128;
for (const name of names.length ? names : readdirSync(dir).sort()) {
  const prefix = join(tmpdir(), `rs-profile-${process.pid}-${name}`);
  const session = await ort.InferenceSession.create(join(dir, name, 'model.onnx'), {
    graphOptimizationLevel: 'all',
    intraOpNumThreads: 1,
    enableProfiling: true,
    profileFilePrefix: prefix,
  });
  const ids = BigInt64Array.from({ length: B * S }, (_, i) => BigInt((i * 7919) % 50000));
  const feeds = {
    input_ids: new ort.Tensor('int64', ids, [B, S]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(B * S).fill(1n), [B, S]),
  };
  if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(B * S), [B, S]);
  for (let i = 0; i < 3; i++) await session.run(feeds);
  session.endProfiling();
  await session.release();
  // The profiler names its file <prefix>_<timestamp>.json.
  const file = join(
    tmpdir(),
    readdirSync(tmpdir()).find((f) => join(tmpdir(), f).startsWith(prefix)),
  );
  const byOp = {};
  let total = 0;
  for (const e of JSON.parse(readFileSync(file, 'utf8'))) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    byOp[e.args.op_name] = (byOp[e.args.op_name] ?? 0) + e.dur;
    total += e.dur;
  }
  unlinkSync(file);
  const top = Object.entries(byOp)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([op, us]) => `${op} ${((100 * us) / total).toFixed(1)}%`);
  console.log(`${name}: ${(total / 3000).toFixed(0)} ms of kernels a run; ${top.join(', ')}`);
}
