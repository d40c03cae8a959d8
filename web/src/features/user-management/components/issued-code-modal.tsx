import { Alert } from '../../../components/alert';
import { Modal } from '../../../components/overlay/modal';
import { SignInAgain } from '../../../components/sign-in-again';
import { Spinner } from '../../../components/spinner';
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
          <SignInAgain error={issuing.error} />
          <button type="button" className="button button--secondary button--small" onClick={onClose}>
            Close
          </button>
        </Alert>
      )}
    </Modal>
  );
}
