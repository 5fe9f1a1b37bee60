/// <reference lib="webworker" />
import { figuresOf, type FigureJob } from '../core/stats/figures';

export interface StatsRequest {
  id: number;
  job: FigureJob;
}
export type StatsReply = { id: number; figures: unknown } | { id: number; error: string };

/** The typed arrays' buffers in a figures object (transferred back, not copied), each once. */
export function buffersIn(x: unknown, out = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (ArrayBuffer.isView(x)) {
    if (x.buffer instanceof ArrayBuffer) out.add(x.buffer);
  } else if (x !== null && typeof x === 'object' && depth < 3) {
    for (const v of Object.values(x)) if (v !== null && typeof v === 'object' && !Array.isArray(v)) buffersIn(v, out, depth + 1);
  }
  return [...out];
}

/** The stats worker's loop (workers/stats.worker.ts wires it to its scope): one job, one reply, in order. */
export function serveStatsWorker(
  self: Pick<DedicatedWorkerGlobalScope, 'postMessage'> & { onmessage: ((ev: MessageEvent<StatsRequest>) => void) | null },
): void {
  self.onmessage = (ev) => {
    const { id, job } = ev.data;
    let reply: StatsReply;
    try {
      reply = { id, figures: figuresOf(job) };
    } catch (e) {
      reply = { id, error: e instanceof Error ? e.message : String(e) };
    }
    self.postMessage(reply, 'figures' in reply ? buffersIn(reply.figures) : []);
  };
}
