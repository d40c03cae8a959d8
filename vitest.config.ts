import { defineConfig } from 'vitest/config';

/**
 * One `npm test` runs every project: fast unit tests, React component tests in jsdom,
 * integration tests against one shared DynamoDB Local (each file uses its own table prefix),
 * and CDK template tests. Browser journeys run through `npm run test:e2e` (vitest.e2e.config.ts).
 */
export default defineConfig({
  test: {
    // Logs are asserted where they matter (test/unit/lambdas/logger.test.ts), not printed.
    env: { LOG_LEVEL: 'silent' },
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          exclude: ['test/unit/web/**', 'test/unit/infra/**'],
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/unit/web/**/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/web/setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'infra',
          environment: 'node',
          include: ['test/unit/infra/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
