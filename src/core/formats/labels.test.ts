import { describe, expect, it } from 'vitest';
import { FORMAT_LABELS } from './labels';
import { NORMALIZERS } from './normalize';
import { FORMAT_IDS } from './types';

describe('format tables', () => {
  it('every format has a label and a normalizer, and nothing else does', () => {
    expect(Object.keys(FORMAT_LABELS).sort()).toEqual([...FORMAT_IDS].sort());
    expect(Object.keys(NORMALIZERS).sort()).toEqual([...FORMAT_IDS].sort());
    expect(FORMAT_LABELS['trl-standard']).toBe('TRL prompt/completion');
  });
});
