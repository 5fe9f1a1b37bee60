/**
 * The page's side of the sandbox, with a stand-in for the iframe: what reaches the frame's port, in what order. The
 * frame itself (checks, workers) is covered by frameProtocol.test.ts and the browser tests.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineDataset } from './engine';
import { RewardSandbox } from './frameClient';

/** A document whose iframe hands its port over as the real one does on load; the frame's messages land in `got`. */
function fakeFrame() {
  const got: { kind: string; pool?: string; load?: boolean; datasetId?: string }[] = [];
  const doc = {
    createElement: () => {
      let onLoad: (() => void) | null = null;
      const element = {
        style: {},
        setAttribute: () => undefined,
        remove: () => undefined,
        addEventListener: (_: string, f: () => void) => (onLoad = f),
        contentWindow: {
          postMessage: (_m: unknown, _o: string, [port]: [MessagePort]) => {
            port.onmessage = (ev: MessageEvent) => got.push(ev.data as (typeof got)[number]);
          },
        },
        set src(_: string) {
          queueMicrotask(() => onLoad?.());
        },
      };
      return element;
    },
    body: { append: () => undefined },
  };
  vi.stubGlobal('document', doc);
  return got;
}

const ds = { size: 3, file: { datasetId: 'd1' } } as unknown as EngineDataset;
const settle = () => new Promise((r) => setTimeout(r, 20));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RewardSandbox: a dataset not to be read yet', () => {
  it('goes to the frame in a later task, not in the one that set it', async () => {
    const got = fakeFrame();
    const sb = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    sb.pool('ts').setDataset(ds, false);
    // Nothing sent yet in this task: no frame was even started (the message copies the rows' line spans).
    expect((sb as unknown as { frame: unknown }).frame).toBeNull();
    await settle();
    expect(got.map((m) => [m.kind, m.pool, m.load])).toEqual([['dataset', 'ts', false]]);
    sb.dispose();
  });

  it('goes before a run asked for in the same task, and only once', async () => {
    const got = fakeFrame();
    const sb = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    // A sandbox already running (a fresh one learns every dataset before anything else anyway).
    void sb.pool('ts').check('export default () => 1');
    await settle();
    const ds2 = { size: 5, file: { datasetId: 'd2' } } as unknown as EngineDataset;
    sb.pool('ts').setDataset(ds2, false);
    sb.pool('ts').run('export default () => 1');
    await settle();
    expect(got.map((m) => m.kind)).toEqual(['check', 'dataset', 'run']);
    sb.dispose();
  });

  it('goes before a check for its pool; another pool’s dataset still waits for its own task', async () => {
    const got = fakeFrame();
    const sb = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    sb.pool('ts').setDataset(ds, false);
    sb.pool('py').setDataset(ds, false);
    void sb.pool('py').check('def f(): pass');
    await settle();
    // The fresh frame learns every dataset first (the ts one), then py's goes before its check.
    expect(got.map((m) => [m.kind, m.pool])).toEqual([
      ['dataset', 'ts'],
      ['dataset', 'py'],
      ['check', 'py'],
    ]);
    sb.dispose();
  });

  it('a dataset to be read now goes at once; a sandbox closed before the later task sends nothing', async () => {
    const got = fakeFrame();
    const sb = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    sb.pool('ts').setDataset(ds, true);
    expect((sb as unknown as { frame: unknown }).frame).not.toBeNull();
    await settle();
    expect(got.map((m) => [m.kind, m.load])).toEqual([['dataset', true]]);
    sb.dispose();

    const got2 = fakeFrame();
    const sb2 = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    sb2.pool('ts').setDataset(ds, false);
    sb2.dispose();
    await settle();
    expect(got2).toEqual([]);
    expect((sb2 as unknown as { frame: unknown }).frame).toBeNull();
  });
});

describe('RewardSandbox: an edit hint', () => {
  it('starts no sandbox; once one runs, it goes to it with its pool', async () => {
    const got = fakeFrame();
    const sb = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    sb.pool('py').prepareEdit();
    expect((sb as unknown as { frame: unknown }).frame).toBeNull();
    void sb.pool('py').check('def f(): pass');
    sb.pool('py').prepareEdit();
    await settle();
    expect(got.map((m) => [m.kind, m.pool])).toEqual([
      ['check', 'py'],
      ['edit', 'py'],
    ]);
    sb.dispose();
  });
});

describe('RewardSandbox: reading a dataset already sent', () => {
  it('asks the frame to read it by its id instead of sending it (and its line spans) again', async () => {
    const got = fakeFrame();
    const sb = new RewardSandbox({ src: 'sandbox.html', size: 2, onProtocolError: () => undefined });
    sb.pool('ts').setDataset(ds, false);
    await settle();
    // The studio warms the language in use with a fresh object for the same dataset.
    sb.pool('ts').setDataset({ ...ds }, true);
    await settle();
    expect(got.map((m) => [m.kind, m.load ?? m.datasetId])).toEqual([
      ['dataset', false],
      ['load', 'd1'],
    ]);
    // Another dataset, or one still waiting to go, is sent whole.
    const ds2 = { size: 5, file: { datasetId: 'd2' } } as unknown as EngineDataset;
    sb.pool('ts').setDataset(ds2, true);
    sb.pool('py').setDataset(ds, false);
    sb.pool('py').setDataset(ds, true);
    await settle();
    expect(got.slice(2).map((m) => [m.kind, m.pool, m.load])).toEqual([
      ['dataset', 'ts', true],
      ['dataset', 'py', true],
    ]);
    sb.dispose();
  });
});
