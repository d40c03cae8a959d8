import { createContext, use } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import { Alert } from '../../components/alert';
import { AuthLayout } from '../../components/auth-layout';
import { Icon } from '../../components/icon';
import { paths } from '../../config/paths';
import type { PasskeyProof, SessionUser } from '../../lib/auth/session-user';
import { errorMessage } from '../../lib/errors';
import { preloadPasskeySignIn, useSignInWithPasskey } from './api/sign-in-with-passkey';
import { busyButton } from '../../lib/busy-button';

/** What the screen around the page provides: the sign-in's last step, navigation, and prefetching. */
export interface SignInHost {
  /** Steps 4 and 5 of SPEC section 4: Cognito custom auth with the proof. */
  completePasskeySignIn: (proof: PasskeyProof) => Promise<SessionUser>;
  /** Shows another screen of the SPA; may resolve once it is there. */
  navigate: (path: string, options: { replace: boolean }) => void | Promise<void>;
  /**
   * What the host fetches ahead when the person shows intent to sign in, beyond the ceremony's own
   * code (called once that is here, so the two do not compete for the connection).
   */
  preloadSignIn?: () => void;
  /** What the host fetches ahead when the person shows intent to activate. */
  preloadActivation?: () => void;
  /** Why the page is shown, when the session ended without the person signing out. */
  notice?: string;
}

export const SignInHostContext = createContext<SignInHost | null>(null);

const missingHost = (): never => {
  throw new Error('SignInPage must be rendered inside <SignInHostContext>');
};
/** Renders (a static prerender needs no more); any action needs the real host. */
const NO_HOST: SignInHost = { completePasskeySignIn: missingHost, navigate: missingHost };

/**
 * /signin. It imports no router, no query client and no Amplify, so that the first load of /signin
 * can show it without them (docs/decisions/056-signin-weight.md): its host hands it the sign-in's last
 * step and the navigation through SignInHostContext, either the router's (app/routes/signin.tsx) or
 * the public entry's (app/public-entry.tsx).
 */
export function SignInPage() {
  const { completePasskeySignIn, navigate, preloadSignIn, preloadActivation, notice } =
    use(SignInHostContext) ?? NO_HOST;
  const signIn = useSignInWithPasskey(completePasskeySignIn);

  // The ceremony's own code first (the press needs it at once), then what the host needs later.
  const onSignInIntent = () => {
    void preloadPasskeySignIn().then(preloadSignIn);
  };
  const onSignIn = () => {
    onSignInIntent();
    void signIn.run(() => navigate(paths.dashboard, { replace: true }));
  };

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Sign in with the passkey on this device: your fingerprint, face or screen lock. No password needed."
    >
      {signIn.isError ? (
        <Alert tone="error">{errorMessage(signIn.error, MESSAGES.signInFailed)}</Alert>
      ) : (
        notice && <Alert tone="info">{notice}</Alert>
      )}
      <button
        type="button"
        className="button button--primary button--large button--block"
        {...busyButton(signIn.isPending, onSignIn)}
        onPointerEnter={onSignInIntent}
        onTouchStart={onSignInIntent}
        onFocus={onSignInIntent}
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
        onClick={() => void navigate(paths.activate, { replace: false })}
        onPointerEnter={preloadActivation}
        onTouchStart={preloadActivation}
        onFocus={preloadActivation}
      >
        Activate Your Account
      </button>
      <p className="auth-card__hint">
        Have an activation code from your coach or admin? Start here to set up your passkey.
      </p>
    </AuthLayout>
  );
}
