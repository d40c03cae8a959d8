import { StrictMode, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import { showsSignInAlone } from './app/first-screen';
import { loadApp } from './app/load-app';
import { SignInEntry } from './app/signin-entry';
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
 * Two ways in (docs/decisions/056-signin-weight.md). /signin in a browser without a stored session
 * shows the sign-in page alone: no router, query client or Amplify before the person shows intent to
 * sign in. Everything else (and /signin with a stored session, which the guard then sends on to the
 * dashboard) loads the whole app, with Amplify fetched beside it for the session read at app start.
 */
if (showsSignInAlone(window.location.pathname, getWebConfig().userPoolClientId, document.cookie)) {
  show(<SignInEntry show={show} />);
} else {
  loadAuth().catch(() => undefined);
  show(<FullPageSpinner />);
  loadApp().then(
    (app) => show(app.createApp()),
    () => show(<ErrorScreen />),
  );
}
