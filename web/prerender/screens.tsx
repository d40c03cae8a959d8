/**
 * The public screens as static HTML, rendered at build time from the very components the app
 * renders (./plugin.ts puts them into index.html; docs/decisions/057-lighthouse-and-serving.md): the
 * signed-out `/signin`, and step 1 of `/activate`. Effects do not run here, so nothing calls the API
 * or Amplify; the markup is what the app's first render of those screens is.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ActivationPage } from '../src/features/activation/activation-page';
import { SignInPage } from '../src/features/auth/signin-page';
import { paths } from '../src/config/paths';

export interface PrerenderedScreen {
  /** The path the screen stands in for, as `location.pathname` reads it. */
  readonly path: string;
  /** The screen's markup: what the app renders into #root on that path. */
  readonly html: string;
}

/** Neither page needs its host to render (a router, the auth provider): only to act. */
const render = (path: string, screen: ReactNode): PrerenderedScreen => ({
  path,
  html: renderToStaticMarkup(screen),
});

export const renderScreens = (): PrerenderedScreen[] => [
  render(paths.signin, <SignInPage />),
  render(paths.activate, <ActivationPage />),
];
