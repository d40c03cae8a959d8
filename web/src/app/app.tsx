import type { ReactElement } from 'react';
import { RouterProvider } from 'react-router/dom';
import { createQueryClient } from '../lib/query-client';
import { AppProviders } from './providers';
import { createAppRouter } from './router';

/**
 * The whole SPA: providers and the router with every route. Built when it is shown, so the router
 * starts from the address of that moment (the sign-in entry sets the address first). Loaded by
 * main.tsx on every first load but /signin without a stored session, and by the sign-in entry when
 * the person leaves /signin (docs/decisions/056-signin-weight.md).
 */
export const createApp = (): ReactElement => (
  <AppProviders queryClient={createQueryClient()}>
    <RouterProvider router={createAppRouter()} />
  </AppProviders>
);
