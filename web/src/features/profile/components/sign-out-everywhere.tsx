import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { FormActions } from '../../../components/form-actions';
import { Modal } from '../../../components/overlay/modal';
import { useSignOutToSignIn } from '../../../lib/auth/use-sign-out';
import { errorMessage } from '../../../lib/errors';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';
import { ProfileSection } from '../profile-view';

/** Not worded by SPEC-2 (docs/decisions/048-sessions-that-end.md). */
export const SIGN_OUT_EVERYWHERE = 'Sign out everywhere';
export const SIGN_OUT_EVERYWHERE_TEXT =
  'Signed in on a phone or computer you no longer have? This ends every session of yours, on every device, this one included. Your passkeys keep working.';
const SIGN_OUT_EVERYWHERE_FAILED = 'Could not sign you out everywhere. Please try again.';

function SignOutEverywhereModal({ onClose }: { onClose: () => void }) {
  const end = useSignOutEverywhere();
  const signOutToSignIn = useSignOutToSignIn();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Signs this browser out once the server has ended the sessions, even if the dialog is gone by
    // then: the promise, unlike mutate's callbacks, outlives the component.
    end.mutateAsync().then(
      () => signOutToSignIn(),
      () => undefined, // shown by the alert below
    );
  };
  // Ending the sessions cannot be called back: the dialog stays until it is done.
  const close = () => {
    if (!end.isPending) onClose();
  };
  return (
    <Modal title={`${SIGN_OUT_EVERYWHERE}?`} description={SIGN_OUT_EVERYWHERE_TEXT} onClose={close}>
      <form className="form" onSubmit={submit}>
        {end.isError && <Alert tone="error">{errorMessage(end.error, SIGN_OUT_EVERYWHERE_FAILED)}</Alert>}
        <FormActions
          onCancel={close}
          submitLabel={SIGN_OUT_EVERYWHERE}
          busyLabel="Signing out..."
          busy={end.isPending}
          tone="danger"
        />
      </form>
    </Modal>
  );
}

/** Ends every session of the person at once (a lost phone, a shared computer). */
export function SignOutEverywhere() {
  const [confirming, setConfirming] = useState(false);
  return (
    <ProfileSection title="Sessions">
      <p className="muted">{SIGN_OUT_EVERYWHERE_TEXT}</p>
      <div>
        <button type="button" className="button button--secondary" onClick={() => setConfirming(true)}>
          {SIGN_OUT_EVERYWHERE}
        </button>
      </div>
      {confirming && <SignOutEverywhereModal onClose={() => setConfirming(false)} />}
    </ProfileSection>
  );
}
