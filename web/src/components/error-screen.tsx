import { reloadPage } from '../lib/browser';
import { AuthLayout } from './auth-layout';

/**
 * Last resort when a screen cannot be shown (a render error, or code that failed to load because a
 * new deploy replaced the chunk or the network dropped): say so and offer a reload.
 */
export function ErrorScreen({ detail }: { detail?: string | undefined }) {
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
