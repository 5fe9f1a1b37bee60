/// <reference lib="webworker" />
// The model worker: its loop lives in src/worker/modelWorker.ts.
import { serveModelWorker } from '../src/worker/modelWorker';

declare const self: DedicatedWorkerGlobalScope;
serveModelWorker(self);
