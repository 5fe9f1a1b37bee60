/** A contiguous range of rows [start, end) handed to one worker; ids are unique across runs. */
export interface Task {
  id: number;
  start: number;
  end: number;
}

let nextTask = 1;

/**
 * Tasks queued per worker: the one running and the next ones, so a worker never waits for the main thread between
 * tasks even when the page is busy for a few milliseconds, and few enough that a replaced worker re-queues little.
 */
export const DEPTH = 3;
/**
 * Each task is 1/(workers × SHARE) of the rows not handed out yet (guided self-scheduling): tasks start large (few
 * messages) and shrink towards the end, and a worker that runs slower (a busier core, slower rows) simply takes
 * fewer of them, so every worker finishes within about one small task of the others. With DEPTH tasks queued, a
 * worker holds at most about half its fair share of the rest at any time.
 */
export const SHARE = 2 * DEPTH;
/** Bounds on a task's rows: the smallest keeps a run's messages in the tens, the largest caps a re-queue. */
export const MIN_TASK = 1000;
export const MAX_TASK = 20_000;

/**
 * The rows of one run not yet handed to a worker, cut into tasks as workers ask for them.
 *
 * The rows are first split into one contiguous block per worker, and each worker takes its tasks from the front of
 * its own block; a worker whose block is used up takes tasks from the end of the block with the most rows left.
 * So a worker gets about the same rows on every run of a dataset: it reads from a JSONL file only the rows it runs
 * (WorkerRows), and a Python worker keeps the rows it has moved into its interpreter and makes fresh argument copies
 * ahead of the next run for the rows it ran (runPython's `datasetKey`, `preparePython`). Handed out in one stream instead, the rows of a run went to whichever
 * worker asked first, and a second run moved most rows into the other interpreter again.
 */
export class TaskQueue {
  /** Ranges given back by a replaced worker: handed out first, to any worker. */
  private given: Task[] = [];
  /** Per worker: the rows of its block not handed out yet, [start, end). */
  private blocks: { start: number; end: number }[] = [];
  /** Rows not handed out. */
  private left: number;
  private readonly minTask: number;

  constructor(
    rows: number,
    private readonly workers: number,
  ) {
    const w = Math.max(1, Math.floor(workers));
    for (let k = 0; k < w; k++) {
      const [start, end] = TaskQueue.blockOf(k, rows, w);
      this.blocks.push({ start, end });
    }
    this.left = Math.max(0, rows);
    // A small dataset still gets about eight tasks per worker (a slow Python reward on 800 rows uses every worker).
    this.minTask = Math.max(16, Math.min(MIN_TASK, Math.ceil(rows / (w * 8))));
  }

  get empty(): boolean {
    return this.left === 0;
  }

  /** Worker `worker`'s block of `rows` rows among `workers`: the rows it takes first, [start, end). */
  static blockOf(worker: number, rows: number, workers: number): [number, number] {
    const w = Math.max(1, Math.floor(workers));
    const k = worker % w;
    return [Math.floor((k * rows) / w), Math.floor(((k + 1) * rows) / w)];
  }

  /** The next task for worker `worker` (0 ≤ worker < workers; call only when not empty). */
  take(worker = 0): Task {
    const size = Math.max(this.minTask, Math.min(MAX_TASK, Math.ceil(this.left / (this.workers * SHARE))));
    const head = this.given[0];
    if (head) {
      const task = this.front(head, size);
      if (head.start === head.end) this.given.shift();
      return task;
    }
    const own = this.blocks[worker % this.blocks.length];
    if (own.end > own.start) return this.front(own, size);
    // Its block is done: the end of the block with the most rows left (the first such block on a tie).
    let most = this.blocks[0];
    for (const b of this.blocks) if (b.end - b.start > most.end - most.start) most = b;
    const start = Math.max(most.start, most.end - size);
    const task = { id: nextTask++, start, end: most.end };
    this.left -= most.end - start;
    most.end = start;
    return task;
  }

  /** The first `size` rows of `range` (all if fewer), taken off it. */
  private front(range: { start: number; end: number }, size: number): Task {
    const end = Math.min(range.end, range.start + size);
    const task = { id: nextTask++, start: range.start, end };
    this.left -= end - range.start;
    range.start = end;
    return task;
  }

  /** Hand rows [start, end) out again before anything else (a replaced worker's lost rows). */
  giveBack(start: number, end: number): void {
    if (end <= start) return;
    this.given.unshift({ id: nextTask++, start, end });
    this.left += end - start;
  }
}
