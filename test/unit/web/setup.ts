import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
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

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.resetAllMocks();
  document.body.style.overflow = '';
  window.localStorage.clear();
});
