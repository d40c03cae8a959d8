import { Alert } from '../../../components/alert';
import { SignInAgain } from '../../../components/sign-in-again';
import { errorMessage } from '../../../lib/errors';

interface PasskeyActionErrorProps {
  error: unknown;
  fallback: string;
  onDismiss?: () => void;
}

/**
 * Why adding or removing a passkey, or deleting the account, failed, in the server's words. A 401
 * here is not the session ending (that one is handled by the API client): the sign-in is older than
 * 10 minutes ('Please sign in again to manage passkeys.', 'Please sign in again to delete your
 * account.'), so the person is offered a fresh one.
 */
export function PasskeyActionError({ error, fallback, onDismiss }: PasskeyActionErrorProps) {
  return (
    <Alert tone="error" {...(onDismiss ? { onDismiss, dismissLabel: 'Dismiss error' } : {})}>
      <p>{errorMessage(error, fallback)}</p>
      <SignInAgain error={error} />
    </Alert>
  );
}
