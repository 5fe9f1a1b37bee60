/**
 * A reward worker thread of the CLI: the Node twin of `workers/reward-js.worker.ts`. It compiles the reward, reads
 * the data file itself with the browser's import (`loadAll`), then scores the row ranges it is sent with `runRows`,
 * publishing the row it is on in the shared watch slot so the pool can time a stuck row out from outside.
 */
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { loadAll } from '../core/dataset/loadAll';
import { compileReward, type RewardFn } from '../core/reward/compile';
import { runRows } from '../core/reward/runRows';
import type { TokenCounter } from '../core/tokenize/tokenizers';
import type { Trajectory } from '../core/trajectory';
import { lockDownNetwork } from '../runtime/lockDown';
import { labelValue } from './args';
import { WATCH_COMPILING, WATCH_IDLE, type DatasetMeta, type FromWorker, type ToWorker, type WorkerSetup } from './protocol';

export function runWorker(): void {
  const port = parentPort;
  if (!port) throw new Error('runWorker: not in a worker thread');
  const setup = workerData as WorkerSetup;
  const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const watch = new Int32Array(setup.watch, 0, 1);
  const ownOpenAsBlob = openAsBlob;
  // As in the browser's reward workers: reward code gets no network APIs, so a reward behaves the same in both.
  // (This is parity, not a sandbox: the CLI runs the user's own reward file, like `node reward.js` would.)
  lockDownNetwork(globalThis);

  let fn: RewardFn | null = null;
  let rows: Trajectory[] = [];
  let tokenCount: TokenCounter | undefined;

  const ready = (async (): Promise<boolean> => {
    // Compile first: a syntax error is reported before the (possibly large) file is read. The module's top-level
    // code runs here, so it is watched like a row.
    Atomics.store(watch, 0, WATCH_COMPILING);
    const c = compileReward(setup.code);
    Atomics.store(watch, 0, WATCH_IDLE);
    if (!c.ok) {
      post({ kind: 'compile-error', message: c.message, line: c.line });
      return false;
    }
    fn = c.fn;
    try {
      // Imported only when asked for: the tokenizer library and its 2–11 MB of JSON.
      if (setup.tokenizer) tokenCount = (await import('./tokenizer')).loadTokenCounterNode(setup.tokenizer);
    } catch (e) {
      post({ kind: 'setup-failed', message: e instanceof Error ? e.message : String(e) });
      return false;
    }
    try {
      const blob = await ownOpenAsBlob(setup.dataPath);
      const loaded = await loadAll({ name: basename(setup.dataPath), blob }, { format: setup.format ?? undefined, mapping: setup.mapping ?? undefined });
      rows = loaded.rows;
      if (setup.sendMeta) {
        const meta = metaOf(loaded.rows, loaded.issues, loaded.detection, setup.label);
        const transfer = [meta.groupOf.buffer, meta.lengths.buffer] as ArrayBuffer[];
        if (meta.labels) transfer.push(meta.labels.buffer as ArrayBuffer);
        post({ kind: 'meta', meta }, transfer);
      }
    } catch (e) {
      post({ kind: 'load-failed', message: e instanceof Error ? e.message : String(e) });
      return false;
    }
    post({ kind: 'ready', rows: rows.length });
    return true;
  })();

  const rowAt = (i: number) => rows[i];
  const onRow = (row: number) => void (watch[0] = row);
  port.on('message', async (m: ToWorker) => {
    // Runs that arrive while the file loads wait here and resume in the order they came.
    if (!(await ready) || !fn) return;
    if (m.kind !== 'run') return;
    if (m.end > rows.length) return post({ kind: 'failed', taskId: m.taskId, message: `rows ${m.start}–${m.end} asked of a file of ${rows.length} rows` });
    const result = runRows(fn, rowAt, m.start, m.end, onRow, tokenCount);
    Atomics.store(watch, 0, WATCH_IDLE);
    const transfer = [result.scores.buffer, result.status.buffer, ...Object.values(result.components).map((a) => a.buffer)] as ArrayBuffer[];
    post({ kind: 'result', taskId: m.taskId, result }, transfer);
  });
}

/** Group indexes (first-seen order), completion lengths and labels of the rows. */
export function metaOf(rows: Trajectory[], issues: DatasetMeta['issues'], detection: DatasetMeta['detection'], label: string | null): DatasetMeta {
  const n = rows.length;
  const groupOf = new Int32Array(n);
  const index = new Map<string, number>();
  const groupKeys: string[] = [];
  const lengths = new Float64Array(n);
  const labels = label === null ? null : new Float64Array(n);
  let labelPresent = 0;
  for (let i = 0; i < n; i++) {
    const t = rows[i];
    let g = index.get(t.group);
    if (g === undefined) {
      g = groupKeys.length;
      index.set(t.group, g);
      groupKeys.push(t.group);
    }
    groupOf[i] = g;
    lengths[i] = t.completion.length;
    if (labels && label !== null) {
      const v = Object.hasOwn(t.fields, label) ? t.fields[label] : undefined;
      if (v !== undefined) labelPresent++;
      labels[i] = labelValue(v);
    }
  }
  return { rows: n, issues, detection, groupOf, groupKeys, lengths, labels, labelPresent };
}
