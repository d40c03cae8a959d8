import { errorMessage } from '../lib/errors';
import { Alert } from './alert';

interface LoadFailedProps {
  /** What could not be loaded, as the alert's title. */
  title: string;
  error: unknown;
  onRetry: () => unknown;
}

/** A page or list that could not load: what failed, why, and 'Try again'. */
export function LoadFailed({ title, error, onRetry }: LoadFailedProps) {
  return (
    <Alert tone="error" title={title}>
      <p>{errorMessage(error, 'Please try again.')}</p>
      <button type="button" className="button button--secondary button--small" onClick={() => void onRetry()}>
        Try again
      </button>
    </Alert>
  );
}
