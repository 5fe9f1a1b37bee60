/**
 * Entry of the built CLI (`dist-cli/reward-studio.mjs`, run by `bin/reward-studio.mjs`). The one bundle is both the
 * command and its reward workers: a worker thread started with `workerData.role === WORKER_ROLE` runs the worker.
 * Each side imports only its own half (dynamic imports, evaluated on demand in the bundle): the command never loads
 * the compiler or the file readers, and starts its workers sooner.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { WORKER_ROLE } from './protocol';

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) {
  const { runWorker } = await import('./worker');
  runWorker();
} else {
  const { main } = await import('./score');
  const code = await main(process.argv.slice(2), new URL(import.meta.url), {
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
  });
  process.exitCode = code;
}
