/** A contiguous range of rows [start, end) handed to one worker. */
export interface Task {
  id: number;
  start: number;
  end: number;
}

/** Tasks queued per worker: enough that it never waits for the main thread, few enough that a replacement re-queues little. */
export const DEPTH = 3;
/** Each task is 1/(workers × SHARE) of the rows left (guided self-scheduling; docs/engine.md). */
export const SHARE = 2 * DEPTH;
/** Bounds on a task's rows: the smallest keeps a run's messages in the tens, the largest caps a re-queue. */
export const MIN_TASK = 1000;
export const MAX_TASK = 20_000;
/**
 * Once a run's speed is known, no task is cut shorter than this many milliseconds of a worker's scoring: a cheap
 * reward's 1,000 rows take well under a millisecond, less than the reply, the wake-ups and the engine's turn they cost.
 */
export const MIN_TASK_MS = 1.5;
/**
 * Once a run's speed is known, a task may hold up to this many milliseconds of a worker's scoring, past MAX_TASK rows:
 * a cheap reward on a million rows otherwise took 70 tasks, each a reply and a post on the sandbox's thread.
 */
export const MAX_TASK_MS = 25;

/**
 * The rows of one run not yet handed out, cut into tasks as workers ask. Each worker takes from the front of its own
 * block, then from the end of the fullest block, so it gets the same rows on every run (docs/engine.md).
 */
export class TaskQueue {
  /** Ranges given back by a replaced worker: handed out first, to any worker. */
  private given: Task[] = [];
  /** Per worker: the rows of its block not handed out yet, [start, end). */
  private blocks: { start: number; end: number }[] = [];
  /** Rows not handed out. */
  private left: number;
  private readonly minRows: number;
  private minTask: number;
  private maxTask = MAX_TASK;
  /** No task has more rows than this (`cap`). */
  private ceiling = Infinity;

  constructor(
    rows: number,
    private readonly workers: number,
    /** Tasks start on multiples of this (a Python batch size): the batches a function sees do not depend on the split. */
    private readonly align = 1,
    /** Task ids, unique across the runs of one engine so a late reply never matches a newer task. */
    private readonly nextId: () => number = counter(),
  ) {
    const w = Math.max(1, Math.floor(workers));
    for (let k = 0; k < w; k++) {
      const [start, end] = TaskQueue.blockOf(k, rows, w, align);
      this.blocks.push({ start, end });
    }
    this.left = Math.max(0, rows);
    // A small dataset still gets about eight tasks per worker (a slow Python reward on 800 rows uses every worker).
    this.minRows = Math.max(16, Math.min(MIN_TASK, Math.ceil(rows / (w * 8))));
    this.minTask = this.minRows;
  }

  /**
   * Tasks cut from now on have at least `rows` rows (at most MAX_TASK; never fewer than the queue's own minimum): the
   * engine passes what a worker scores in MIN_TASK_MS at the run's measured speed.
   */
  atLeast(rows: number): void {
    if (Number.isFinite(rows)) this.minTask = Math.min(this.ceiling, Math.max(this.minRows, Math.min(this.maxTask, Math.floor(rows))));
  }

  /** Tasks cut from now on may have up to `rows` rows (never capped below MAX_TASK): MAX_TASK_MS at the measured speed. */
  upTo(rows: number): void {
    if (Number.isFinite(rows)) this.maxTask = Math.min(this.ceiling, Math.max(MAX_TASK, Math.floor(rows)));
  }

  /** No task cut from now on has more than `rows` rows (rounded up to the alignment), whatever the run's speed. */
  cap(rows: number): void {
    this.ceiling = Math.max(1, Math.floor(rows));
    this.maxTask = Math.min(this.maxTask, this.ceiling);
    this.minTask = Math.min(this.minTask, this.ceiling);
  }

  get empty(): boolean {
    return this.left === 0;
  }

  /** Worker `worker`'s block of `rows` rows among `workers`: the rows it takes first, [start, end). */
  static blockOf(worker: number, rows: number, workers: number, align = 1): [number, number] {
    const w = Math.max(1, Math.floor(workers));
    const k = worker % w;
    const units = Math.ceil(rows / align);
    return [Math.min(rows, Math.floor((k * units) / w) * align), Math.min(rows, Math.floor(((k + 1) * units) / w) * align)];
  }

  /**
   * The last rows of every block but worker `worker`'s, 1 / TAIL_SHARE of each: what it takes when its own block is
   * done first (`take` steals from the end of the fullest block), so it may read them before a run needs them.
   */
  static tailsOf(worker: number, rows: number, workers: number, align = 1): [number, number][] {
    const w = Math.max(1, Math.floor(workers));
    const tails: [number, number][] = [];
    for (let j = 0; j < w; j++) {
      if (j === worker % w) continue;
      const [start, end] = TaskQueue.blockOf(j, rows, w, align);
      const from = Math.max(start, Math.floor((end - Math.ceil((end - start) / TAIL_SHARE)) / align) * align);
      if (from < end) tails.push([from, end]);
    }
    return tails;
  }

  /** The next task for worker `worker` (0 ≤ worker < workers; call only when not empty). */
  take(worker = 0): Task {
    const raw = Math.max(this.minTask, Math.min(this.maxTask, Math.ceil(this.left / (this.workers * SHARE))));
    const size = Math.ceil(raw / this.align) * this.align;
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
    const start = Math.max(most.start, Math.floor((most.end - size) / this.align) * this.align);
    const task = { id: this.nextId(), start, end: most.end };
    this.left -= most.end - start;
    most.end = start;
    return task;
  }

  /** The first `size` rows of `range` (all if fewer), taken off it. */
  private front(range: { start: number; end: number }, size: number): Task {
    const end = Math.min(range.end, range.start + size);
    const task = { id: this.nextId(), start: range.start, end };
    this.left -= end - range.start;
    range.start = end;
    return task;
  }

  /** Hand rows [start, end) out again before anything else (a replaced worker's lost rows). */
  giveBack(start: number, end: number): void {
    if (end <= start) return;
    this.given.unshift({ id: this.nextId(), start, end });
    this.left += end - start;
  }
}

/**
 * A block's tail is this share of it (`tailsOf`): at a million rows on 2 cores, the rows a worker took from the
 * other's block in an edit run were read at that run's end, 40–140 ms of a ~250 ms run (bench/README.md, session 24).
 */
const TAIL_SHARE = 8;

/** Ids 1, 2, 3, … */
export function counter(): () => number {
  let n = 0;
  return () => ++n;
}
