import { describe, expect, it } from 'vitest';
import { ImportError } from '../core/formats/types';
import { importFailure } from './importProtocol';

describe('importFailure', () => {
  it('keeps an ImportError’s code, message and detail', () => {
    const detail = { columns: ['a'], issues: [{ line: 3, reason: 'bad' }], container: 'jsonl' as const };
    expect(importFailure(new ImportError('no-rows', 'x.jsonl has no usable rows', detail))).toEqual({
      code: 'no-rows',
      message: 'x.jsonl has no usable rows',
      detail,
    });
  });

  it('anything else is internal, with its message', () => {
    expect(importFailure(new TypeError('boom'))).toEqual({ code: 'internal', message: 'boom' });
    expect(importFailure('plain')).toEqual({ code: 'internal', message: 'plain' });
  });
});
