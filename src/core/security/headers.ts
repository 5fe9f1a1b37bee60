/**
 * The page's security headers (DESIGN.md, "Safety model"). Shared by the Vite dev/preview servers and tests.
 * `connect-src 'self'`: reward code (run in workers) cannot send data to another origin.
 */
export const isolationHeaders: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The reward sandbox (an iframe of opaque origin, and its workers) asks for the app's own files with `Origin: null`:
 * those answers carry CORS and CORP so that it may use them. Every other origin gets nothing extra.
 */
export function sandboxHeaders(origin: string | string[] | undefined): Record<string, string> {
  const vary = { Vary: 'Origin' };
  return origin === 'null' ? { ...vary, 'Access-Control-Allow-Origin': 'null', 'Cross-Origin-Resource-Policy': 'cross-origin' } : vary;
}

/** No page may run inline script: the dev server's React-refresh preamble is served as a file (vite.config.ts). */
export function contentSecurityPolicy(): string {
  const script = ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'", 'blob:'];
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
