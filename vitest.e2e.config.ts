import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: browser journeys in Debian's Chromium (playwright-core) with CDP virtual
 * passkeys, against one local stack (`npm start -- --prod --reset`) that test/e2e/global-setup.ts
 * starts for the run and stops afterwards. Files run one after another: they share that stack,
 * and each launches its own browser.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 60_000,
  },
});
