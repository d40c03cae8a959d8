import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ACCOUNT_LABELS, ACCOUNT_MESSAGES } from '../../../../../shared/account';
import { TextField } from '../../../components/form-field';
import { FormActions } from '../../../components/form-actions';
import { Modal } from '../../../components/overlay/modal';
import { useSignOutToSignIn } from '../../../lib/auth/use-sign-out';
import { useDeleteAccount } from '../api/delete-account';
import { signalAccountGone } from '../passkey-signal';
import { ProfileSection } from '../profile-view';
import { PasskeyActionError } from './passkey-action-error';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const WHAT_GOES =
  'This erases your account and everything it holds: your profile, health records, passkeys and coach notes. It cannot be undone.';
const DELETE_FAILED = 'Could not delete your account. Please try again.';

/** The confirmation: the button stays disabled until the typed email matches (case aside). */
function DeleteAccountModal({ email, onClose }: { email: string; onClose: () => void }) {
  const [typed, setTyped] = useState('');
  const remove = useDeleteAccount();
  const signOutToSignIn = useSignOutToSignIn();
  const queryClient = useQueryClient();
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches) return;
    // The account is gone once the server says so, whether or not this dialog is still here (the
    // page may have been left): the promise, unlike mutate's callbacks, outlives the component.
    remove.mutateAsync(typed.trim()).then(
      async () => {
        // Advice to the browser: the sign-out does not wait on it.
        void signalAccountGone(queryClient);
        await signOutToSignIn();
      },
      () => undefined, // shown by the alert below
    );
  };
  // A deletion in flight cannot be called back: the dialog stays until it is done.
  const close = () => {
    if (!remove.isPending) onClose();
  };

  return (
    <Modal title={ACCOUNT_LABELS.deleteMyAccount} description={WHAT_GOES} onClose={close}>
      <form className="form" onSubmit={submit}>
        {remove.isError && <PasskeyActionError error={remove.error} fallback={DELETE_FAILED} />}
        <TextField
          id="delete-account-email"
          label="Your email address"
          hint={`${ACCOUNT_MESSAGES.confirmEmail} (${email})`}
          type="email"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          data-autofocus
        />
        <FormActions
          onCancel={close}
          submitLabel={ACCOUNT_LABELS.deleteMyAccount}
          busyLabel="Deleting..."
          busy={remove.isPending}
          disabled={!matches}
          tone="danger"
        />
      </form>
    </Modal>
  );
}

/** 'Delete my account' (SPEC-2 section 3.4): erases everything, then signs out. */
export function DeleteAccount({ email }: { email: string }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <ProfileSection title={ACCOUNT_LABELS.deleteMyAccount}>
      <p className="muted">{WHAT_GOES}</p>
      <div>
        <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
          {ACCOUNT_LABELS.deleteMyAccount}
        </button>
      </div>
      {confirming && <DeleteAccountModal email={email} onClose={() => setConfirming(false)} />}
    </ProfileSection>
  );
}
