import { isRouteErrorResponse, useRouteError } from 'react-router';
import { AuthLayout } from '../components/auth-layout';
import { reloadPage } from '../lib/browser';

/**
 * Last resort for a render error or a route module that failed to load (a new deploy replaced
 * the chunk, or the network dropped): say so and offer a reload.
 */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  return (
    <AuthLayout
      title="Something went wrong"
      subtitle="The page could not be shown. Reloading usually fixes this."
    >
      {detail && <p className="muted">{detail}</p>}
      <button type="button" className="button button--primary button--block" onClick={reloadPage}>
        Reload
      </button>
    </AuthLayout>
  );
}
