/** Sessions and runs for the session store's unit tests: one shape, each test naming only what it changes. */
import type { SessionDoc } from '../core/session/schema';
import type { StoredRun } from './sessionDb';

type DocChanges = Partial<Omit<SessionDoc, 'editor'>> & { editor?: Partial<SessionDoc['editor']> };

export function testDoc(id: string, { editor, ...rest }: DocChanges = {}): SessionDoc {
  return {
    v: 1,
    id,
    name: `session ${id}`,
    createdAt: 1,
    updatedAt: 100,
    editor: {
      language: 'ts',
      code: { ts: 'export default () => 1', py: '' },
      tokenizer: 'gpt2',
      timeLimitMs: 1000,
      pyFunction: null,
      pyBatchSize: 32,
      ...editor,
    },
    ui: { diagTab: 'distribution', lengthUnit: 'chars', preset: 'trl', labelColumn: null, selectedRow: null },
    data: { kind: 'demo' },
    dataVersion: 1,
    runs: [],
    currentRunId: null,
    origin: null,
    ...rest,
  };
}

/** A run whose every row scored `scores` (its summary follows from them). */
export function testRun(sessionId: string, id: number, { dataVersion = 1, scores = [0, 1] }: { dataVersion?: number; scores?: number[] } = {}): StoredRun {
  const n = scores.length;
  return {
    sessionId,
    id,
    dataVersion,
    meta: {
      id,
      code: 'x',
      language: 'ts',
      startedAt: id,
      elapsedMs: 1,
      cancelled: false,
      summary: { rows: n, ok: n, nulls: 0, errors: 0, timedOut: 0, pending: 0, mean: scores.reduce((a, b) => a + b, 0) / n },
    },
    payload: { scores: Float64Array.from(scores), status: new Uint8Array(n).fill(1), components: {}, errors: [], notes: [], stdout: '' },
  };
}
