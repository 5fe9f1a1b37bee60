/**
 * The main-thread handle of one model worker (workers/model.worker.ts): promise-returning load / dataset / score
 * calls over its messages. One worker holds one model on one execution provider.
 */
import { bytesOf, type Dataset } from '../core/dataset/dataset';
import type { BatchLimits } from '../core/models/batching';
import type { EncoderSpec, InputMode } from '../core/models/encode';
import type { ModelReply, ModelRequest, ScoredReply, LoadedModelInfo } from './modelProtocol';
import type { Provider } from '../worker/ortLoader';

export type LoadOutcome = ({ ok: true } & LoadedModelInfo) | { ok: false; message: string; unavailable: boolean };
export type ScoreOutcome = ({ ok: true } & ScoredReply) | { ok: false; message: string };

export interface ScoreJob {
  done: Promise<ScoreOutcome>;
  cancel(): void;
}

let nextJob = 1;

export class ModelWorkerClient {
  private readonly worker: Worker;
  private onLoad: ((m: ModelReply) => void) | null = null;
  private onDataset: ((m: ModelReply) => void) | null = null;
  private jobs = new Map<number, { progress?: (p: { done: number; total: number; cached: number }) => void; finish: (o: ScoreOutcome) => void }>();
  private datasetId: string | null = null;
  private datasetReady: Promise<string | null> = Promise.resolve(null);

  constructor(readonly provider: Provider) {
    this.worker = new Worker(new URL('../../workers/model.worker.ts', import.meta.url), { type: 'module', name: `model-${provider}` });
    this.worker.onmessage = (ev: MessageEvent<ModelReply>) => {
      const m = ev.data;
      if (m.kind === 'loaded' || m.kind === 'load-failed') this.onLoad?.(m);
      else if (m.kind === 'dataset-loaded' || m.kind === 'dataset-failed') this.onDataset?.(m);
      else if (m.kind === 'progress') this.jobs.get(m.jobId)?.progress?.(m);
      else if (m.kind === 'scored') this.jobs.get(m.jobId)?.finish({ ok: true, ...m });
      else if (m.kind === 'score-failed') this.jobs.get(m.jobId)?.finish({ ok: false, message: m.message });
    };
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      const message = `the model worker stopped: ${ev.message || 'unknown error'}`;
      this.onLoad?.({ kind: 'load-failed', message, unavailable: false });
      for (const j of this.jobs.values()) j.finish({ ok: false, message });
    };
  }

  private send(m: ModelRequest): void {
    this.worker.postMessage(m);
  }

  load(onnx: Blob, encoder: EncoderSpec, externalData?: { path: string; data: Blob }[]): Promise<LoadOutcome> {
    return new Promise((resolve) => {
      this.onLoad = (m) => {
        this.onLoad = null;
        if (m.kind === 'loaded') {
          const { kind: _, ...info } = m;
          resolve({ ok: true, ...info });
        } else if (m.kind === 'load-failed') resolve({ ok: false, message: m.message, unavailable: m.unavailable });
      };
      this.send({ kind: 'load', provider: this.provider, onnx, externalData, encoder });
    });
  }

  /** Read this dataset (once per dataset id); resolves with an error message, or null when ready. */
  setDataset(ds: Dataset): Promise<string | null> {
    if (this.datasetId === ds.id) return this.datasetReady;
    this.datasetId = ds.id;
    this.datasetReady = new Promise((resolve) => {
      this.onDataset = (m) => {
        if (m.kind === 'dataset-loaded' && m.datasetId === ds.id) resolve(null);
        else if (m.kind === 'dataset-failed' && m.datasetId === ds.id) resolve(`the model worker could not read the rollouts: ${m.message}`);
      };
    });
    // Several files: the model worker reads each (whole), in the import's order, as the reward workers do.
    const parts = ds.parts?.filter((p) => p.rows > 0).map((p) => ({ blob: bytesOf(p), name: p.name, step: p.step }));
    this.send({
      kind: 'dataset',
      datasetId: ds.id,
      blob: bytesOf(ds),
      name: ds.name,
      format: ds.detection.format,
      mapping: ds.mapping,
      ...(parts ? { parts } : {}),
    });
    return this.datasetReady;
  }

  score(
    req: {
      datasetId: string;
      mode: InputMode;
      numLabels: number;
      useCache: boolean;
      rows?: number[];
      limits?: BatchLimits;
      probe?: { name: string; rows: Int32Array; donors?: Int32Array };
    },
    progress?: (p: { done: number; total: number; cached: number }) => void,
  ): ScoreJob {
    const jobId = nextJob++;
    const done = new Promise<ScoreOutcome>((resolve) => {
      this.jobs.set(jobId, {
        progress,
        finish: (o) => {
          this.jobs.delete(jobId);
          resolve(o);
        },
      });
    });
    this.send({ kind: 'score', jobId, ...req });
    return { done, cancel: () => this.send({ kind: 'cancel', jobId }) };
  }

  terminate(): void {
    this.worker.terminate();
    for (const j of this.jobs.values()) j.finish({ ok: false, message: 'the model was removed' });
  }
}
