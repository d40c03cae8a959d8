import { ACCOUNT_LABELS } from '../../../shared/account';
import { ApiError } from '../lib/api-error';
import { useSignOutToSignIn } from '../lib/auth/use-sign-out';

/**
 * 'Sign in again', offered beside a refusal that asks for a fresh sign-in: a 401 from an action that
 * needs a sign-in within the last 10 minutes (managing passkeys, deleting the account, issuing a
 * recovery code); the next sign-in by the same person comes back to this page. A 401 that ends the
 * session is handled by the API client before any screen sees it.
 * Renders nothing for any other error.
 */
export function SignInAgain({ error }: { error: unknown }) {
  const signOutToSignIn = useSignOutToSignIn();
  if (!(error instanceof ApiError && error.status === 401)) return null;
  return (
    <button
      type="button"
      className="button button--secondary button--small"
      onClick={() => void signOutToSignIn({ comeBack: true })}
    >
      {ACCOUNT_LABELS.signInAgain}
    </button>
  );
}
