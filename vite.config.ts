import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { contentSecurityPolicy, isolationHeaders, sandboxHeaders } from './src/core/security/headers.ts';

/**
 * Every response (pages, scripts, worker scripts) carries the CSP as an HTTP header: a dedicated worker
 * loaded from a URL gets its policy from its own response, not from the page's <meta> tag, and reward code
 * runs in workers. COOP/COEP make the page cross-origin isolated (SharedArrayBuffer, threaded WASM).
 */
function securityHeaders(): Plugin {
  const headers = { ...isolationHeaders, 'Content-Security-Policy': contentSecurityPolicy() };
  const apply = (req: { headers: Record<string, string | string[] | undefined> }, res: { setHeader(k: string, v: string): void }, next: () => void) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    for (const [k, v] of Object.entries(sandboxHeaders(req.headers.origin))) res.setHeader(k, v);
    next();
  };
  return {
    name: 'reward-studio-security-headers',
    configureServer(server) {
      server.middlewares.use(apply);
    },
    configurePreviewServer(server) {
      server.middlewares.use(apply);
    },
    transformIndexHtml: {
      order: 'pre',
      handler: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: contentSecurityPolicy() }, injectTo: 'head-prepend' }],
    },
  };
}

/**
 * The dev server's inline module scripts (React refresh's preamble) served as files instead, so that no page needs
 * 'unsafe-inline' in its CSP: each becomes `<script type="module" src="/@inline/<sha-256>.js">`, in the same place.
 */
function externalInlineScripts(): Plugin {
  const scripts = new Map<string, string>();
  return {
    name: 'reward-studio-external-inline-scripts',
    apply: 'serve',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(/<script type="module">([\s\S]*?)<\/script>/g, (_, code: string) => {
          const path = `/@inline/${createHash('sha256').update(code).digest('hex').slice(0, 16)}.js`;
          scripts.set(path, code);
          return `<script type="module" src="${path}"></script>`;
        }),
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const code = scripts.get((req.url ?? '').split('?')[0]);
        if (code === undefined) return next();
        res.setHeader('Content-Type', 'text/javascript');
        res.end(code);
      });
    },
  };
}

/** Pyodide's runtime files, served by the app itself under /pyodide/ (no CDN): from node_modules in dev, copied into the build. */
const PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'];
/** The shipped wheels (vendor/python, README "Python packages"), served under /pyodide/packages/ once their SHA-256 matches. */
function shippedWheel(file: string): Buffer {
  const manifest = JSON.parse(readFileSync(new URL('./vendor/python/manifest.json', import.meta.url), 'utf8')) as {
    wheels: { file: string; sha256: string }[];
  };
  const w = manifest.wheels.find((x) => x.file === file);
  if (!w) throw new Error(`${file} is not in vendor/python/manifest.json`);
  const bytes = readFileSync(new URL(`./vendor/python/${file}`, import.meta.url));
  const sha = createHash('sha256').update(bytes).digest('hex');
  if (sha !== w.sha256) throw new Error(`vendor/python/${file}: SHA-256 ${sha}, the manifest says ${w.sha256}`);
  return bytes;
}
const wheelFiles = (): string[] =>
  (JSON.parse(readFileSync(new URL('./vendor/python/manifest.json', import.meta.url), 'utf8')) as { wheels: { file: string }[] }).wheels.map((w) => w.file);
function pyodideAssets(): Plugin {
  const dir = fileURLToPath(new URL('./node_modules/pyodide/', import.meta.url));
  const types: Record<string, string> = { mjs: 'text/javascript', wasm: 'application/wasm', zip: 'application/zip', json: 'application/json' };
  return {
    name: 'reward-studio-pyodide-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? '').split('?')[0];
        const pkg = /^\/pyodide\/packages\/([\w.-]+)$/.exec(url);
        if (pkg && wheelFiles().includes(pkg[1])) {
          res.setHeader('Content-Type', 'application/zip');
          res.end(shippedWheel(pkg[1]));
          return;
        }
        const m = /^\/pyodide\/([\w.-]+)$/.exec(url);
        if (!m || !PYODIDE_FILES.includes(m[1])) return next();
        res.setHeader('Content-Type', types[m[1].split('.').pop()!] ?? 'application/octet-stream');
        res.end(readFileSync(dir + m[1]));
      });
    },
    generateBundle() {
      for (const f of PYODIDE_FILES) this.emitFile({ type: 'asset', fileName: `pyodide/${f}`, source: readFileSync(dir + f) });
      // A wheel that does not match its manifest fails the build.
      for (const f of wheelFiles()) this.emitFile({ type: 'asset', fileName: `pyodide/packages/${f}`, source: shippedWheel(f) });
    },
  };
}

export default defineConfig({
  plugins: [react(), securityHeaders(), externalInlineScripts(), pyodideAssets()],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 8000,
    // Data files (tokenizers) stay files: an inlined data: URL would be refused by the CSP's connect-src 'self'.
    assetsInlineLimit: (file: string) => (file.endsWith('.json') ? false : undefined),
    // A second page for browser tests: e2e/ort-parity.spec.ts runs the demo reward model in onnxruntime-web there.
    rolldownOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        // The reward sandbox: reward code's workers start in this page, framed without allow-same-origin.
        sandbox: fileURLToPath(new URL('./sandbox.html', import.meta.url)),
        'ort-parity': fileURLToPath(new URL('./tests-pages/ort-parity.html', import.meta.url)),
      },
    },
  },
  server: { port: 5173, strictPort: false },
  preview: { port: 4173, strictPort: true },
});
