import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { createContext } from './context';

describe('RewardContext', () => {
  it('offers every helper the editor declares, and declares every helper it offers', () => {
    // Member names read by the TypeScript parser; the types themselves are checked in reward-studio-dts.test.ts.
    const dts = ts.createSourceFile('reward-studio.d.ts', readFileSync(join(__dirname, 'reward-studio.d.ts'), 'utf8'), ts.ScriptTarget.Latest);
    const declared = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isInterfaceDeclaration(node) && node.name.text === 'RewardContext') for (const m of node.members) declared.add(m.name!.getText(dts));
      else ts.forEachChild(node, visit);
    };
    visit(dts);
    const offered = new Set(Object.keys(createContext()));
    expect([...declared].sort()).toEqual([...offered].sort());
  });
  it('helpers work through the context', () => {
    const ctx = createContext();
    expect(ctx.numbersEqual(ctx.lastBoxed('\\boxed{1,000}'), '1000')).toBe(true);
    expect(ctx.extractTag('<answer>4</answer>', 'answer')).toBe('4');
  });
});
