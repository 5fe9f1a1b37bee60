/// <reference lib="webworker" />
import { RolloutEncoder, type EncoderSpec, type InputMode } from '../core/models/encode';
import { scoreRollouts } from '../core/models/scoreRollouts';
import { sha256HexOf } from '../core/digest';
import { modelScoreCache } from './modelCache';
import type { ModelReply, ModelRequest } from '../runtime/modelProtocol';
import { createModelSession, ProviderUnavailable, type ModelSession } from './modelSession';
import { WorkerRows } from '../engine/workerRows';
import { applyProbe, probeByName } from '../core/probe/probes';
import type { Trajectory } from '../core/trajectory';

/** The stress test's probed rollouts, as the reward workers build them (engine/probeRows.ts): position j is row rows[j]. */
function probedRows(rows: readonly Trajectory[], p: { name: string; rows: Int32Array; donors?: Int32Array }): Trajectory[] {
  const probe = probeByName(p.name);
  if (!probe) throw new Error(`unknown probe ${p.name}`);
  const row = (r: number) => {
    if (!(r >= 0 && r < rows.length)) throw new Error(`probe row ${r} is outside the dataset (${rows.length} rows)`);
    return rows[r];
  };
  return Array.from(p.rows, (r, j) => applyProbe(probe, row(r), p.donors ? row(p.donors[j]) : undefined));
}

/** The model worker's message loop (workers/model.worker.ts only wires it to its scope). */
export function serveModelWorker(self: DedicatedWorkerGlobalScope): void {
  /** One reward model on one execution provider (see src/worker/modelSession.ts); scoring is core/models/scoreRollouts. */
  // It runs no user code (no network lock-down: onnxruntime fetches its .wasm from the app's origin and starts its
  // own threads); the page's CSP still allows nothing but that origin.

  let session: ModelSession | null = null;
  let spec: EncoderSpec | null = null;
  let sha = '';
  const data = new WorkerRows();
  const encoders = new Map<InputMode, RolloutEncoder>();
  const cancelled = new Set<number>();
  const post = (m: ModelReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);
  const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

  self.onmessage = async (ev: MessageEvent<ModelRequest>) => {
    const m = ev.data;
    if (m.kind === 'load') {
      try {
        const onnx = new Uint8Array(await m.onnx.arrayBuffer());
        sha = await sha256HexOf(onnx);
        session = await createModelSession(m.provider, { onnx, externalData: m.externalData });
        spec = m.encoder;
        const { provider, adapter, threads, inputs, outputs, output } = session;
        post({ kind: 'loaded', provider, adapter, threads, inputs, outputs, output, sha256: sha });
      } catch (e) {
        post({ kind: 'load-failed', message: message(e), unavailable: e instanceof ProviderUnavailable });
      }
    } else if (m.kind === 'dataset') {
      try {
        await data.load(m);
        post({ kind: 'dataset-loaded', datasetId: data.datasetId, rows: data.rows.length });
      } catch (e) {
        post({ kind: 'dataset-failed', datasetId: m.datasetId, message: message(e) });
      }
    } else if (m.kind === 'cancel') {
      cancelled.add(m.jobId);
    } else if (m.kind === 'score') {
      const t0 = performance.now();
      try {
        if (!session || !spec) throw new Error('no model is loaded in this worker');
        if (m.datasetId !== data.datasetId) throw new Error(`the rollouts (${m.datasetId}) are not loaded in the model worker`);
        let encoder = encoders.get(m.mode);
        if (!encoder) encoders.set(m.mode, (encoder = new RolloutEncoder(spec, m.mode)));
        const target = m.probe ? probedRows(data.rows, m.probe) : m.rows ? m.rows.map((i) => data.rows[i]) : data.rows;
        let last = 0;
        const r = await scoreRollouts(target, encoder, session.infer, {
          numLabels: m.numLabels,
          limits: m.limits,
          cache: m.useCache ? modelScoreCache : undefined,
          modelKey: `${sha}|${m.mode}|${spec.maxLength ?? 'none'}`,
          cancelled: () => cancelled.has(m.jobId),
          onProgress: (p) => {
            const now = performance.now();
            if (now - last < 100 && p.done < p.total) return;
            last = now;
            post({ kind: 'progress', jobId: m.jobId, ...p });
          },
        });
        cancelled.delete(m.jobId);
        post(
          {
            kind: 'scored',
            jobId: m.jobId,
            logits: r.logits,
            status: r.status,
            truncated: r.truncated,
            errors: [...r.errors],
            truncatedCount: r.truncatedCount,
            cachedCount: r.cachedCount,
            inferredCount: r.inferredCount,
            batches: r.batches,
            cancelled: r.cancelled,
            elapsedMs: performance.now() - t0,
          },
          [r.logits.buffer, r.status.buffer, r.truncated.buffer],
        );
      } catch (e) {
        cancelled.delete(m.jobId);
        post({ kind: 'score-failed', jobId: m.jobId, message: message(e) });
      }
    }
  };
}
