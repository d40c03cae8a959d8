import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { prerenderPublicScreens } from './prerender/plugin';
import { describeEnvProblems, parseWebEnv } from './src/config/env';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The SPA build: root web/, output web/dist. Configuration comes from VITE_* variables (the
 * environment, or web/.env*); a missing or malformed one stops the build and names them all.
 */
export default defineConfig(({ mode, isPreview }) => {
  const parsed = parseWebEnv(loadEnv(mode, root, 'VITE_'));
  // `vite preview` only serves an existing build, so it needs no configuration.
  if (!parsed.success && !isPreview) throw new Error(describeEnvProblems(parsed.problems));

  return {
    root,
    plugins: [react(), prerenderPublicScreens()],
    // The parsed configuration, not the raw variables: the app trusts what the build checked.
    define: parsed.success ? { __WEB_CONFIG__: JSON.stringify(parsed.env) } : {},
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // bin/size.ts reads the manifest to find what /signin loads.
      manifest: true,
      target: 'es2022',
    },
    server: { port: 5173, strictPort: true },
  };
});
