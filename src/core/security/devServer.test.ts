import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm start` serves the studio with Vite's dev server: its pages may not run inline script either (issue 20). */
let server: ViteDevServer;
let base: string;
beforeAll(async () => {
  server = await createServer({
    configFile: new URL('../../../vite.config.ts', import.meta.url).pathname,
    server: { port: 0, strictPort: false },
    logLevel: 'silent',
  });
  await server.listen();
  base = server.resolvedUrls!.local[0];
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('the dev server', () => {
  it('sends a CSP without unsafe-inline scripts, and a page with no inline script', async () => {
    const res = await fetch(base);
    const csp = res.headers.get('content-security-policy') ?? '';
    const script = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(script).toContain("'self'");
    expect(script).not.toContain("'unsafe-inline'");
    const html = await res.text();
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs, body]) => !/\bsrc=/.test(attrs) && body.trim() !== '');
    expect(inline).toEqual([]);
    // The React-refresh preamble is still there, as a file of the dev server.
    const preamble = /<script type="module" src="(\/@inline\/[0-9a-f]+\.js)"><\/script>/.exec(html);
    expect(preamble).not.toBeNull();
    const code = await (await fetch(new URL(preamble![1], base))).text();
    expect(code).toContain('injectIntoGlobalHook');
  }, 30_000);

  it('the reward sandbox (Origin: null) may read the app’s files; other origins get no CORS header', async () => {
    const worker = new URL('/workers/reward-js.worker.ts?worker_file&type=module', base);
    const sandboxed = await fetch(worker, { headers: { Origin: 'null' } });
    expect(sandboxed.status).toBe(200);
    expect(sandboxed.headers.get('access-control-allow-origin')).toBe('null');
    expect(sandboxed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const other = await fetch(worker, { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    // The sandbox page itself is isolated as the studio is, with the same CSP.
    const frame = await fetch(new URL('/sandbox.html', base));
    expect(frame.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(frame.headers.get('content-security-policy')).toContain("connect-src 'self'");
  }, 30_000);
});
