import { describe, expect, it } from 'vitest';
import { buffersIn, serveStatsWorker, type StatsReply, type StatsRequest } from './statsWorker';

/** The worker's loop on a fake scope: what it posts, and what it transfers. */
function serve() {
  const posted: { m: StatsReply; transfer: Transferable[] }[] = [];
  const scope = {
    onmessage: null as ((ev: MessageEvent<StatsRequest>) => void) | null,
    postMessage: (m: StatsReply, transfer: Transferable[]) => posted.push({ m, transfer }),
  };
  serveStatsWorker(scope as unknown as Parameters<typeof serveStatsWorker>[0]);
  const send = (req: StatsRequest) => scope.onmessage!({ data: req } as MessageEvent<StatsRequest>);
  return { posted, send };
}

describe('the stats worker', () => {
  it('answers a job with its figures under the job’s id, and transfers their arrays', () => {
    const { posted, send } = serve();
    send({
      id: 7,
      job: { kind: 'collapse', values: new Float64Array([1, 1, 0, 1]), groupOf: new Int32Array([0, 0, 1, 1]), groupCount: 2, preset: 'trl', steps: null },
    });
    expect(posted).toHaveLength(1);
    const { m, transfer } = posted[0];
    expect(m.id).toBe(7);
    if (!('figures' in m)) throw new Error('no figures');
    const f = m.figures as { collapse: { zeroStdGroupFraction: number; collapsedGroups: Int32Array }; advantages: Float64Array };
    expect(f.collapse.zeroStdGroupFraction).toBe(0.5);
    expect(transfer).toContain(f.advantages.buffer);
    expect(transfer).toContain(f.collapse.collapsedGroups.buffer);
  });

  it('answers a job that throws with its error', () => {
    const { posted, send } = serve();
    send({ id: 3, job: { kind: 'compare', a: new Float64Array([1, 2]), b: new Float64Array([1]) } });
    expect(posted[0].m.id).toBe(3);
    expect('error' in posted[0].m && posted[0].m.error).toMatch(/length/);
    expect(posted[0].transfer).toEqual([]);
  });

  it('lists each buffer once, and none of plain numbers', () => {
    const a = new Float64Array(4);
    expect(buffersIn({ x: a, y: { z: a.subarray(1), w: new Int32Array(2) }, n: 3, list: [1, 2] })).toHaveLength(2);
    expect(buffersIn({ n: 1 })).toEqual([]);
  });
});
