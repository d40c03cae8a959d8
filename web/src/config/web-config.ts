import type { WebEnv } from './env';

/**
 * The configuration `web/vite.config.ts` parsed and validated at build time, injected as the
 * `__WEB_CONFIG__` constant (docs/decisions/021-build-time-config.md).
 */
export const getWebConfig = (): WebEnv => __WEB_CONFIG__;
