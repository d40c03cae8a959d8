import { useNavigate } from 'react-router';
import { MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/alert';
import { AuthLayout } from '../../components/auth-layout';
import { Icon } from '../../components/icon';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { preloadPasskeySignIn, useSignInWithPasskey } from './api/sign-in-with-passkey';

export function SignInPage() {
  const navigate = useNavigate();
  const signIn = useSignInWithPasskey();

  const onSignIn = () => {
    signIn.mutate(undefined, { onSuccess: () => void navigate(paths.dashboard, { replace: true }) });
  };

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Sign in with the passkey on this device: your fingerprint, face or screen lock. No password needed."
    >
      {signIn.isError && <Alert tone="error">{errorMessage(signIn.error, MESSAGES.signInFailed)}</Alert>}
      <button
        type="button"
        className="button button--primary button--large button--block"
        onClick={onSignIn}
        onPointerEnter={preloadPasskeySignIn}
        onTouchStart={preloadPasskeySignIn}
        onFocus={preloadPasskeySignIn}
        disabled={signIn.isPending}
        aria-busy={signIn.isPending}
      >
        <Icon name="key" />
        {signIn.isPending ? MESSAGES.authenticating : MESSAGES.signInWithPasskey}
      </button>
      <p className="divider">
        <span>New user?</span>
      </p>
      <button
        type="button"
        className="button button--secondary button--block"
        onClick={() => void navigate(paths.activate)}
      >
        Activate Your Account
      </button>
      <p className="auth-card__hint">
        Have an activation code from your coach or admin? Start here to set up your passkey.
      </p>
    </AuthLayout>
  );
}
