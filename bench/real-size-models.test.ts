import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';

/**
 * scripts/make-real-size-models.mjs: each graph has the ops and I/O its architecture claims, as many parameters as
 * its config says (counted by hand below for the real sizes), and runs in onnxruntime-node (tiny configs of the same
 * graphs) with finite logits that padding does not change.
 */

interface Spec {
  arch: 'encoder' | 'decoder';
  vocabSize: number;
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads?: number;
  intermediateSize: number;
  maxPositions: number;
  typeVocabSize?: number;
}
interface Gen {
  ENCODER: Spec;
  DECODER: Spec;
  tinyOf(s: Spec): Spec;
  paramCount(s: Spec): number;
  buildRealSizeModel(s: Spec, dtype: 'fp32' | 'fp16' | 'int8'): { bytes: Uint8Array; params: number };
}
const gen = (await import(pathToFileURL(join(__dirname, '../scripts/make-real-size-models.mjs')).href)) as Gen;

/** Just enough protobuf to list a ModelProto's opset, node op types and initializers. */
function readModel(buf: Uint8Array) {
  let pos = 0;
  const varint = () => {
    let r = 0;
    let m = 1;
    for (;;) {
      const b = buf[pos++];
      r += (b & 0x7f) * m;
      if (b < 0x80) return r;
      m *= 128;
    }
  };
  const fields = (start: number, end: number) => {
    const out: { field: number; value: number; start: number; end: number }[] = [];
    pos = start;
    while (pos < end) {
      const key = varint();
      const wire = key & 7;
      if (wire === 0) out.push({ field: key >>> 3, value: varint(), start: 0, end: 0 });
      else if (wire === 2) {
        const len = varint();
        out.push({ field: key >>> 3, value: len, start: pos, end: pos + len });
        pos += len;
      } else if (wire === 5) pos += 4;
      else throw new Error(`wire ${wire}`);
    }
    return out;
  };
  const text = (f: { start: number; end: number }) => new TextDecoder().decode(buf.subarray(f.start, f.end));
  const ops: string[] = [];
  const inits: { name: string; dims: number[]; dataType: number }[] = [];
  let opset = 0;
  for (const m of fields(0, buf.length)) {
    if (m.field === 8) opset = fields(m.start, m.end).find((f) => f.field === 2)!.value;
    if (m.field !== 7) continue;
    for (const g of fields(m.start, m.end)) {
      if (g.field === 1) ops.push(text(fields(g.start, g.end).find((f) => f.field === 4)!));
      if (g.field === 5) {
        const t = fields(g.start, g.end);
        inits.push({
          name: text(t.find((f) => f.field === 8)!),
          dims: t.filter((f) => f.field === 1).map((f) => f.value),
          dataType: t.find((f) => f.field === 2)!.value,
        });
      }
    }
  }
  return { ops, inits, opset };
}

describe('real-size reward models', () => {
  it('count their parameters as the configs say (by hand)', () => {
    // Encoder: embeddings (50257 + 512 + 2) × 768 + LayerNorm 2·768 = 38,993,664; per layer q,k,v,o 4·(768² + 768)
    // + FFN (768·3072 + 3072) + (3072·768 + 768) + 2 LayerNorms 4·768 = 7,087,872, × 12 = 85,054,464; pooler 768² + 768
    // = 590,592; classifier 769.
    expect(gen.paramCount(gen.ENCODER)).toBe(38_993_664 + 85_054_464 + 590_592 + 769);
    // Decoder: embedding 151936 × 512 = 77,791,232; per layer q 512² + 512, k and v 2·(512·128 + 128), o 512²,
    // MLP 3·512·1536, 2 RMSNorms 2·512 = 3,016,448, × 12 = 36,197,376; final norm 512; score 512.
    expect(gen.paramCount(gen.DECODER)).toBe(77_791_232 + 36_197_376 + 512 + 512);
    expect(gen.paramCount(gen.ENCODER)).toBeGreaterThan(100e6);
    expect(gen.paramCount(gen.DECODER)).toBeGreaterThanOrEqual(100e6);
  });

  for (const arch of ['encoder', 'decoder'] as const) {
    for (const dtype of ['fp32', 'fp16', 'int8'] as const) {
      it(`${arch} ${dtype}: ops, weights and a run in onnxruntime-node (tiny config)`, async () => {
        const spec = gen.tinyOf(arch === 'encoder' ? gen.ENCODER : gen.DECODER);
        const { bytes, params } = gen.buildRealSizeModel(spec, dtype);
        const { ops, inits, opset } = readModel(bytes);
        expect(opset).toBe(17);
        // Weights: all but constants and int8 quantization parameters.
        const weights = inits.filter((t) => !t.name.startsWith('const_') && !/_(scale|zero_point)$/.test(t.name));
        expect(weights.reduce((a, t) => a + t.dims.reduce((x, d) => x * d, 1), 0)).toBe(gen.paramCount(spec));
        expect(params).toBe(gen.paramCount(spec));
        // float32 1, int8 3, float16 10: int8 quantizes the Linear layers only (embeddings, norms, biases stay float).
        expect(new Set(weights.map((t) => t.dataType))).toEqual(new Set(dtype === 'fp16' ? [10] : dtype === 'int8' ? [1, 3] : [1]));
        if (dtype === 'int8') expect(ops.filter((o) => o === 'MatMulInteger').length).toBe(arch === 'encoder' ? 6 * spec.numLayers + 1 : 7 * spec.numLayers);
        expect(ops.filter((o) => o === 'Cast').length).toBeGreaterThanOrEqual(dtype === 'fp16' ? weights.length : 0);
        const has = (o: string) => ops.includes(o);
        const dimsOf = (name: string) => weights.find((t) => [name, `${name}.fp16`, `${name}_quantized`].includes(t.name))?.dims;
        if (arch === 'encoder') {
          expect(ops.filter((o) => o === 'LayerNormalization').length).toBe(1 + 2 * spec.numLayers);
          for (const o of ['Erf', 'Softmax', 'Tanh']) expect(has(o), o).toBe(true);
          expect(dimsOf('bert.encoder.layer.0.intermediate.dense.weight')).toEqual([spec.hiddenSize, spec.intermediateSize]);
        } else {
          // RMSNorm (Pow, ReduceMean, Sqrt), RoPE (Sin, Cos), SwiGLU (Sigmoid), GQA (Expand), causal mask, last token.
          for (const o of ['Pow', 'ReduceMean', 'Sqrt', 'Sin', 'Cos', 'Sigmoid', 'Expand', 'LessOrEqual', 'GatherElements']) expect(has(o), o).toBe(true);
          expect(has('LayerNormalization')).toBe(false);
          const hd = spec.hiddenSize / spec.numHeads;
          expect(dimsOf('model.layers.0.self_attn.k_proj.weight')).toEqual([spec.hiddenSize, spec.numKvHeads! * hd]);
        }

        const session = await ort.InferenceSession.create(bytes, { executionProviders: ['cpu'], graphOptimizationLevel: 'all' });
        try {
          expect(session.inputNames).toEqual(arch === 'encoder' ? ['input_ids', 'attention_mask', 'token_type_ids'] : ['input_ids', 'attention_mask']);
          expect(session.outputNames).toEqual(['logits']);
          const feeds = (rows: number[][], types?: number[][]) => {
            const S = Math.max(...rows.map((r) => r.length));
            const flat = (f: (r: number[], s: number, b: number) => number) =>
              BigInt64Array.from(rows.flatMap((r, b) => Array.from({ length: S }, (_, s) => BigInt(f(r, s, b)))));
            const dims = [rows.length, S];
            const out: Record<string, ort.Tensor> = {
              input_ids: new ort.Tensor(
                'int64',
                flat((r, s) => r[s] ?? 0),
                dims,
              ),
              attention_mask: new ort.Tensor(
                'int64',
                flat((r, s) => (s < r.length ? 1 : 0)),
                dims,
              ),
            };
            if (arch === 'encoder')
              out.token_type_ids = new ort.Tensor(
                'int64',
                flat((_, s, b) => types?.[b][s] ?? 0),
                dims,
              );
            return out;
          };
          const rows = [
            [11, 500, 3000, 42, 9, 50000],
            [7, 8, 9],
          ];
          const both = await session.run(feeds(rows));
          expect(both.logits.dims).toEqual([2, 1]);
          const logits = Array.from(both.logits.data as Float32Array);
          expect(logits.every(Number.isFinite)).toBe(true);
          // The short row alone (no padding) scores as it does padded in the batch (int8: the activations' scale is
          // per tensor, the whole batch's, as in quantize_dynamic: close, not equal).
          const alone = Array.from((await session.run(feeds([rows[1]]))).logits.data as Float32Array);
          expect(alone[0]).toBeCloseTo(logits[1], dtype === 'int8' ? 3 : 5);
          if (dtype === 'int8') return;
          expect(logits[0]).not.toBeCloseTo(logits[1], 6);
          if (arch === 'encoder') {
            // token_type_ids are read: the second segment changes the score.
            const typed = Array.from((await session.run(feeds([rows[1]], [[0, 1, 1]]))).logits.data as Float32Array);
            expect(typed[0]).not.toBeCloseTo(alone[0], 6);
          }
        } finally {
          await session.release();
        }
      });
    }
  }
});
