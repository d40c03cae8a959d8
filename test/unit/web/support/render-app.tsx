import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../../../../web/src/app/providers';
import { routes } from '../../../../web/src/app/router';
import { createQueryClient } from '../../../../web/src/lib/query-client';

/**
 * The app's query client with one change: a retry happens at once. Which failures are retried
 * and how often stays the app's; only the wait goes, so no test depends on the real backoff
 * (that is tested exactly in lib/retry-delay.test.ts and lib/query-client.test.ts).
 */
const createTestQueryClient = () => {
  const queryClient = createQueryClient();
  const { queries, mutations } = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({
    queries: { ...queries, retryDelay: 0 },
    mutations: { ...mutations, retryDelay: 0 },
  });
  return queryClient;
};

/**
 * The whole app (real routes, guards, providers and query defaults, retries without delay) at
 * `path`, in memory. Auth, WebAuthn and fetch are faked by the calling test at their module
 * boundaries.
 */
export const renderApp = (
  path: string,
  options: { userEvent?: Parameters<typeof userEvent.setup>[0] } = {},
) => {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createTestQueryClient();
  const user = userEvent.setup(options.userEvent);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user, location: () => router.state.location };
};
