/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { importStream } from '../src/core/formats';
import { ImportError } from '../src/core/formats/types';
import type { ImportWorkerApi } from '../src/runtime/importProtocol';

const running = new Map<number, AbortController>();

const api: ImportWorkerApi = {
  async run(jobId, blob, name, opts, onEvent) {
    const abort = new AbortController();
    running.set(jobId, abort);
    try {
      for await (const event of importStream({ name, blob }, { ...opts, signal: abort.signal })) {
        // Awaiting the callback paces the worker to the main thread, so batches never pile up in its queue.
        await onEvent(event);
      }
      return { ok: true, value: null };
    } catch (e) {
      if (e instanceof ImportError) return { ok: false, error: { code: e.code, message: e.message, detail: e.detail } };
      return { ok: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } };
    } finally {
      running.delete(jobId);
    }
  },
  cancel(jobId) {
    running.get(jobId)?.abort();
  },
};

Comlink.expose(api);
