import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorScreen } from '../components/error-screen';

/**
 * Last resort for a render error or a route module that failed to load (a new deploy replaced
 * the chunk, or the network dropped): say so and offer a reload.
 */
export function RouteError() {
  const error = useRouteError();
  return (
    <ErrorScreen detail={isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined} />
  );
}
