import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** DESIGN.md: src/core imports nothing from ui, store, runtime or React, and touches no DOM. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) && !f.endsWith('.test.ts') ? [p] : [];
  });
}

describe('layering', () => {
  it('src/core imports nothing from ui, store, runtime, engine, app, cli or React', () => {
    const root = join(__dirname);
    const bad: string[] = [];
    for (const f of files(root)) {
      const src = readFileSync(f, 'utf8');
      for (const m of src.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const spec = m[1] ?? m[2];
        if (/^(react|react-dom|zustand|recharts|monaco-editor|@monaco-editor)(\/|$)/.test(spec) || /\/(ui|store|runtime|cli|engine|app)(\/|$)/.test(spec)) {
          bad.push(`${relative(root, f)} imports ${spec}`);
        }
      }
      const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      if (/\b(document|window)\.[a-zA-Z]/.test(code)) bad.push(`${relative(root, f)} touches the DOM`);
    }
    expect(bad).toEqual([]);
  });
});
