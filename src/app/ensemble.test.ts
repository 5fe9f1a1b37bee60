import { describe, expect, it } from 'vitest';
import { RowStatus } from '../core/reward/contract';
import type { ModelEntry } from '../store/modelsSlice';
import { ensembleAsRun, ensembleKindOf, ensembleOf, ensembleSourceId } from './ensemble';

/** A model that has scored dataset `d` with one logit per row (NaN: not scored). */
const scored = (id: string, logits: number[], datasetId = 'd'): ModelEntry =>
  ({
    id,
    label: 0,
    scores: { datasetId, logits: Float32Array.from(logits), numLabels: 1, status: new Uint8Array(logits.length).fill(RowStatus.Ok), errors: new Map() },
  }) as unknown as ModelEntry;

describe('app/ensemble', () => {
  it('source ids: "ensemble:<kind>", anything else is not an ensemble column', () => {
    expect(ensembleSourceId('std')).toBe('ensemble:std');
    expect(ensembleKindOf('ensemble:min')).toBe('min');
    expect(ensembleKindOf('ensemble:max')).toBeNull();
    expect(ensembleKindOf('tiny_reward')).toBeNull();
    expect(ensembleKindOf(null)).toBeNull();
  });

  it('only models that scored the loaded dataset take part, and only two or more make an ensemble', () => {
    const a = scored('a', [1, 2, NaN]);
    const b = scored('b', [3, 2, 5]);
    expect(ensembleOf([a, scored('other', [0, 0, 0], 'elsewhere')], 'd')).toBeNull();
    const e = ensembleOf([a, b, scored('other', [0, 0, 0], 'elsewhere')], 'd')!;
    expect(e.names).toEqual(['a', 'b']);
    // row 0: mean 2, min 1, std 1; row 1: 2, 2, 0; row 2: a did not score it
    expect(Array.from(e.rows.std)).toEqual([1, 0, NaN]);
    expect(ensembleOf([a, b], 'd')).toBe(e); // memoized on the same columns
  });

  it('as a run: rows some model did not score are errors that say so', () => {
    const e = ensembleOf([scored('a', [1, 2, NaN]), scored('b', [3, 2, 5])], 'd')!;
    const run = ensembleAsRun(e, 'min', 'd');
    expect(Array.from(run.result.scores)).toEqual([1, 2, NaN]);
    expect(Array.from(run.result.status)).toEqual([RowStatus.Ok, RowStatus.Ok, RowStatus.Error]);
    expect(run.result.errors.get(2)?.message).toBe('not scored by every model (a, b)');
    expect([run.summary.ok, run.summary.errors, run.summary.mean]).toEqual([2, 1, 1.5]);
  });
});
