/// <reference lib="webworker" />
// The import worker: its loop lives in src/worker/dataWorker.ts.
import { serveDataWorker } from '../src/worker/dataWorker';

declare const self: DedicatedWorkerGlobalScope;
serveDataWorker(self);
