/**
 * A Vite plugin that paints the public screens before the application's JavaScript has run
 * (docs/decisions/057-lighthouse-and-serving.md). At build time it renders `/signin` and step 1 of
 * `/activate` from the app's own components (./screens.tsx) into index.html, each in a hidden,
 * inert element after `#root`, and adds ./hand-off.ts, a classic script of a few hundred bytes in
 * <head>, which shows the one of the current path before the first paint and removes it when the
 * app renders its own screen. index.html is the answer to every path, locally and on CloudFront alike,
 * so nothing about serving changes; CSP allows it as it is (scripts and styles from 'self' only:
 * no inline script, no style attribute).
 */
import { join } from 'node:path';
import { runnerImport, type Plugin } from 'vite';
import type { PrerenderedScreen } from './screens';

const HAND_OFF = join(import.meta.dirname, 'hand-off.ts');
const SCREENS = join(import.meta.dirname, 'screens.tsx');
const ROOT = '<div id="root"></div>';

/** index.html with the screens after #root and the hand-off script before every other script. */
export const withPrerenderedScreens = (
  html: string,
  screens: readonly PrerenderedScreen[],
  handOffSrc: string,
): string => {
  const firstScript = html.indexOf('<script');
  if (!html.includes(ROOT) || firstScript < 0 || firstScript > html.indexOf('</head>'))
    throw new Error('index.html must hold <div id="root"></div> and its entry script in <head>.');
  const shells = screens
    .map((screen) => `<div data-prerendered="${screen.path}" hidden inert>${screen.html}</div>`)
    .join('');
  // Classic and synchronous: it must run before <body> is parsed (./hand-off.ts).
  const handOff = `<script src="${handOffSrc}"></script>\n    `;
  // The first paint needs the HTML and the stylesheet only: the application's JavaScript comes after them.
  const app = html
    .slice(firstScript)
    .replace(ROOT, `${ROOT}${shells}`)
    .replaceAll(/<(script type="module"|link rel="modulepreload")/g, '<$1 fetchpriority="low"');
  return html.slice(0, firstScript) + handOff + app;
};

export const prerenderPublicScreens = (): Plugin => {
  let handOffRef = '';
  let base = '/';
  let define: Record<string, unknown> | undefined;
  return {
    name: 'prerender-public-screens',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      define = config.define;
    },
    buildStart() {
      handOffRef = this.emitFile({ type: 'chunk', id: HAND_OFF, name: 'hand-off' });
    },
    generateBundle: {
      order: 'post',
      async handler(_options, bundle) {
        const index = bundle['index.html'];
        if (index?.type !== 'asset') throw new Error('The build has no index.html to prerender into.');
        const { module } = await runnerImport<{ renderScreens: () => PrerenderedScreen[] }>(SCREENS, {
          configFile: false,
          logLevel: 'error',
          // The build's constants (the app's configuration), should a module read one as it loads.
          define,
        });
        index.source = withPrerenderedScreens(
          String(index.source),
          module.renderScreens(),
          `${base}${this.getFileName(handOffRef)}`,
        );
      },
    },
  };
};
