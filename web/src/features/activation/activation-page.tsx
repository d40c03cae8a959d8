import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MESSAGES } from '../../../../shared/messages';
import { formatActivationCode } from '../../../../shared/activation-code';
import { AuthLayout } from '../../components/auth-layout';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { useActivateWithPasskey, type Verification } from './api/register-passkey';
import { useVerifyActivation } from './api/verify-activation';
import { CodeStep } from './code-step';
import { PasskeyStep } from './passkey-step';

const CODE_PARAM = 'code';
const STEP_PARAM = 'step';
const PASSKEY_STEP = 'passkey';

/**
 * Two-step activation (SPEC sections 2 and 4). The step lives in the URL so the browser's Back
 * button returns to step 1; the verification answer lives only in memory, so a reload on step 2
 * asks the person to start over.
 */
export function ActivationPage() {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState(() => formatActivationCode(searchParams.get(CODE_PARAM) ?? ''));
  const [verification, setVerification] = useState<Verification | null>(null);
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyActivation();
  const activate = useActivateWithPasskey();
  const onPasskeyStep = searchParams.get(STEP_PARAM) === PASSKEY_STEP;

  // Once read into the form, the code leaves the address bar and the history entry, where a shared
  // screen or a synced browser history would otherwise keep a live credential.
  useEffect(() => {
    if (!searchParams.has(CODE_PARAM)) return;
    setSearchParams(
      (params) => {
        params.delete(CODE_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);

  const goToStep = (passkey: boolean) => {
    setError(null);
    setSearchParams(
      (params) => {
        if (passkey) params.set(STEP_PARAM, PASSKEY_STEP);
        else params.delete(STEP_PARAM);
        return params;
      },
      { replace: !passkey },
    );
  };

  const onVerify = () => {
    setError(null);
    verify.mutate(
      { email, activationCode: code },
      {
        onSuccess: (answer) => {
          if (!answer.valid) return setError(MESSAGES.invalidActivationCode);
          setVerification(answer);
          goToStep(true);
        },
        onError: (failure) => setError(errorMessage(failure, MESSAGES.invalidActivationCode)),
      },
    );
  };

  const onCreatePasskey = () => {
    setError(null);
    if (!verification) return setError(MESSAGES.verificationDataNotFound);
    activate.mutate(
      { activation: { email, activationCode: code }, verification },
      {
        onSuccess: () => void navigate(paths.dashboard, { replace: true }),
        onError: (failure) => setError(errorMessage(failure, MESSAGES.noCredentialCreated)),
      },
    );
  };

  return (
    <AuthLayout
      title="Activate Your Account"
      subtitle={onPasskeyStep ? 'Step 2 of 2' : 'Step 1 of 2: enter the email and code from your invitation.'}
      footer={
        <p>
          Already activated? <Link to={paths.signin}>Sign In</Link>
        </p>
      }
    >
      {onPasskeyStep ? (
        <PasskeyStep
          email={email}
          onCreate={onCreatePasskey}
          onBack={() => goToStep(false)}
          busy={activate.isPending}
          error={error}
        />
      ) : (
        <CodeStep
          email={email}
          code={code}
          onEmailChange={setEmail}
          onCodeChange={setCode}
          onSubmit={onVerify}
          busy={verify.isPending}
          error={error}
        />
      )}
    </AuthLayout>
  );
}
