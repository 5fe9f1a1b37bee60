// Benchmarks import the studio's TypeScript (src/core) directly: a module loader hook strips the types on the fly
// with sucrase (a dependency of the app), so no separate build is needed.
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');

const loader = `
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
const { transform } = createRequire(${JSON.stringify(resolve(ROOT, 'package.json'))})('sucrase');
export async function resolve(spec, ctx, next) {
  // Vite's "?raw" imports (the Python harness): the file's text as the default export.
  if (spec.endsWith('?raw') && spec.startsWith('.')) return { url: new URL(spec, ctx.parentURL).href, shortCircuit: true };
  if (ctx.parentURL?.endsWith('.ts') && spec.startsWith('.') && !/\\.[cm]?[jt]s$/.test(spec)) {
    for (const ext of ['.ts', '/index.ts']) {
      try { return await next(spec + ext, ctx); } catch { /* not this one */ }
    }
  }
  return next(spec, ctx);
}
export async function load(url, ctx, next) {
  if (url.startsWith('file:') && url.endsWith('?raw')) {
    const text = await readFile(new URL(url.slice(0, -4)), 'utf8');
    return { format: 'module', source: 'export default ' + JSON.stringify(text) + ';', shortCircuit: true };
  }
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, ctx);
  const src = await readFile(new URL(url), 'utf8');
  const { code } = transform(src, { transforms: ['typescript'], disableESTransforms: true, filePath: url });
  return { format: 'module', source: code, shortCircuit: true };
}`;
register('data:text/javascript,' + encodeURIComponent(loader), import.meta.url);

/** Import a module of the repository by its path from the root, e.g. `importTs('src/core/dataset/loadAll.ts')`. */
export function importTs(path) {
  return import(pathToFileURL(resolve(ROOT, path)).href);
}
