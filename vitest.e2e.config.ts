import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: browser journeys in Debian's Chromium (playwright-core) with CDP virtual
 * passkeys, against one local stack (`npm start -- --prod --reset`) that test/e2e/global-setup.ts
 * starts for the run and stops afterwards. Files run one after another: they share that stack,
 * and each launches its own browser. The stack sends the production security headers, and a test
 * after which the browser recorded a CSP violation fails (docs/decisions/051).
 */
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    // Every test fails on a Content-Security-Policy violation (test/e2e/support/csp.ts).
    setupFiles: ['test/e2e/support/csp-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
