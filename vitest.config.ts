import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/** Unit tests: Node environment, beside the code as x.test.ts. Browser flows live in e2e/ (Playwright). */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/unit.json' }]],
    testTimeout: 20000,
    // The CLIs the tests start keep their Pyodide snapshot (src/engine/pyodideSnapshot.ts) here, not in the user's cache.
    env: { REWARD_STUDIO_CACHE_DIR: join(tmpdir(), 'reward-studio-test-cache') },
  },
});
