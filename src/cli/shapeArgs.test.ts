import { describe, expect, it } from 'vitest';
import { parseArgs } from './args';

const base = ['score', 'data.jsonl', '--reward', 'r.ts'];

describe('--shape', () => {
  it('repeats, in order, with the issue’s example', () => {
    const p = parseArgs([...base, '--shape', 'dapo-overlong:max=400,cache=100,unit=chars', '--shape=kimi-length:unit=chars']);
    expect(p.kind === 'score' && p.options.shapes).toEqual([
      { name: 'dapo-overlong', max: 400, cache: 100, unit: 'chars' },
      { name: 'kimi-length', unit: 'chars' },
    ]);
  });
  it('names the bad part', () => {
    expect(parseArgs([...base, '--shape', 'dapo-overlong:max=400,cache=x'])).toEqual({
      kind: 'usage-error',
      message: '--shape "dapo-overlong:max=400,cache=x": invalid dapo-overlong cache: x',
    });
    expect(parseArgs([...base, '--shape', 'nope'])).toEqual({ kind: 'usage-error', message: '--shape "nope": invalid shape name: nope' });
    expect(parseArgs([...base, '--shape', 'step-clip:eta=0.5'])).toEqual({
      kind: 'usage-error',
      message: '--shape: invalid shaping: step-clip without a step-sum after it',
    });
    expect(parseArgs(['probe', 'd.jsonl', '--reward', 'r.ts', '--shape', 'center'])).toEqual({
      kind: 'usage-error',
      message: '--shape applies to score, not probe',
    });
  });
});
