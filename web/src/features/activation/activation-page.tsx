import { createContext, use, useEffect, useRef, useState, type MouseEvent } from 'react';
import { MESSAGES } from '../../../../shared/messages';
import { formatActivationCode } from '../../../../shared/activation-code';
import { AuthLayout } from '../../components/auth-layout';
import { paths } from '../../config/paths';
import type { PasskeyProof, SessionUser } from '../../lib/auth/session-user';
import { errorMessage } from '../../lib/errors';
import { withMutationRetry } from '../../lib/retry-policy';
import type { Verification } from './api/register-passkey';
import { CodeStep, EMAIL_FIELD } from './code-step';
import { PasskeyStep, PASSKEY_STEP_TITLE } from './passkey-step';

const CODE_PARAM = 'code';
const STEP_PARAM = 'step';
const PASSKEY_STEP = 'passkey';

/**
 * Step 1's call (the API client and the wire schemas), fetched once the person starts on the form, so
 * that the page itself paints and settles without them (docs/decisions/060-activate-alone.md).
 */
const loadVerify = () => import('./api/verify-activation');
const preloadVerify = () => void loadVerify().catch(() => undefined);
/**
 * Step 1's call, retried as every mutation is (once, after SPEC section 9's backoff, when it failed in a
 * way SPEC section 8 calls retryable). Step 2 never is: a retry would prompt the person again.
 */
const verifyWithOneRetry = async (input: { email: string; activationCode: string }) => {
  const { verifyActivation } = await loadVerify();
  return withMutationRetry(() => verifyActivation(input));
};
/** Step 2's code (WebAuthn, the registration call), fetched once the person reaches step 2. */
const loadActivation = () => import('./api/register-passkey');

/**
 * What the screen around the page provides: the sign-in's last step, navigation, and the query string
 * (where the step and the invitation's code live). Two hosts: the router's (app/routes/activate.tsx)
 * and the public entry's, which shows this page without the app (app/public-entry.tsx,
 * docs/decisions/060-activate-alone.md).
 */
export interface ActivationHost {
  /** Steps 4 and 5 of SPEC section 4: Cognito custom auth with the proof. */
  completePasskeySignIn: (proof: PasskeyProof) => Promise<SessionUser>;
  /** Shows another screen of the SPA; may resolve once it is there. */
  navigate: (path: string, options: { replace: boolean }) => void | Promise<void>;
  /** The address's query string, `?` included when not empty (as `location.search`). */
  search: string;
  /** Sets the query string on this path: a new history entry, or with `replace` the current one. */
  setSearch: (search: string, options: { replace: boolean }) => void;
  /** What the host fetches ahead once step 2 shows, beyond step 2's own code (the sign-in, the next screen). */
  preloadAfterActivation?: () => void;
}

export const ActivationHostContext = createContext<ActivationHost | null>(null);

const missingHost = (): never => {
  throw new Error('ActivationPage must be rendered inside <ActivationHostContext>');
};
/** Renders step 1 (a static prerender needs no more); any action needs the real host. */
const NO_HOST: ActivationHost = {
  completePasskeySignIn: missingHost,
  navigate: missingHost,
  search: '',
  setSearch: missingHost,
};

/** A plain left click follows the link inside the SPA; any other (a new tab, a download) is the browser's. */
const followsInApp = (event: MouseEvent<HTMLAnchorElement>) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** The query string with one parameter set, or dropped (`null`), the others kept. */
const withParam = (search: string, name: string, value: string | null) => {
  const next = new URLSearchParams(search);
  if (value === null) next.delete(name);
  else next.set(name, value);
  const query = next.toString();
  return query ? `?${query}` : '';
};

/**
 * Two-step activation (SPEC sections 2 and 4). The step lives in the URL so the browser's Back
 * button returns to step 1; the verification answer lives only in memory, so a reload on step 2
 * asks the person to start over. It imports no router, no query client and no Amplify: its host
 * hands it those (ActivationHostContext). Pending and error states are plain React state; step 1's
 * call is retried once (verifyWithOneRetry), step 2 never (a retry would prompt the person again), and
 * a second press while one runs does nothing.
 */
export function ActivationPage() {
  const { completePasskeySignIn, navigate, search, setSearch, preloadAfterActivation } =
    use(ActivationHostContext) ?? NO_HOST;
  const params = new URLSearchParams(search);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState(() => formatActivationCode(params.get(CODE_PARAM) ?? ''));
  const [verification, setVerification] = useState<Verification | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<'verify' | 'activate' | null>(null);
  const running = useRef(false);
  const onPasskeyStep = params.get(STEP_PARAM) === PASSKEY_STEP;
  const linkCode = params.has(CODE_PARAM);

  // Once read into the form, the code leaves the address bar and the history entry, where a shared
  // screen or a synced browser history would otherwise keep a live credential.
  useEffect(() => {
    if (linkCode) setSearch(withParam(search, CODE_PARAM, null), { replace: true });
  }, [linkCode, search, setSearch]);

  // Step 2's own code first, then what the host needs once the passkey is made.
  useEffect(() => {
    if (!onPasskeyStep) return;
    loadActivation().then(
      () => preloadAfterActivation?.(),
      () => undefined,
    );
  }, [onPasskeyStep, preloadAfterActivation]);

  // A step that replaces the other takes the focus the pressed button had, so a screen reader says
  // where the person is: step 2's title after 'Verify Code', the email field after 'Back'.
  const shownStep = useRef(onPasskeyStep);
  useEffect(() => {
    if (shownStep.current === onPasskeyStep) return;
    shownStep.current = onPasskeyStep;
    document.getElementById(onPasskeyStep ? PASSKEY_STEP_TITLE : EMAIL_FIELD)?.focus();
  }, [onPasskeyStep]);

  const goToStep = (passkey: boolean) => {
    setError(null);
    setSearch(withParam(search, STEP_PARAM, passkey ? PASSKEY_STEP : null), { replace: !passkey });
  };

  /** Runs one call of the page: pending meanwhile, never two at once. */
  const run = async (which: 'verify' | 'activate', call: () => Promise<void>, fallback: string) => {
    if (running.current) return;
    running.current = true;
    setError(null);
    setPending(which);
    try {
      await call();
    } catch (failure) {
      setError(errorMessage(failure, fallback));
    } finally {
      running.current = false;
      setPending(null);
    }
  };

  const onVerify = () =>
    void run(
      'verify',
      async () => {
        const answer = await verifyWithOneRetry({ email, activationCode: code });
        if (!answer.valid) return setError(MESSAGES.invalidActivationCode);
        setVerification(answer);
        goToStep(true);
      },
      MESSAGES.invalidActivationCode,
    );

  const onCreatePasskey = () => {
    if (!verification) return setError(MESSAGES.verificationDataNotFound);
    void run(
      'activate',
      async () => {
        const { runActivation } = await loadActivation();
        await runActivation(
          { activation: { email, activationCode: code }, verification },
          completePasskeySignIn,
        );
        // Stays pending until the next screen is there (the host may still be fetching it).
        await navigate(paths.dashboard, { replace: true });
      },
      MESSAGES.noCredentialCreated,
    );
  };

  const onSignInLink = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!followsInApp(event)) return;
    event.preventDefault();
    void navigate(paths.signin, { replace: false });
  };

  return (
    <AuthLayout
      title="Activate Your Account"
      subtitle={onPasskeyStep ? 'Step 2 of 2' : 'Step 1 of 2: enter the email and code from your invitation.'}
      footer={
        <p>
          Already activated?{' '}
          <a href={paths.signin} onClick={onSignInLink}>
            Sign In
          </a>
        </p>
      }
    >
      {onPasskeyStep ? (
        <PasskeyStep
          email={email}
          onCreate={onCreatePasskey}
          onBack={() => goToStep(false)}
          busy={pending === 'activate'}
          error={error}
        />
      ) : (
        <CodeStep
          email={email}
          code={code}
          onEmailChange={setEmail}
          onCodeChange={setCode}
          onSubmit={onVerify}
          onIntent={preloadVerify}
          busy={pending === 'verify'}
          error={error}
        />
      )}
    </AuthLayout>
  );
}
