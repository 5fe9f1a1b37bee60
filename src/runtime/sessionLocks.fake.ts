import type { Locks } from './sessionLocks';

/**
 * A LockManager as the Web Locks spec has it, for exclusive locks: granted in request order; `ifAvailable` gets null
 * at once when held; a `signal` aborts a request still waiting (rejecting it). For unit tests: Node has no navigator.locks.
 */
export function fakeLocks(): Locks {
  const held = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  const grant = (name: string) => {
    const next = waiting.get(name)?.shift();
    if (next) next();
    else held.delete(name);
  };
  return {
    request(name, options, callback) {
      const run = async () => {
        try {
          await callback({ name });
        } finally {
          grant(name);
        }
      };
      if (!held.has(name)) {
        held.add(name);
        return run();
      }
      if (options.ifAvailable) return callback(null);
      return new Promise((resolve, reject) => {
        const go = () => {
          options.signal?.removeEventListener('abort', abort);
          resolve(run());
        };
        const abort = () => {
          const q = waiting.get(name) ?? [];
          q.splice(q.indexOf(go), 1);
          reject(new DOMException('aborted', 'AbortError'));
        };
        options.signal?.addEventListener('abort', abort);
        waiting.set(name, [...(waiting.get(name) ?? []), go]);
      });
    },
    query: async () => ({ held: [...held].map((name) => ({ name })) }),
  };
}
