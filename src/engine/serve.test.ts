// The worker side between runs: an idle notice reads the rows of the worker's block and of the other blocks' tails,
// so that the next run's tasks (its own block, then what it takes from the others' ends) find them read.
import { describe, expect, it } from 'vitest';
import { importPacked } from '../core/dataset/importPacked';
import type { FromWorker, ToWorker } from './protocol';
import { serve, type Runtime } from './serve';
import { REALM_CHANGED } from './harden';

const n = 400;
const text = Array.from({ length: n }, (_, i) => JSON.stringify({ prompt: `Q${i >> 2}`, completion: `A${i}` })).join('\n') + '\n';

async function lineIndex(blob: Blob) {
  const spans: number[] = [];
  const lines: number[] = [];
  let format = '';
  for await (const e of importPacked({ name: 'd.jsonl', blob }, {})) {
    if (e.kind === 'meta') format = e.detection.format;
    if (e.kind === 'batch' && e.spans) {
      spans.push(...e.spans);
      lines.push(...e.batch.line);
    }
  }
  return { format, index: { spans: Float64Array.from(spans), lines: Int32Array.from(lines) } };
}

/** A worker serving a counting blob: every read of the file's bytes is counted; tasks answer with their rows' completions. */
async function worker(sizes?: { readBytes: number; idleStepRows: number }, intact?: () => boolean) {
  let reads = 0;
  // A Blob (the boundary checks that it is one) that counts the reads of its bytes.
  class Counting extends Blob {
    override slice(a?: number, b?: number, type?: string): Blob {
      reads++;
      return super.slice(a, b, type);
    }
  }
  const blob = new Counting([text]);
  const { format, index } = await lineIndex(new Blob([text]));
  let on: (m: unknown) => void = () => undefined;
  const posted: FromWorker[] = [];
  let answered: () => void = () => undefined;
  const seen: string[][] = [];
  let ran = 0;
  const runtime: Runtime = {
    ready: Promise.resolve(),
    check: () => ({ ok: true, candidates: [] }) as never,
    intact,
    run: (task, source) => {
      seen.push(source.rows.slice(task.start, task.end).map((t) => t.completion));
      ran++;
      const m = task.end - task.start;
      return { kind: 'result', result: { start: task.start, scores: new Float64Array(m), status: new Uint8Array(m), errors: [], components: {}, notes: [] } };
    },
  };
  serve(
    {
      post: (m) => {
        posted.push(m);
        answered();
      },
      listen: (f) => (on = f),
    },
    runtime,
    undefined,
    sizes,
  );
  const send = (m: ToWorker) => new Promise<void>((r) => ((answered = r), on(m)));
  await send({ kind: 'load', file: { datasetId: 'd', name: 'd.jsonl', blob, format: format as never, index } });
  return { send, on: (m: ToWorker) => on(m), reads: () => reads, seen, posted, ran: () => ran };
}

const settle = () => new Promise((r) => setTimeout(r, 20));

describe('serve: an idle notice', () => {
  it('reads the block and the tails, so that a task on a tail reads nothing more', async () => {
    const w = await worker();
    expect(w.reads()).toBe(0); // loaded by lines: nothing read yet
    w.on({ kind: 'idle', block: [0, 200], tails: [[350, 400]] });
    await settle();
    const prepared = w.reads();
    expect(prepared).toBeGreaterThan(0);
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 1, start: 360, end: 380 } as ToWorker);
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 2, start: 100, end: 110 } as ToWorker);
    expect(w.reads()).toBe(prepared);
    expect(w.seen).toEqual([Array.from({ length: 20 }, (_, k) => `A${360 + k}`), Array.from({ length: 10 }, (_, k) => `A${100 + k}`)]);
    // A row in neither the block nor a tail is read when a task needs it.
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 3, start: 250, end: 251 } as ToWorker);
    expect(w.reads()).toBeGreaterThan(prepared);
    expect(w.seen[2]).toEqual(['A250']);
  });

  it('gives way to a run that comes while it reads: the run does not wait for the tails', async () => {
    const sizes = { readBytes: 1000, idleStepRows: 50 };
    const idle: ToWorker = { kind: 'idle', block: [0, 200], tails: [[200, 400]] };
    // Alone, the idle work reads the whole file (a dozen reads of 1,000 bytes).
    const alone = await worker(sizes);
    alone.on(idle);
    await settle();
    const all = alone.reads();
    expect(all).toBeGreaterThan(8);
    // A run right after the notice: answered after its own rows' reads, not the idle work's.
    const w = await worker(sizes);
    w.on(idle);
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 1, start: 0, end: 10 } as ToWorker);
    expect(w.reads()).toBeLessThan(4);
    expect(w.seen).toEqual([Array.from({ length: 10 }, (_, k) => `A${k}`)]);
    // The rows stay right: a later task on a tail reads and gives them.
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 2, start: 390, end: 400 } as ToWorker);
    expect(w.seen[1]).toEqual(Array.from({ length: 10 }, (_, k) => `A${390 + k}`));
  });
});

describe('serve: a changed realm (harden.ts)', () => {
  it('a task fails with the reason when the realm was changed before it (nothing runs) or while it ran (its result is dropped)', async () => {
    let changed = false;
    const w = await worker(undefined, () => !changed);
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 1, start: 0, end: 10 } as ToWorker);
    expect(w.posted.at(-1)).toMatchObject({ kind: 'result', taskId: 1 });
    changed = true;
    await w.send({ kind: 'run', datasetId: 'd', code: '', taskId: 2, start: 10, end: 20 } as ToWorker);
    expect(w.posted.at(-1)).toEqual({ kind: 'failed', taskId: 2, message: REALM_CHANGED });
    expect(w.ran()).toBe(1);
    // Changed by the task itself: the check after it.
    let calls = 0;
    const v = await worker(undefined, () => calls++ === 0);
    await v.send({ kind: 'run', datasetId: 'd', code: '', taskId: 3, start: 0, end: 10 } as ToWorker);
    expect(v.ran()).toBe(1);
    expect(v.posted.at(-1)).toEqual({ kind: 'failed', taskId: 3, message: REALM_CHANGED });
  });
});
