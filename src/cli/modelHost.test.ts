import { describe, expect, it } from 'vitest';
import { checkRequest } from './modelHost';

/** The parent's check of what the sandboxed child asks of the model host (src/cli/modelHost.ts). */
const DIRS = ['/models/rm'];
const batch = (n = 2) => ({ batch: 1, sequence: n, inputIds: new BigInt64Array(n), attentionMask: new BigInt64Array(n) });

describe('checkRequest', () => {
  it('passes a graph inside a --model folder, a batch of the declared shape, a release', () => {
    expect(checkRequest({ kind: 'ort-open', id: 0, path: '/models/rm/onnx/model.onnx' }, DIRS)).toEqual({
      ok: true,
      value: { kind: 'ort-open', id: 0, path: '/models/rm/onnx/model.onnx' },
    });
    const c = checkRequest({ kind: 'ort-run', id: 1, session: 0, batch: { ...batch(3), typeIds: new BigInt64Array(3), extra: 1 } }, DIRS);
    expect(c.ok && c.value.kind === 'ort-run' && Object.keys(c.value.batch).sort()).toEqual(['attentionMask', 'batch', 'inputIds', 'sequence', 'typeIds']);
    expect(checkRequest({ kind: 'ort-release', id: 2, session: 0 }, DIRS).ok).toBe(true);
  });

  it.each([
    ['a graph outside the folders', { kind: 'ort-open', id: 0, path: '/etc/model.onnx' }, 'path: expected an .onnx file inside a --model folder'],
    ['a way out by ..', { kind: 'ort-open', id: 0, path: '/models/rm/../other/model.onnx' }, 'path: expected an .onnx file inside a --model folder'],
    ['a folder of the same prefix', { kind: 'ort-open', id: 0, path: '/models/rm2/model.onnx' }, 'path: expected an .onnx file inside a --model folder'],
    ['a file that is not a graph', { kind: 'ort-open', id: 0, path: '/models/rm/tokenizer.json' }, 'path: expected an .onnx file inside a --model folder'],
    ['ids of another length', { kind: 'ort-run', id: 1, session: 0, batch: { ...batch(2), sequence: 3 } }, 'batch.inputIds: expected a BigInt64Array of 3'],
    [
      'ids as numbers',
      { kind: 'ort-run', id: 1, session: 0, batch: { ...batch(2), attentionMask: [1, 1] } },
      'batch.attentionMask: expected a BigInt64Array of 2',
    ],
    ['no session', { kind: 'ort-release', id: 2 }, 'session: expected an integer in [0, Infinity]'],
    ['an unknown kind', { kind: 'ort-eval', id: 3 }, 'kind: expected a model request'],
  ])('refuses %s', (_, m, error) => {
    expect(checkRequest(m, DIRS)).toEqual({ ok: false, error });
  });
});
