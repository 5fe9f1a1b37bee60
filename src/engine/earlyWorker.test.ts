import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { earlyWorker } from './node';

const dir = mkdtempSync(join(tmpdir(), 'early-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A worker module: `stays` keeps it alive and answers pings on the port the engine sends; otherwise it ends at once. */
const workerFile = (name: string, stays: boolean) => {
  const p = join(dir, name);
  writeFileSync(
    p,
    stays
      ? `import { parentPort } from 'node:worker_threads';
parentPort.once('message', (m) => m.port.on('message', (x) => m.port.postMessage({ pong: x })));
setInterval(() => {}, 1000);`
      : 'export {};',
  );
  return pathToFileURL(p);
};

describe('earlyWorker: a reward worker started before its engine', () => {
  it('is taken once, working, and is not terminated by release once taken', async () => {
    const early = earlyWorker(workerFile('stays.mjs', true), 64);
    const port = early.take();
    expect(port).not.toBeNull();
    expect(early.take()).toBeNull();
    early.release();
    const got = await new Promise((resolve) => {
      port!.onMessage = resolve;
      port!.post({ kind: 'ping', id: 1 } as never);
    });
    expect(got).toEqual({ pong: { kind: 'ping', id: 1 } });
    const exited = new Promise((resolve) => (port!.onExit = resolve));
    port!.terminate();
    expect(await exited).toMatch(/exit code/);
  });

  it('is not handed out once it has stopped', async () => {
    const early = earlyWorker(workerFile('ends.mjs', false), 64);
    // An empty module ends within milliseconds; the wait is generous for a loaded machine.
    await new Promise((r) => setTimeout(r, 3000));
    expect(early.take()).toBeNull();
  });

  it('several: each taken once, in turn, of the language asked for; release stops the ones nobody took', async () => {
    const early = earlyWorker(workerFile('stays3.mjs', true), 64, 'py', 3);
    expect(early.language).toBe('py');
    const first = early.take();
    const second = early.take();
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    early.release();
    expect(early.take()).toBeNull();
    for (const port of [first!, second!]) {
      const got = await new Promise((resolve) => {
        port.onMessage = resolve;
        port.post({ kind: 'ping', id: 2 } as never);
      });
      expect(got).toEqual({ pong: { kind: 'ping', id: 2 } });
      port.terminate();
    }
  });

  it('release stops a worker nobody took', async () => {
    const early = earlyWorker(workerFile('stays2.mjs', true), 64);
    early.release();
    expect(early.take()).toBeNull();
  });
});
