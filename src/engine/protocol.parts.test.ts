// A dataset of several files crosses two boundaries: page → sandbox (checkToFrame) and engine → worker
// (checkToWorker). Both refuse what does not fit, naming the place.
import { describe, expect, it } from 'vitest';
import { PART_LIMIT } from '../core/dataset/parts';
import { checkToFrame } from './frameProtocol';
import { checkToWorker } from './protocol';

const part = (extra: Record<string, unknown> = {}) => ({ blob: new Blob(['{}\n']), name: '1.jsonl', step: 1, ...extra });
const load = (parts: unknown) => ({ kind: 'load', file: { datasetId: 'd', name: 'run', parts } });
const frame = (parts: unknown) => ({ kind: 'dataset', pool: 'ts', ds: { size: 1, file: { datasetId: 'd', name: 'run', parts } }, load: true });
const error = (c: { ok: boolean; error?: string }) => (c.ok ? 'ok' : c.error);

describe('a dataset of several files at the worker and frame boundaries', () => {
  it('passes well-formed parts: blobs (both), paths (workers only), steps null or finite, fitting line indexes', () => {
    const index = { spans: new Float64Array(2), lines: new Int32Array(1) };
    const good = [part(), part({ name: 'b.jsonl', step: null, index }), part({ name: 'c.csv', rows: 3 })];
    expect(error(checkToWorker(load(good)))).toBe('ok');
    expect(error(checkToFrame(frame(good), () => undefined))).toBe('ok');
    expect(error(checkToWorker(load([{ path: '/data/2.jsonl', name: '2.jsonl', step: 2 }])))).toBe('ok');
    expect(error(checkToFrame(frame([{ path: '/data/2.jsonl', name: '2.jsonl', step: 2 }]), () => undefined))).toBe('ds.file.parts.0: expected a Blob');
  });

  it.each([
    ['no parts', [], 'file.parts: expected an array of 1 to 10000 parts'],
    ['too many parts', Array.from({ length: PART_LIMIT + 1 }, () => part()), 'file.parts: expected an array of 1 to 10000 parts'],
    ['a name that is not text', [part({ name: 7 })], 'file.parts.0.name: expected a string'],
    ['a name too long', [part({ name: 'x'.repeat(1001) })], 'file.parts.0.name: expected at most 1000 characters'],
    ['neither blob nor path', [part({ blob: 'bytes' })], 'file.parts.0: expected a blob or a path'],
    ['a step that is not a number', [part({ step: '3' })], 'file.parts.0.step: expected null or a finite number'],
    ['an infinite step', [part({ step: Infinity })], 'file.parts.0.step: expected null or a finite number'],
    [
      'spans that do not fit the lines',
      [part({ index: { spans: new Float64Array(3), lines: new Int32Array(1) } })],
      'file.parts.0.index: expected spans (Float64Array) twice as long as lines (Int32Array)',
    ],
    ['a row count that is negative', [part({ rows: -1 })], 'file.parts.0.rows: expected an integer in [0, Infinity]'],
    ['a row count that is not an integer', [part({ rows: 1.5 })], 'file.parts.0.rows: expected an integer in [0, Infinity]'],
    ['parts that are not an array', { 0: part() }, 'file.parts: expected an array of 1 to 10000 parts'],
  ])('refuses %s', (_, parts, message) => {
    expect(error(checkToWorker(load(parts)))).toBe(message);
    expect(error(checkToFrame(frame(parts), () => undefined))).toBe(message.replace('file.', 'ds.file.').replace('a blob or a path', 'a Blob'));
  });
});

describe("one file's line index and Parquet row numbers at the worker and frame boundaries", () => {
  const blob = new Blob(['{}\n']);
  const one = (extra: Record<string, unknown>) => ({ kind: 'load', file: { datasetId: 'd', name: 'a.jsonl.gz', blob, ...extra } });
  const oneFrame = (extra: Record<string, unknown>) => ({
    kind: 'dataset',
    pool: 'ts',
    ds: { size: 1, file: { datasetId: 'd', name: 'a.jsonl.gz', blob, ...extra } },
    load: true,
  });
  const both = (extra: Record<string, unknown>, message: string) => {
    expect(error(checkToWorker(one(extra)))).toBe(message);
    expect(error(checkToFrame(oneFrame(extra), () => undefined))).toBe(message === 'ok' ? 'ok' : `ds.${message}`);
  };

  it.each([
    ['spans into the file', { spans: new Float64Array(2), lines: new Int32Array(1) }, 'ok'],
    [
      'spans that do not fit the lines',
      { spans: new Float64Array(4), lines: new Int32Array(1) },
      'file.index: expected spans (Float64Array) twice as long as lines (Int32Array)',
    ],
    ['spans as a plain list', { spans: [0, 1], lines: new Int32Array(1) }, 'file.index: expected spans (Float64Array) twice as long as lines (Int32Array)'],
    ['an index that is not an object', 'all of it', 'file.index: expected an object'],
  ])('%s', (_, index, message) => both({ index }, message));

  it.each([
    ['Parquet rows ascending, equal within a record', Int32Array.of(1, 1, 2, 5), 'ok'],
    ['Parquet rows as a plain array', [1, 2], 'file.records: expected an Int32Array'],
    ['a Parquet row 0', Int32Array.of(0, 1), 'file.records.0: expected rows ≥ 1, ascending'],
    ['Parquet rows that go back', Int32Array.of(3, 2), 'file.records.1: expected rows ≥ 1, ascending'],
  ])('%s', (_, records, message) => both({ records }, message));
});

describe('an idle notice at the worker boundary', () => {
  const idle = (extra: Record<string, unknown>) => ({ kind: 'idle', block: [0, 10], ...extra });
  it.each([
    ['a block and tails', { tails: [[20, 30]] }, 'ok'],
    ['no tails', {}, 'ok'],
    ['a block that goes back', { block: [10, 5] }, 'block.1: expected an integer in [10, Infinity]'],
    ['tails that are not a list', { tails: { 0: [1, 2] } }, 'tails: expected an array of at most 256 pairs of rows'],
    ['too many tails', { tails: Array.from({ length: 257 }, () => [0, 1]) }, 'tails: expected an array of at most 256 pairs of rows'],
    ['a tail that is not a pair', { tails: [[1, 2, 3]] }, 'tails.0: expected a pair of rows'],
    ['a negative tail', { tails: [[-1, 2]] }, 'tails.0.0: expected an integer in [0, Infinity]'],
  ])('%s', (_, extra, message) => {
    expect(error(checkToWorker(idle(extra)))).toBe(message);
  });
});
