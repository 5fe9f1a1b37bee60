/**
 * Where --model's ONNX sessions run. onnxruntime-node is a native addon, and Node's permission model can only allow
 * every addon or none (`--allow-addons`): reward code could then load any addon it can read and act outside the
 * sandbox. So the sandboxed command never loads it: the parent process (not under the permission model, running
 * only the studio's code) holds the sessions and answers the child's requests over the IPC channel: open a graph in
 * one of the --model folders, run a batch of token ids, release. Tokenizing and everything else stays in the child.
 * With --allow-all there is no parent: the sessions are in the process itself.
 */
import type { ChildProcess } from 'node:child_process';
import { resolve, sep } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import type { TokenBatch } from '../core/models/batching';
import { halfToFloat } from '../core/models/naming';
import { bad, checked, int, record, str } from '../engine/checks';

/** An open ONNX graph, wherever it runs. */
export interface OrtSession {
  inputNames: string[];
  outputNames: string[];
  run(batch: TokenBatch): Promise<Float32Array>;
  release(): Promise<void>;
}
export type OpenSession = (onnxPath: string) => Promise<OrtSession>;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** onnxruntime-node, loaded only for --model (not bundled: see bin/build-cli.mjs). */
async function loadOrt(): Promise<typeof Ort> {
  try {
    return await import('onnxruntime-node');
  } catch (e) {
    throw new Error(`onnxruntime-node is not available (${message(e)}); install it next to reward-studio: npm install onnxruntime-node@1.30.0`, { cause: e });
  }
}

/** Sessions in this process (the CPU execution provider). */
export function localSessions(): OpenSession {
  let ort: Promise<typeof Ort> | null = null;
  return async (onnxPath) => {
    const o = await (ort ??= loadOrt());
    // By path, so that external weights beside the graph (model.onnx_data) are found.
    const session = await o.InferenceSession.create(onnxPath, { executionProviders: ['cpu'], graphOptimizationLevel: 'all' });
    const names = new Set(session.inputNames);
    const output = session.outputNames.includes('logits') ? 'logits' : session.outputNames[0];
    return {
      inputNames: [...session.inputNames],
      outputNames: [...session.outputNames],
      release: () => session.release(),
      // The feeds the studio's model worker builds (src/worker/modelSession.ts), from the graph's own input names.
      async run(x) {
        const dims = [x.batch, x.sequence];
        const feeds: Record<string, Ort.Tensor> = { input_ids: new o.Tensor('int64', x.inputIds, dims) };
        if (names.has('attention_mask')) feeds.attention_mask = new o.Tensor('int64', x.attentionMask, dims);
        if (names.has('token_type_ids')) feeds.token_type_ids = new o.Tensor('int64', x.typeIds ?? new BigInt64Array(x.batch * x.sequence), dims);
        if (names.has('position_ids')) {
          // Right padding: positions count from 0 along each row.
          const pos = new BigInt64Array(x.batch * x.sequence);
          for (let b = 0; b < x.batch; b++) for (let s = 0; s < x.sequence; s++) pos[b * x.sequence + s] = BigInt(s);
          feeds.position_ids = new o.Tensor('int64', pos, dims);
        }
        const t = (await session.run(feeds))[output];
        if (t.type === 'float32') return t.data as Float32Array;
        if (t.type === 'float16') return Float32Array.from(t.data as Uint16Array, halfToFloat);
        if (t.type === 'float64') return Float32Array.from(t.data as Float64Array);
        throw new Error(`the output "${output}" is ${t.type}, not a float tensor of logits`);
      },
    };
  };
}

type Request =
  | { kind: 'ort-open'; id: number; path: string }
  | { kind: 'ort-run'; id: number; session: number; batch: TokenBatch }
  | { kind: 'ort-release'; id: number; session: number };
type Reply = { kind: 'ort-reply'; id: number } & (
  { ok: true; session?: number; inputNames?: string[]; outputNames?: string[]; logits?: Float32Array } | { ok: false; message: string }
);

const i64 = (v: unknown, n: number, where: string) => (v instanceof BigInt64Array && v.length === n ? v : bad(where, `a BigInt64Array of ${n}`));

/** A request from the sandboxed child, checked: a graph inside one of `dirs`, a batch of consistent shape. */
export function checkRequest(v: unknown, dirs: readonly string[]) {
  return checked((): Request => {
    const m = record(v, 'request');
    const id = int(m.id, 'id', 0);
    if (m.kind === 'ort-open') {
      const path = resolve(str(m.path, 'path'));
      if (!/\.onnx$/i.test(path) || !dirs.some((d) => path.startsWith(resolve(d) + sep))) bad('path', 'an .onnx file inside a --model folder');
      return { kind: 'ort-open', id, path };
    }
    if (m.kind === 'ort-run') {
      const b = record(m.batch, 'batch');
      const batch = int(b.batch, 'batch.batch', 1, 1 << 20);
      const sequence = int(b.sequence, 'batch.sequence', 1, 1 << 24);
      const n = batch * sequence;
      const out: TokenBatch = {
        batch,
        sequence,
        inputIds: i64(b.inputIds, n, 'batch.inputIds'),
        attentionMask: i64(b.attentionMask, n, 'batch.attentionMask'),
      };
      if (b.typeIds !== undefined) out.typeIds = i64(b.typeIds, n, 'batch.typeIds');
      return { kind: 'ort-run', id, session: int(m.session, 'session', 0), batch: out };
    }
    if (m.kind === 'ort-release') return { kind: 'ort-release', id, session: int(m.session, 'session', 0) };
    return bad('kind', 'a model request');
  });
}

/** The parent's side: answer `child`'s model requests with sessions opened here, for graphs inside `dirs` only. */
export function serveModels(child: ChildProcess, dirs: readonly string[], open: OpenSession = localSessions()): () => Promise<void> {
  const sessions = new Map<number, OrtSession>();
  let next = 0;
  const reply = (r: Reply) => {
    if (child.connected) child.send(r);
  };
  child.on('message', (v: unknown) => {
    const c = checkRequest(v, dirs);
    if (!c.ok) {
      const id = (v as { id?: unknown } | null)?.id;
      if (Number.isInteger(id)) reply({ kind: 'ort-reply', id: id as number, ok: false, message: `refused: ${c.error}` });
      return;
    }
    const m = c.value;
    void (async (): Promise<Reply> => {
      try {
        if (m.kind === 'ort-open') {
          const s = await open(m.path);
          const session = next++;
          sessions.set(session, s);
          return { kind: 'ort-reply', id: m.id, ok: true, session, inputNames: s.inputNames, outputNames: s.outputNames };
        }
        const s = sessions.get(m.session);
        if (!s) throw new Error(`no model session ${m.session}`);
        if (m.kind === 'ort-release') {
          sessions.delete(m.session);
          await s.release();
          return { kind: 'ort-reply', id: m.id, ok: true };
        }
        return { kind: 'ort-reply', id: m.id, ok: true, logits: await s.run(m.batch) };
      } catch (e) {
        return { kind: 'ort-reply', id: m.id, ok: false, message: message(e) };
      }
    })().then(reply);
  });
  return async () => {
    await Promise.all([...sessions.values()].map((s) => s.release().catch(() => undefined)));
    sessions.clear();
  };
}

/** The child's side: sessions held by the parent, reached over the IPC channel (`process.send`). */
export function remoteSessions(): OpenSession {
  const send = process.send?.bind(process);
  if (!send) throw new Error('no channel to the parent process for the model sessions');
  const pending = new Map<number, { resolve: (r: Reply) => void }>();
  let next = 0;
  // The channel keeps the process alive only while a request waits for its answer.
  const channel = process.channel as { ref(): void; unref(): void } | undefined;
  channel?.unref();
  process.on('message', (v: unknown) => {
    const r = v as Reply;
    if (r?.kind !== 'ort-reply' || !Number.isInteger(r.id)) return;
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (pending.size === 0) channel?.unref();
    p.resolve(r);
  });
  const ask = (m: Request): Promise<Extract<Reply, { ok: true }>> =>
    new Promise((res, rej) => {
      if (pending.size === 0) channel?.ref();
      pending.set(m.id, { resolve: (r) => (r.ok ? res(r) : rej(new Error(r.message))) });
      send(m);
    });
  return async (path) => {
    const opened = await ask({ kind: 'ort-open', id: next++, path });
    const session = opened.session;
    const strings = (v: unknown, where: string) =>
      Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : bad(where, 'a list of names');
    if (!Number.isInteger(session)) throw new Error('the model host did not name the session');
    return {
      inputNames: strings(opened.inputNames, 'inputNames'),
      outputNames: strings(opened.outputNames, 'outputNames'),
      async run(batch) {
        const r = await ask({ kind: 'ort-run', id: next++, session: session!, batch });
        if (!(r.logits instanceof Float32Array)) throw new Error('the model host sent no logits');
        return r.logits;
      },
      release: async () => void (await ask({ kind: 'ort-release', id: next++, session: session! })),
    };
  };
}
