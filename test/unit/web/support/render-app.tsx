import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../../../../web/src/app/providers';
import { routes } from '../../../../web/src/app/router';
import { createQueryClient } from '../../../../web/src/lib/query-client';

/**
 * The whole app (real routes, guards, providers and query defaults) at `path`, in memory.
 * Auth, WebAuthn and fetch are faked by the calling test at their module boundaries.
 */
export const renderApp = (
  path: string,
  options: { userEvent?: Parameters<typeof userEvent.setup>[0] } = {},
) => {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const user = userEvent.setup(options.userEvent);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user, location: () => router.state.location };
};
