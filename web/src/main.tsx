import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { getWebConfig } from './config/web-config';
import { configureAuth } from './lib/auth/cognito';
import { createQueryClient } from './lib/query-client';
import './styles/tokens.css';
import './styles/app.css';

configureAuth(getWebConfig());

const root = document.getElementById('root');
if (!root) throw new Error('index.html must contain <div id="root">');

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
