import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  ActivationHostContext,
  ActivationPage,
  type ActivationHost,
} from '../../features/activation/activation-page';
import { useAuth } from '../../lib/auth/auth-provider';
import { preloadAuthSignIn } from '../../lib/auth/load-auth';
import { preloadDashboard } from '../route-modules';

/** Step 2 shows: Amplify's sign-in calls, then the dashboard's chunks, fetched ahead. */
const preloadAfterActivation = () => {
  void preloadAuthSignIn().then(preloadDashboard);
};

/**
 * /activate inside the app (from the app's /signin, or opened with a stored session): the router
 * navigates and keeps the query string, and the auth provider completes the sign-in (dropping a
 * previous person's cached data). A first load of /activate without a stored session shows the same
 * page without the app: app/public-entry.tsx.
 */
export function ActivationRoute() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const { completePasskeySignIn } = useAuth();
  const host = useMemo<ActivationHost>(
    () => ({
      completePasskeySignIn,
      navigate: (path, { replace }) => navigate(path, { replace }),
      search,
      setSearch: (next, { replace }) => void navigate({ pathname, search: next }, { replace }),
      preloadAfterActivation,
    }),
    [completePasskeySignIn, navigate, pathname, search],
  );
  return (
    <ActivationHostContext value={host}>
      <ActivationPage />
    </ActivationHostContext>
  );
}
