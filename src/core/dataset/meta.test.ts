import { describe, expect, it } from 'vitest';
import type { Detection } from '../formats/types';
import type { Trajectory } from '../trajectory';
import { datasetMeta } from './meta';

const detection: Detection = { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: [], gzip: false };
const row = (line: number, fields: Record<string, unknown>, step?: number): Trajectory => ({
  id: String(line),
  index: line - 1,
  line,
  group: 'g',
  prompt: 'p',
  completion: 'abc',
  messages: [],
  fields,
  ...(step === undefined ? {} : { step }),
});

describe('datasetMeta: steps and the truncation column', () => {
  it('records each row step (NaN without one) and what its fields say of truncation (1 / 0 / NaN)', () => {
    const m = datasetMeta(
      [row(1, { finish_reason: 'length' }, 3), row(2, { finish_reason: 'stop' }), row(3, { truncated: true }, 4), row(4, { stop_reason: 42 }, 5)],
      [],
      detection,
      null,
    );
    expect(Array.from(m.steps)).toEqual([3, NaN, 4, 5]);
    expect(Array.from(m.truncated)).toEqual([1, 0, 1, NaN]);
  });
});
