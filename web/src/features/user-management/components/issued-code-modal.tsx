import { ACCOUNT_LABELS } from '../../../../../shared/account';
import { Alert } from '../../../components/alert';
import { Modal } from '../../../components/overlay/modal';
import { Spinner } from '../../../components/spinner';
import { ApiError } from '../../../lib/api-error';
import { useSignOutToSignIn } from '../../../lib/auth/use-sign-out';
import { errorMessage } from '../../../lib/errors';
import { IssuedCode } from './issued-code';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const ISSUING = 'Issuing a new code...';
const ISSUE_FAILED = 'Could not issue a new code. Please try again.';

interface IssuedCodeModalProps {
  title: string;
  email: string;
  /** Shown above the code once it is there. */
  heading: string;
  note?: string | undefined;
  /** The call that issues the code, as it stands. */
  issuing: {
    isPending: boolean;
    error: unknown;
    data?: { activationCode: string; expiresAt?: string | undefined } | undefined;
  };
  onClose: () => void;
}

/** 'Reset access' and 'Resend': waits for the new code, then shows it as a new invitation's is shown. */
export function IssuedCodeModal({ title, email, heading, note, issuing, onClose }: IssuedCodeModalProps) {
  const signOutToSignIn = useSignOutToSignIn();
  return (
    <Modal title={title} onClose={onClose}>
      {issuing.data ? (
        <IssuedCode
          email={email}
          activationCode={issuing.data.activationCode}
          expiresAt={issuing.data.expiresAt}
          heading={heading}
          note={note}
          onDone={onClose}
        />
      ) : issuing.isPending || !issuing.error ? (
        <Spinner label={ISSUING} />
      ) : (
        <Alert tone="error">
          <p>{errorMessage(issuing.error, ISSUE_FAILED)}</p>
          {/* A 401 here is a sign-in too old to reset access (the session's end is handled by the API client). */}
          {issuing.error instanceof ApiError && issuing.error.status === 401 && (
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => void signOutToSignIn()}
            >
              {ACCOUNT_LABELS.signInAgain}
            </button>
          )}
          <button type="button" className="button button--secondary button--small" onClick={onClose}>
            Close
          </button>
        </Alert>
      )}
    </Modal>
  );
}
