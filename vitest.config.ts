import { defineConfig } from 'vitest/config';

/** Unit tests: Node environment, beside the code as x.test.ts. Browser flows live in e2e/ (Playwright). */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', ['json', { outputFile: 'reports/unit.json' }]],
    testTimeout: 20000,
  },
});
