import { describe, expect, it } from 'vitest';
import { checkFromWorker, checkToWorker } from './protocol';

/** A worker's answer to a `piece`: two rows of one group, with their line index. */
const pieceRead = (index: { spans: unknown; lines: unknown }) => ({
  kind: 'piece-read',
  datasetId: 'cli',
  meta: {
    rows: 2,
    issues: [{ line: 11, reason: 'not JSON' }],
    detection: { container: 'jsonl', format: 'trl-standard', detected: 'trl-standard', reason: '', columns: [], gzip: false },
    groupOf: new Int32Array([0, 0]),
    groupKeys: ['g'],
    lengths: new Float64Array([1, 2]),
    steps: new Float64Array([Number.NaN, Number.NaN]),
    truncated: new Float64Array([Number.NaN, 0]),
    labels: null,
    labelPresent: 0,
    groupBy: null,
  },
  index,
});

describe('checkFromWorker: a piece read', () => {
  it('facts and a line index of as many rows, starts and lines ascending, pass', () => {
    const r = checkFromWorker(pieceRead({ spans: new Float64Array([100, 150, 152, 190]), lines: new Int32Array([10, 12]) }));
    expect(r.ok).toBe(true);
    if (r.ok && r.value.kind === 'piece-read') {
      expect(Array.from(r.value.index.lines)).toEqual([10, 12]);
      expect(r.value.meta.issues).toEqual([{ line: 11, reason: 'not JSON' }]);
    }
    // The two rows of a preference pair share their line and span.
    expect(checkFromWorker(pieceRead({ spans: new Float64Array([5, 9, 5, 9]), lines: new Int32Array([3, 3]) })).ok).toBe(true);
  });

  it('an index that does not fit its rows, or is not ascending, fails', () => {
    const bad: [unknown, unknown, RegExp][] = [
      [new Float64Array([0, 1]), new Int32Array([1, 2]), /index\.spans/],
      [[0, 1, 2, 3], new Int32Array([1, 2]), /index\.spans/],
      [new Float64Array([0, 1, 2, 3]), new Int32Array([1]), /index\.lines/],
      [new Float64Array([0, 1, 2, 3]), [1, 2], /index\.lines/],
      [new Float64Array([10, 20, 5, 8]), new Int32Array([1, 2]), /index\.spans\.2/],
      [new Float64Array([10, 9, 12, 14]), new Int32Array([1, 2]), /index\.spans\.0/],
      [new Float64Array([-1, 3, 4, 5]), new Int32Array([1, 2]), /index\.spans\.0/],
      [new Float64Array([0, 3, Number.NaN, 5]), new Int32Array([1, 2]), /index\.spans\.2/],
      [new Float64Array([0, 3.5, 4, 5]), new Int32Array([1, 2]), /index\.spans\.0/],
      [new Float64Array([0, 3, 4, 5]), new Int32Array([0, 2]), /index\.lines\.0/],
      [new Float64Array([0, 3, 4, 5]), new Int32Array([5, 4]), /index\.lines\.1/],
    ];
    for (const [spans, lines, where] of bad) {
      const r = checkFromWorker(pieceRead({ spans, lines }));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(where);
    }
  });

  it('facts that do not hold (a group index out of range) fail as in a whole read', () => {
    const m = pieceRead({ spans: new Float64Array([0, 1, 2, 3]), lines: new Int32Array([1, 2]) });
    m.meta.groupOf = new Int32Array([0, 1]);
    expect(checkFromWorker(m).ok).toBe(false);
  });

  it('a piece that failed carries its message', () => {
    const r = checkFromWorker({ kind: 'piece-failed', datasetId: 'cli', message: 'EACCES' });
    expect(r.ok && r.value.kind === 'piece-failed' && r.value.message).toBe('EACCES');
  });
});

describe('checkToWorker: a piece to read', () => {
  const piece = {
    kind: 'piece',
    datasetId: 'cli',
    path: '/d.jsonl',
    name: 'd.jsonl',
    start: 0,
    end: 10,
    lineOffset: 0,
    format: 'trl-standard',
    mapping: null,
    meta: {},
  };
  it('a byte range, a line count and a format pass; a range that ends before it starts does not', () => {
    expect(checkToWorker(piece).ok).toBe(true);
    expect(checkToWorker({ ...piece, start: 11 }).ok).toBe(false);
    expect(checkToWorker({ ...piece, lineOffset: -1 }).ok).toBe(false);
    expect(checkToWorker({ ...piece, path: 3 }).ok).toBe(false);
  });

  it('lean, on a piece and on the dataset loaded after it, is a boolean or absent', () => {
    const load = { kind: 'load', file: { datasetId: 'cli', path: '/d.jsonl', name: 'd.jsonl' } };
    for (const lean of [true, false, undefined]) {
      expect(checkToWorker({ ...piece, lean }).ok).toBe(true);
      expect(checkToWorker({ ...load, file: { ...load.file, lean } }).ok).toBe(true);
    }
    for (const lean of ['yes', 1, null, {}]) {
      expect(checkToWorker({ ...piece, lean })).toEqual({ ok: false, error: 'lean: expected a boolean' });
      expect(checkToWorker({ ...load, file: { ...load.file, lean } })).toEqual({ ok: false, error: 'file.lean: expected a boolean' });
    }
  });
});
