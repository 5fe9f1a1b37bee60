/**
 * One Pyodide memory snapshot per reward sandbox, kept in memory: the first Python worker takes it right after its
 * own Pyodide has started, before anything of a reward or a dataset has reached its Python, and every later Python
 * worker (a spare for an edit, a replacement) starts from it: ~0.3 s of a core against 2–3 s (bench/README,
 * session 28). Nothing is written anywhere; a new sandbox takes a new one.
 */
import type { WorkerStart } from './browser';
import type { WorkerPort } from './engine';

/** The maker's message, posted before its Pyodide serves anything (null: it could not take one). */
export interface SnapshotMessage {
  kind: 'pyodide-snapshot';
  bytes: Uint8Array | null;
}

/** Larger than any snapshot of the shipped Pyodide (~31 MB): a message past it is not one. */
const MAX_BYTES = 512 * 1024 * 1024;

function isSnapshot(m: unknown): m is SnapshotMessage {
  return typeof m === 'object' && m !== null && (m as { kind?: unknown }).kind === 'pyodide-snapshot';
}

export class PyodideShare {
  private bytes: Uint8Array | null = null;
  /** none: nobody asked yet (or the one asked stopped first); asked: a maker is starting; done: taken or failed. */
  private state: 'none' | 'asked' | 'done' = 'none';

  /** `connect`: a fresh Python worker's port, started with `start`. */
  constructor(private readonly connect: (start: WorkerStart) => WorkerPort) {}

  /** Whether later workers start from a snapshot. */
  get ready(): boolean {
    return this.bytes !== null;
  }

  /**
   * A fresh Python worker: from the snapshot once there is one; else the first asked is its maker. Only the maker's
   * first snapshot message is taken (it posts it before its Python runs anything, so no reward can have made it); any
   * other reaches the engine, which refuses it as outside the protocol.
   */
  spawn(): WorkerPort {
    if (this.bytes) return this.connect({ pyodideSnapshot: this.bytes });
    if (this.state !== 'none') return this.connect({});
    this.state = 'asked';
    const inner = this.connect({ makeSnapshot: true });
    let waiting = true;
    const gone = () => {
      if (!waiting) return;
      waiting = false;
      this.state = 'none';
    };
    const outer: WorkerPort = {
      post: (m, transfer) => inner.post(m, transfer),
      terminate: () => {
        gone();
        inner.terminate();
      },
      onMessage: null,
      onExit: null,
      onStray: null,
    };
    inner.onMessage = (m) => {
      if (!(waiting && isSnapshot(m))) return outer.onMessage?.(m);
      waiting = false;
      this.state = 'done';
      const b = m.bytes;
      if (b instanceof Uint8Array && b.byteLength > 0 && b.byteLength <= MAX_BYTES) this.bytes = b;
    };
    inner.onExit = (why) => {
      gone();
      outer.onExit?.(why);
    };
    inner.onStray = (m) => outer.onStray?.(m);
    return outer;
  }
}
