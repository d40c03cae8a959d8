import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { firstPublicScreen } from './app/first-screen';
import { loadApp } from './app/load-app';
import { PublicEntry } from './app/public-entry';
import { ErrorScreen } from './components/error-screen';
import { FullPageSpinner } from './components/spinner';
import { getWebConfig } from './config/web-config';
import { loadAuth } from './lib/auth/load-auth';
import './styles/tokens.css';
import './styles/app.css';

const element = document.getElementById('root');
if (!element) throw new Error('index.html must contain <div id="root">');
const root = createRoot(element);
const show = (app: ReactElement) => root.render(<StrictMode>{app}</StrictMode>);

/**
 * Two ways in (docs/decisions/056-signin-weight.md, 060-activate-alone.md). /signin and /activate in a
 * browser without a stored session show their page alone: no router, query client or Amplify before
 * the person shows intent to sign in or reaches the passkey step. Everything else (and those two with a
 * stored session) loads the whole app, with Amplify fetched beside it for the session read at app start.
 */
if (firstPublicScreen(window.location.pathname, getWebConfig().userPoolClientId, document.cookie)) {
  show(<PublicEntry show={show} />);
} else {
  loadAuth().catch(() => undefined);
  show(<FullPageSpinner />);
  loadApp().then(
    (app) => show(app.createApp()),
    () => show(<ErrorScreen />),
  );
}
