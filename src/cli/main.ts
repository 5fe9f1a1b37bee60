/**
 * Entry of the built CLI (`dist-cli/reward-studio.mjs`). The one bundle is both the command and its reward workers
 * (a worker thread started with the engine's role serves); each side imports only its own half, on demand.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { NODE_WORKER_ROLE } from '../engine/node';

if (!isMainThread && (workerData as { role?: string } | null)?.role === NODE_WORKER_ROLE) {
  const { serveNodeWorker } = await import('../engine/nodeWorker');
  serveNodeWorker();
} else {
  const { main } = await import('./launch');
  const code = await main(process.argv.slice(2), new URL(import.meta.url), {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
  });
  process.exitCode = code;
}
