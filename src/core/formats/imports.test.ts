// Layering: the import code runs in Node, in workers and in the CLI, so its modules (tests and fixtures aside)
// import only each other, src/core, and the parsing libraries; no Node built-ins, no UI/store/runtime.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('.', import.meta.url);
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
const ALLOWED_PACKAGES = new Set(['hyparquet', 'hysnappy', 'papaparse', 'fflate']);

describe('src/core/formats imports', () => {
  it('finds the modules', () => expect(modules.length).toBeGreaterThan(15));

  it.each(modules)('%s', (file) => {
    const source = readFileSync(new URL(file, dir), 'utf8');
    const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    for (const s of specifiers) {
      const ok = s.startsWith('./') || s === '../trajectory' || ALLOWED_PACKAGES.has(s);
      expect(ok, `${file} imports ${s}`).toBe(true);
    }
  });
});
