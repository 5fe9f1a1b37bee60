/** The worker's end of a browser reward worker's channel: what it takes from the engine's first message. */
import { describe, expect, it } from 'vitest';
import { browserChannel } from './browser';

function connect(start: unknown) {
  const scope = new EventTarget();
  const ch = browserChannel(scope as unknown as DedicatedWorkerGlobalScope);
  const { port1, port2 } = new MessageChannel();
  scope.dispatchEvent(new MessageEvent('message', { data: { kind: 'connect', start }, ports: [port2] }));
  port1.close();
  return ch.started;
}

describe('browserChannel: how the worker is told to start', () => {
  it('a snapshot (bytes) and the ask to take one pass; anything else is dropped', async () => {
    const snap = new Uint8Array([1, 2]);
    expect(await connect({ pyodideSnapshot: snap, makeSnapshot: true, extra: 1 })).toEqual({ pyodideSnapshot: snap, makeSnapshot: true });
    expect(await connect({ pyodideSnapshot: [1, 2], makeSnapshot: 'yes' })).toEqual({});
    expect(await connect(undefined)).toEqual({});
  });
});
