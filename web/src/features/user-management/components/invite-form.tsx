import { useState, type FormEvent } from 'react';
import type { RoleGroup } from '../../../../../shared/constants';
import { MESSAGES } from '../../../../../shared/messages';
import { Alert } from '../../../components/alert';
import { FormActions } from '../../../components/form-actions';
import { errorMessage } from '../../../lib/errors';
import type { useCreateInvitation } from '../api/create-invitation';
import { RoleChoiceList } from './role-choice-list';

interface InviteFormProps {
  /** The dialog's create mutation: the dialog shows its answer, and stays open while it is pending. */
  create: ReturnType<typeof useCreateInvitation>;
  onCancel: () => void;
}

/** Email and one role (User by default); the submit stays disabled until there is an email. */
export function InviteForm({ create, onCancel }: InviteFormProps) {
  const [email, setEmail] = useState('');
  const [group, setGroup] = useState<RoleGroup>('users');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ email: email.trim(), roles: [group] });
  };

  return (
    <form className="form" onSubmit={submit}>
      {create.isError && (
        <Alert tone="error">{errorMessage(create.error, MESSAGES.createInvitationFallback)}</Alert>
      )}
      <div className="field">
        <label htmlFor="invite-email">Email address</label>
        <input
          id="invite-email"
          type="email"
          required
          autoComplete="off"
          data-autofocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <RoleChoiceList type="radio" name="invite-role" chosen={[group]} onToggle={setGroup} />
      <FormActions
        onCancel={onCancel}
        submitLabel="Create Invitation"
        busyLabel={MESSAGES.creating}
        busy={create.isPending}
        disabled={!email.trim()}
      />
    </form>
  );
}
