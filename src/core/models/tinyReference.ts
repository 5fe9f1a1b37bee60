/**
 * An independent reference for the demo reward model written by `scripts/make-tiny-reward-model.mjs`
 * (public/models/tiny-reward/): the same forward pass in plain JavaScript (float64 arithmetic over the float32
 * weights), with the weights read back from the .onnx bytes by a minimal protobuf reader. Tests compare
 * onnxruntime (node, web WASM, web WebGPU) against it. Pure: no DOM, no onnxruntime.
 *
 *   ids    = input_ids mod hash_buckets                 (only when the graph has `const.hash_buckets`)
 *   x      = word_embeddings[ids] + position_embeddings[0..S)
 *   x      = tanh(x @ layers.i.weight + layers.i.bias)  (per token, for each layer present)
 *   pooled = sum_s(x * mask) / max(sum_s(mask), 1)
 *   logits = tanh(pooled @ dense.weight + dense.bias) @ out_proj.weight + out_proj.bias   -> [batch, 1]
 */
import type { TokenBatch } from './batching';

export interface OnnxInitializer {
  name: string;
  dims: number[];
  /** ONNX TensorProto.DataType: 1 = float32, 7 = int64. */
  dataType: number;
  data: Float32Array | BigInt64Array;
}

/** A protobuf cursor: just varints and length-delimited fields (plus skipping fixed32/fixed64). */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }
  varint(): number {
    let result = 0;
    let mul = 1;
    for (;;) {
      if (this.pos >= this.end) throw new Error('onnx: truncated varint');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
      if (mul > 2 ** 63) throw new Error('onnx: varint too long');
    }
  }
  /** Fields of a message: [fieldNumber, wireType, valueStart, valueEnd or varint value]. */
  *fields(): Generator<{ field: number; wire: number; value: number; start: number; end: number }> {
    while (this.pos < this.end) {
      const key = this.varint();
      const field = Math.floor(key / 8);
      const wire = key & 7;
      if (wire === 0) {
        const value = this.varint();
        yield { field, wire, value, start: this.pos, end: this.pos };
      } else if (wire === 2) {
        const len = this.varint();
        const start = this.pos;
        this.pos += len;
        if (this.pos > this.end) throw new Error('onnx: truncated field');
        yield { field, wire, value: len, start, end: this.pos };
      } else if (wire === 5) {
        this.pos += 4;
      } else if (wire === 1) {
        this.pos += 8;
      } else {
        throw new Error(`onnx: unsupported wire type ${wire}`);
      }
    }
  }
}

const FLOAT = 1;
const INT64 = 7;

function readTensor(buf: Uint8Array, start: number, end: number): OnnxInitializer {
  const dims: number[] = [];
  let dataType = 0;
  let name = '';
  let raw: Uint8Array | null = null;
  const floats: number[] = [];
  for (const f of new Reader(buf, start, end).fields()) {
    if (f.field === 1 && f.wire === 0) dims.push(f.value);
    else if (f.field === 1 && f.wire === 2) {
      const r = new Reader(buf, f.start, f.end);
      while (r.pos < r.end) dims.push(r.varint());
    } else if (f.field === 2) dataType = f.value;
    else if (f.field === 8) name = new TextDecoder().decode(buf.subarray(f.start, f.end));
    else if (f.field === 9) raw = buf.subarray(f.start, f.end);
    else if (f.field === 4 && f.wire === 2) {
      const dv = new DataView(buf.buffer, buf.byteOffset + f.start, f.end - f.start);
      for (let o = 0; o < dv.byteLength; o += 4) floats.push(dv.getFloat32(o, true));
    }
  }
  const count = dims.reduce((a, d) => a * d, 1);
  let data: Float32Array | BigInt64Array;
  if (dataType === FLOAT) {
    if (raw) {
      data = new Float32Array(count);
      const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
      for (let i = 0; i < count; i++) data[i] = dv.getFloat32(4 * i, true);
    } else data = Float32Array.from(floats);
  } else if (dataType === INT64 && raw) {
    data = new BigInt64Array(count);
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    for (let i = 0; i < count; i++) data[i] = dv.getBigInt64(8 * i, true);
  } else {
    throw new Error(`onnx: initializer ${name}: unsupported data type ${dataType}`);
  }
  if (data.length !== count) throw new Error(`onnx: initializer ${name}: ${data.length} values for dims [${dims}]`);
  return { name, dims, dataType, data };
}

/** The initializers (weights and constants) of an ONNX model: ModelProto.graph (7) -> GraphProto.initializer (5). */
export function readOnnxInitializers(bytes: Uint8Array): Map<string, OnnxInitializer> {
  const out = new Map<string, OnnxInitializer>();
  for (const m of new Reader(bytes).fields()) {
    if (m.field !== 7 || m.wire !== 2) continue;
    for (const g of new Reader(bytes, m.start, m.end).fields()) {
      if (g.field === 5 && g.wire === 2) {
        const t = readTensor(bytes, g.start, g.end);
        out.set(t.name, t);
      }
    }
  }
  if (out.size === 0) throw new Error('onnx: no initializers found (not an ONNX model?)');
  return out;
}

export interface TinyRewardWeights {
  /** 0 when token ids index the embedding directly. */
  hashBuckets: number;
  embeddingRows: number;
  hiddenSize: number;
  maxPositions: number;
  classifierHidden: number;
  wordEmbeddings: Float32Array;
  positionEmbeddings: Float32Array;
  layers: { weight: Float32Array; bias: Float32Array }[];
  denseWeight: Float32Array;
  denseBias: Float32Array;
  outWeight: Float32Array;
  outBias: Float32Array;
}

export function loadTinyRewardWeights(onnxBytes: Uint8Array): TinyRewardWeights {
  const inits = readOnnxInitializers(onnxBytes);
  const get = (name: string): OnnxInitializer => {
    const t = inits.get(name);
    if (!t) throw new Error(`tiny reward model: missing initializer ${name}`);
    return t;
  };
  const f32 = (name: string) => {
    const t = get(name);
    if (!(t.data instanceof Float32Array)) throw new Error(`tiny reward model: ${name} is not float32`);
    return t.data;
  };
  const word = get('embeddings.word_embeddings.weight');
  const pos = get('embeddings.position_embeddings.weight');
  const dense = get('classifier.dense.weight');
  const hash = inits.get('const.hash_buckets');
  const layers: TinyRewardWeights['layers'] = [];
  for (let l = 0; inits.has(`layers.${l}.weight`); l++) layers.push({ weight: f32(`layers.${l}.weight`), bias: f32(`layers.${l}.bias`) });
  return {
    hashBuckets: hash ? Number(hash.data[0]) : 0,
    embeddingRows: word.dims[0],
    hiddenSize: word.dims[1],
    maxPositions: pos.dims[0],
    classifierHidden: dense.dims[1],
    wordEmbeddings: f32('embeddings.word_embeddings.weight'),
    positionEmbeddings: f32('embeddings.position_embeddings.weight'),
    layers,
    denseWeight: f32('classifier.dense.weight'),
    denseBias: f32('classifier.dense.bias'),
    outWeight: f32('classifier.out_proj.weight'),
    outBias: f32('classifier.out_proj.bias'),
  };
}

/** The model's `logits` ([batch, 1], flattened) computed in plain JS. */
export function tinyRewardLogits(w: TinyRewardWeights, x: TokenBatch): Float64Array {
  const { batch, sequence: S } = x;
  const D = w.hiddenSize;
  const H = w.classifierHidden;
  if (x.inputIds.length !== batch * S || x.attentionMask.length !== batch * S) throw new Error('tiny reward model: batch shape mismatch');
  if (S > w.maxPositions) throw new Error(`tiny reward model: ${S} tokens > max_position_embeddings ${w.maxPositions}`);
  const out = new Float64Array(batch);
  const tok = new Float64Array(D);
  const next = new Float64Array(D);
  for (let b = 0; b < batch; b++) {
    const sum = new Float64Array(D);
    let count = 0;
    for (let s = 0; s < S; s++) {
      let id = Number(x.inputIds[b * S + s]);
      const m = Number(x.attentionMask[b * S + s]);
      if (w.hashBuckets) id %= w.hashBuckets;
      if (!(id >= 0 && id < w.embeddingRows)) throw new Error(`tiny reward model: token id ${id} out of range`);
      for (let d = 0; d < D; d++) tok[d] = w.wordEmbeddings[id * D + d] + w.positionEmbeddings[s * D + d];
      for (const layer of w.layers) {
        for (let j = 0; j < D; j++) {
          let acc = layer.bias[j];
          for (let i = 0; i < D; i++) acc += tok[i] * layer.weight[i * D + j];
          next[j] = Math.tanh(acc);
        }
        tok.set(next);
      }
      for (let d = 0; d < D; d++) sum[d] += tok[d] * m;
      count += m;
    }
    const denom = Math.max(count, 1);
    let logit = w.outBias[0];
    for (let j = 0; j < H; j++) {
      let acc = w.denseBias[j];
      for (let i = 0; i < D; i++) acc += (sum[i] / denom) * w.denseWeight[i * H + j];
      logit += Math.tanh(acc) * w.outWeight[j];
    }
    out[b] = logit;
  }
  return out;
}
