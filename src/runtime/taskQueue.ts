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

/** The rows of one run not yet handed to a worker, cut into tasks as workers ask for them. */
export class TaskQueue {
  /** Ranges not handed out, in order (ranges given back by a replaced worker go first). */
  private ranges: Task[];
  /** Rows in `ranges`. */
  private left: number;
  private readonly minTask: number;

  constructor(
    rows: number,
    private readonly workers: number,
  ) {
    this.ranges = rows > 0 ? [{ id: nextTask++, start: 0, end: rows }] : [];
    this.left = rows;
    // A small dataset still gets about eight tasks per worker (a slow Python reward on 800 rows uses every worker).
    this.minTask = Math.max(16, Math.min(MIN_TASK, Math.ceil(rows / (workers * 8))));
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /** The next task (call only when not empty): the head range's first rows. */
  take(): Task {
    const head = this.ranges[0];
    const size = Math.max(this.minTask, Math.min(MAX_TASK, Math.ceil(this.left / (this.workers * SHARE))));
    if (head.end - head.start <= size) {
      this.ranges.shift();
      this.left -= head.end - head.start;
      return head;
    }
    const task = { id: nextTask++, start: head.start, end: head.start + size };
    head.start += size;
    this.left -= size;
    return task;
  }

  /** Hand rows [start, end) out again before anything else (a replaced worker's lost rows). */
  giveBack(start: number, end: number): void {
    if (end <= start) return;
    this.ranges.unshift({ id: nextTask++, start, end });
    this.left += end - start;
  }
}
