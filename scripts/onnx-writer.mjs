/**
 * A minimal ONNX protobuf writer (ModelProto and what it contains), shared by scripts/make-tiny-reward-model.mjs and
 * scripts/make-real-size-models.mjs: no onnx package is installed here, so the bytes are written by hand.
 * Field numbers follow onnx/onnx.proto3.
 */

export function varint(n) {
  // Non-negative integers below 2^53 only (all ONNX fields written here).
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`varint: ${n}`);
  const out = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Uint8Array.from(out);
}
export const concat = (parts) => {
  const len = parts.reduce((a, p) => a + p.length, 0);
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const enc = new TextEncoder();
/** Field helpers: each returns the encoded key + value. */
export const pb = {
  int: (field, v) => concat([varint(field << 3), varint(v)]),
  bytes: (field, b) => concat([varint((field << 3) | 2), varint(b.length), b]),
  str: (field, s) => pb.bytes(field, enc.encode(s)),
  msg: (field, parts) => pb.bytes(field, concat(parts)),
  f32: (field, v) => {
    const b = new Uint8Array(5);
    b[0] = (field << 3) | 5;
    new DataView(b.buffer).setFloat32(1, v, true);
    return b;
  },
};

// ONNX enums (TensorProto.DataType, AttributeProto.AttributeType)
export const FLOAT = 1;
export const INT8 = 3;
export const INT32 = 6;
export const INT64 = 7;
export const BOOL = 9;
export const FLOAT16 = 10;
export const UINT8 = 2;
const ATTR_FLOAT = 1;
const ATTR_INT = 2;
const ATTR_INTS = 7;

export function tensor(name, dims, dataType, raw) {
  return [...dims.map((d) => pb.int(1, d)), pb.int(2, dataType), pb.str(8, name), pb.bytes(9, raw)];
}
export const f32 = (arr) => new Uint8Array(Float32Array.from(arr).buffer);
export function i64(arr) {
  const b = new Uint8Array(8 * arr.length);
  const dv = new DataView(b.buffer);
  arr.forEach((v, i) => dv.setBigInt64(8 * i, BigInt(v), true));
  return b;
}

/** float32 → IEEE half bits, round to nearest even (Node 20 has no Float16Array). */
export function toHalfBits(arr) {
  const out = new Uint16Array(arr.length);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < arr.length; i++) {
    f[0] = arr[i];
    const x = u[0];
    const sign = (x >>> 16) & 0x8000;
    const exp = (x >>> 23) & 0xff;
    let mant = x & 0x7fffff;
    let h;
    if (exp === 0xff) h = sign | 0x7c00 | (mant ? 0x200 : 0);
    else {
      const e = exp - 127 + 15;
      if (e >= 0x1f) h = sign | 0x7c00;
      else if (e <= 0) {
        if (e < -10) h = sign;
        else {
          mant |= 0x800000;
          const shift = 14 - e;
          let m = mant >>> shift;
          const rem = mant & ((1 << shift) - 1);
          const half = 1 << (shift - 1);
          if (rem > half || (rem === half && m & 1)) m++;
          h = sign | m;
        }
      } else {
        let m = mant >>> 13;
        const rem = mant & 0x1fff;
        h = sign | (e << 10) | m;
        if (rem > 0x1000 || (rem === 0x1000 && m & 1)) h++;
      }
    }
    out[i] = h;
  }
  return new Uint8Array(out.buffer);
}

/** A NodeProto's fields; attribute values: integer → INT, non-integer number → FLOAT, array → INTS; `{ f: x }` forces FLOAT. */
export function node(op, inputs, outputs, attrs = {}) {
  const name = `${op}_${outputs[0]}`;
  const attr = ([k, v]) => {
    if (Array.isArray(v)) return pb.msg(5, [pb.str(1, k), ...v.map((x) => pb.int(8, x)), pb.int(20, ATTR_INTS)]);
    if (typeof v === 'object') return pb.msg(5, [pb.str(1, k), pb.f32(2, v.f), pb.int(20, ATTR_FLOAT)]);
    if (Number.isInteger(v)) return pb.msg(5, [pb.str(1, k), pb.int(3, v), pb.int(20, ATTR_INT)]);
    return pb.msg(5, [pb.str(1, k), pb.f32(2, v), pb.int(20, ATTR_FLOAT)]);
  };
  return [...inputs.map((s) => pb.str(1, s)), ...outputs.map((s) => pb.str(2, s)), pb.str(3, name), pb.str(4, op), ...Object.entries(attrs).map(attr)];
}
export function valueInfo(name, elemType, dims) {
  const dim = (d) => pb.msg(1, [typeof d === 'string' ? pb.str(2, d) : pb.int(1, d)]);
  return [pb.str(1, name), pb.msg(2, [pb.msg(1, [pb.int(1, elemType), pb.msg(2, dims.map(dim))])])];
}

/** ModelProto bytes: ir_version 8, one ai.onnx opset. `inits` are TensorProto field lists, inputs/outputs valueInfo lists. */
export function modelProto({ name, producer, nodes, inits, inputs, outputs, opset }) {
  const graph = [
    ...nodes.map((n) => pb.msg(1, n)),
    pb.str(2, name),
    ...inits.map((t) => pb.msg(5, t)),
    ...inputs.map((v) => pb.msg(11, v)),
    ...outputs.map((v) => pb.msg(12, v)),
  ];
  return concat([pb.int(1, 8), pb.str(2, producer), pb.str(3, '1'), pb.msg(7, graph), pb.msg(8, [pb.str(1, ''), pb.int(2, opset)])]);
}

/** mulberry32: a tiny deterministic PRNG. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export function uniform(rand, n, scale) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
  return out;
}
