/**
 * Defence in depth for workers that run untrusted reward code: besides the CSP (connect-src 'self'), remove the
 * network and script-loading APIs from the worker's global scope before any user code runs.
 */
export function lockDownNetwork(scope: object): void {
  const blocked = () => {
    throw new Error('network access is not available in reward code');
  };
  for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'WebTransport']) {
    try {
      Object.defineProperty(scope, name, { value: blocked, writable: false, configurable: false });
    } catch {
      /* not present in this scope */
    }
  }
}
