/**
 * Reward-model scores kept across runs and reloads: IndexedDB (via `idb`), one entry per (model, rollout input)
 * under the key from core/models/scoreRollouts `cacheKey`. Re-running the reward code, relabelling, or opening the
 * session again never runs the model on a rollout it has already scored.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { CachedScore, ScoreCache } from '../core/models/scoreRollouts';

const DB_NAME = 'reward-studio-model-scores';
let dbp: Promise<IDBPDatabase> | null = null;

function db(): Promise<IDBPDatabase> {
  dbp ??= openDB(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore('scores');
    },
  });
  return dbp;
}

export const modelScoreCache: ScoreCache = {
  async getMany(keys) {
    const tx = (await db()).transaction('scores', 'readonly');
    const store = tx.objectStore('scores');
    const out = await Promise.all(keys.map((k) => store.get(k) as Promise<CachedScore | undefined>));
    await tx.done;
    return out;
  },
  async putMany(entries) {
    const tx = (await db()).transaction('scores', 'readwrite');
    const store = tx.objectStore('scores');
    await Promise.all([...entries.map(([k, v]) => store.put(v, k)), tx.done]);
  },
};

/** Forget every cached score (all models). */
export async function clearModelScoreCache(): Promise<void> {
  await (await db()).clear('scores');
}
