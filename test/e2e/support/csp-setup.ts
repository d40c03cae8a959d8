/**
 * Runs before every browser test file (vitest.e2e.config.ts `setupFiles`): a test after which a CSP
 * violation was recorded fails, naming it; so does a file that leaves one behind in its
 * beforeAll or afterAll hooks. The detector is in ./csp.ts.
 */
import { afterAll, afterEach } from 'vitest';
import { checkCsp } from './csp';

afterEach(checkCsp);
afterAll(checkCsp);
