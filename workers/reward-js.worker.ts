/// <reference lib="webworker" />
import { compileReward, type CompileResult } from '../src/core/reward/compile';
import { runRows } from '../src/core/reward/runRows';
import type { TokenCounter } from '../src/core/tokenize/tokenizers';
import { lockDownNetwork } from '../src/runtime/lockDown';
import { watchViews, type RewardReply, type RewardRequest } from '../src/runtime/rewardProtocol';
import { loadTokenCounter } from '../src/runtime/tokenizerLoader';
import { WorkerRows } from '../src/runtime/workerRows';

declare const self: DedicatedWorkerGlobalScope;
// Kept before the lock-down, in this module's scope where reward code cannot reach it: only the tokenizer assets
// of the app's own origin are fetched with it.
const ownFetch = self.fetch.bind(self);
lockDownNetwork(self);

let watch: ReturnType<typeof watchViews> | null = null;
const data = new WorkerRows();
let compiled: { code: string; result: CompileResult } | null = null;
const post = (m: RewardReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);
const rowAt = (i: number) => data.rows[i];

/** Tasks run one after another in the order they came (the pool matches replies to its tasks in that order). */
let tasks: Promise<void> = Promise.resolve();
const fail = (taskId: number, e: unknown) => post({ kind: 'failed', taskId, message: e instanceof Error ? e.message : String(e) });

self.onmessage = async (ev: MessageEvent<RewardRequest>) => {
  const m = ev.data;
  if (m.kind === 'init') {
    watch = m.watch ? watchViews(m.watch) : null;
  } else if (m.kind === 'load') {
    try {
      await data.load(m);
      post({ kind: 'loaded', datasetId: data.datasetId, rows: data.size });
    } catch (e) {
      post({ kind: 'load-failed', datasetId: m.datasetId, message: e instanceof Error ? e.message : String(e) });
    }
  } else if (m.kind === 'idle') {
    // Between runs: the rows of its block it does not hold yet (a failure leaves them to the next run's tasks).
    tasks = tasks.then(() => data.ensure(...m.block)).catch(() => undefined);
  } else if (m.kind === 'run') {
    tasks = tasks.then(() => run(m)).catch((e: unknown) => fail(m.taskId, e));
  }
};

async function run(m: Extract<RewardRequest, { kind: 'run' }>): Promise<void> {
  let tokenCount: TokenCounter | undefined;
  try {
    if (m.tokenizer) tokenCount = await loadTokenCounter(m.tokenizer, ownFetch);
    // The task's rows, read from the file the first time a task needs them.
    await data.ensureFor(m.datasetId, m.start, m.end);
  } catch (e) {
    return fail(m.taskId, e);
  }
  if (compiled?.code !== m.code) compiled = { code: m.code, result: compileReward(m.code) };
  const c = compiled.result;
  if (!c.ok) return post({ kind: 'compile-error', taskId: m.taskId, message: c.message, line: c.line });
  const w = watch;
  const models = m.models ? { columns: m.models, offset: m.start } : undefined;
  const result = runRows(c.fn, rowAt, m.start, m.end, w ? (row) => void (w.row[0] = row) : undefined, tokenCount, models);
  if (w) Atomics.store(w.row, 0, -1);
  const transfer: Transferable[] = [result.scores.buffer, result.status.buffer, ...Object.values(result.components).map((a) => a.buffer)];
  post({ kind: 'result', taskId: m.taskId, result }, transfer);
}
