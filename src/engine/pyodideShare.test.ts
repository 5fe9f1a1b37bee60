/** The sandbox's in-memory Pyodide snapshot: who is asked to take it, what is taken, and what reaches the engine. */
import { describe, expect, it } from 'vitest';
import type { WorkerStart } from './browser';
import type { WorkerPort } from './engine';
import { PyodideShare } from './pyodideShare';

/** Fake workers: each records how it was started; `say` delivers a message from it as its port would. */
function pool() {
  const started: { start: WorkerStart; port: WorkerPort; terminated: boolean }[] = [];
  const share = new PyodideShare((start) => {
    const w = { start, terminated: false, port: null as unknown as WorkerPort };
    w.port = { post: () => undefined, onMessage: null, onExit: null, onStray: null, terminate: () => void (w.terminated = true) };
    started.push(w);
    return w.port;
  });
  /** The engine's view of a spawned port: what it hears. */
  const spawn = () => {
    const port = share.spawn();
    const heard: unknown[] = [];
    port.onMessage = (m) => heard.push(m);
    return { port, heard, inner: started[started.length - 1].port };
  };
  return { share, started, spawn };
}

const SNAP = new Uint8Array([1, 2, 3]);

describe('PyodideShare', () => {
  it('the first worker takes the snapshot; its message is kept from the engine; later workers start from it', () => {
    const { share, started, spawn } = pool();
    const maker = spawn();
    const second = spawn();
    expect(started.map((w) => w.start)).toEqual([{ makeSnapshot: true }, {}]);
    maker.inner.onMessage?.({ kind: 'loaded', datasetId: 'd', rows: 3 });
    maker.inner.onMessage?.({ kind: 'pyodide-snapshot', bytes: SNAP });
    expect(maker.heard).toEqual([{ kind: 'loaded', datasetId: 'd', rows: 3 }]);
    expect(share.ready).toBe(true);
    spawn();
    expect(started[2].start).toEqual({ pyodideSnapshot: SNAP });
    expect(second.heard).toEqual([]);
  });

  it('a second snapshot message from the maker, or one from any other worker, goes to the engine (which refuses it)', () => {
    const { share, started, spawn } = pool();
    const maker = spawn();
    const other = spawn();
    const forged = { kind: 'pyodide-snapshot', bytes: new Uint8Array([6, 6, 6]) };
    other.inner.onMessage?.(forged);
    expect(other.heard).toEqual([forged]);
    expect(share.ready).toBe(false);
    maker.inner.onMessage?.({ kind: 'pyodide-snapshot', bytes: SNAP });
    maker.inner.onMessage?.(forged);
    expect(maker.heard).toEqual([forged]);
    spawn();
    expect(started[2].start).toEqual({ pyodideSnapshot: SNAP });
  });

  it('a maker that could not take one: later workers start the usual way, and none is asked again', () => {
    const { share, started, spawn } = pool();
    spawn().inner.onMessage?.({ kind: 'pyodide-snapshot', bytes: null });
    spawn();
    spawn().inner.onMessage?.({ kind: 'pyodide-snapshot', bytes: 'not bytes' });
    expect(share.ready).toBe(false);
    expect(started.map((w) => w.start)).toEqual([{ makeSnapshot: true }, {}, {}]);
  });

  it('a maker that stops or is terminated before it posts: the next worker is asked', () => {
    const { started, spawn } = pool();
    const exits: string[] = [];
    const a = spawn();
    a.port.onExit = (why) => exits.push(why);
    a.inner.onExit?.('out of memory');
    expect(exits).toEqual(['out of memory']);
    const b = spawn();
    b.port.terminate();
    expect(started[1].terminated).toBe(true);
    spawn();
    expect(started.map((w) => w.start)).toEqual([{ makeSnapshot: true }, { makeSnapshot: true }, { makeSnapshot: true }]);
  });
});
