import type { BatchLimits } from '../core/models/batching';
import type { EncoderSpec, InputMode } from '../core/models/encode';
import type { Provider } from '../worker/ortLoader';
import type { ModelSession } from '../worker/modelSession';
import type { DatasetFile } from '../engine/protocol';

/** Main thread → model worker (workers/model.worker.ts). One worker holds one model on one execution provider. */
export type ModelRequest =
  | { kind: 'load'; provider: Provider; onnx: Blob; externalData?: { path: string; data: Blob }[]; encoder: EncoderSpec }
  /** Read the rollouts (same format and mapping as the import, so the trajectories are identical). */
  | ({ kind: 'dataset' } & DatasetFile)
  | {
      kind: 'score';
      jobId: number;
      datasetId: string;
      mode: InputMode;
      numLabels: number;
      limits?: BatchLimits;
      /** false: neither read nor write the score cache (the WebGPU-vs-WASM check). */
      useCache: boolean;
      /** Score only these rows (a sample); all rows when absent. */
      rows?: number[];
      /** Score probe `name` applied to dataset rows `rows` (the stress test), by position; `donors` for `cross`. */
      probe?: { name: string; rows: Int32Array; donors?: Int32Array };
    }
  | { kind: 'cancel'; jobId: number };

/** What the worker tells about the model it loaded: the session's facts, and the weights' hash. */
export type LoadedModelInfo = Pick<ModelSession, 'provider' | 'adapter' | 'threads' | 'inputs' | 'outputs' | 'output'> & {
  /** SHA-256 of the .onnx bytes: the model part of every cache key. */
  sha256: string;
};

export interface ScoredReply {
  kind: 'scored';
  jobId: number;
  /** Row-major [rows, numLabels] (rows: the dataset's, or the sample's in its order). */
  logits: Float32Array;
  status: Uint8Array;
  truncated: Uint8Array;
  errors: [number, string][];
  truncatedCount: number;
  cachedCount: number;
  inferredCount: number;
  batches: number;
  cancelled: boolean;
  elapsedMs: number;
}

/** Model worker → main thread. */
export type ModelReply =
  | ({ kind: 'loaded' } & LoadedModelInfo)
  /** `unavailable`: the provider cannot run here at all (no WebGPU adapter): the client falls back to WASM. */
  | { kind: 'load-failed'; message: string; unavailable: boolean }
  | { kind: 'dataset-loaded'; datasetId: string; rows: number }
  | { kind: 'dataset-failed'; datasetId: string; message: string }
  | { kind: 'progress'; jobId: number; done: number; total: number; cached: number }
  | ScoredReply
  | { kind: 'score-failed'; jobId: number; message: string };
