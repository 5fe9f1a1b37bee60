import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Who may import whom across src/app (main thread, controllers) and src/worker (inside Web Workers only). */
const src = join(__dirname, '..');
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) && !f.endsWith('.test.ts') ? [p] : [];
  });
}
/** Each import of `file` that is not type-only: [specifier]. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s+(?!type\s)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)].map((m) => m[1] ?? m[2]);
}

describe('layering of app and worker', () => {
  it('src/worker imports nothing from app, store, ui or React', () => {
    const bad = files(join(src, 'worker')).flatMap((f) =>
      valueImports(f)
        .filter((s) => /^(react|react-dom|zustand)(\/|$)/.test(s) || /\/(app|store|ui)(\/|$)/.test(s))
        .map((s) => `${relative(src, f)} imports ${s}`),
    );
    expect(bad).toEqual([]);
  });

  it('main-thread code (app, ui, store, runtime) takes only types from src/worker', () => {
    const bad = ['app', 'ui', 'store', 'runtime'].flatMap((d) =>
      files(join(src, d)).flatMap((f) =>
        valueImports(f)
          .filter((s) => /\/worker\//.test(s))
          .map((s) => `${relative(src, f)} imports ${s}`),
      ),
    );
    expect(bad).toEqual([]);
  });
});
