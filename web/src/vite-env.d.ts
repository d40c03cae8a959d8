/// <reference types="vite/client" />
import type { WebEnv } from './config/env';

declare global {
  /** Build-time configuration, parsed by web/vite.config.ts (see src/config/env.ts). */
  const __WEB_CONFIG__: WebEnv;
}
