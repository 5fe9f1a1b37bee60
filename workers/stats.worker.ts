/// <reference lib="webworker" />
// The diagnostics tabs' statistics on large data (app/figures); its loop lives in src/worker/statsWorker.ts.
import { serveStatsWorker } from '../src/worker/statsWorker';

declare const self: DedicatedWorkerGlobalScope;
serveStatsWorker(self);
