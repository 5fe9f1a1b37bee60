import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from './context';

describe('RewardContext', () => {
  it('offers every helper the editor declares, and declares every helper it offers', () => {
    const dts = readFileSync(join(__dirname, 'reward-studio.d.ts'), 'utf8');
    const iface = dts.slice(dts.indexOf('interface RewardContext'));
    const declared = new Set([...iface.matchAll(/^\s{4}(?:readonly )?(\w+)[(:]/gm)].map((m) => m[1]));
    const offered = new Set(Object.keys(createContext()));
    expect([...declared].sort()).toEqual([...offered].sort());
  });
  it('helpers work through the context', () => {
    const ctx = createContext();
    expect(ctx.numbersEqual(ctx.lastBoxed('\\boxed{1,000}'), '1000')).toBe(true);
    expect(ctx.extractTag('<answer>4</answer>', 'answer')).toBe('4');
  });
});
