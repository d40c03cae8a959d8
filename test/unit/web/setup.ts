import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type { WebEnv } from '../../../web/src/config/env';

/** What web/vite.config.ts injects at build time (web/src/config/web-config.ts). */
const testConfig: WebEnv = {
  userPoolId: 'us-west-2_TestPool1',
  userPoolClientId: 'test-client-id',
  region: 'us-west-2',
  apiBaseUrl: 'https://api.test',
  cognitoEndpoint: undefined,
};
Object.assign(globalThis, { __WEB_CONFIG__: testConfig });

// Lazy route chunks load through the module graph; on a loaded 2-core CI machine that can take more
// than the default 1 s `findBy*` waits for. A wait still fails when the element never appears.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lays nothing out, so it cannot scroll, and says so for each of the router's scroll resets; where
// a page shows is checked in the browser journeys (test/e2e/coaching.test.ts).
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.resetAllMocks();
  document.body.style.overflow = '';
  window.localStorage.clear();
});
