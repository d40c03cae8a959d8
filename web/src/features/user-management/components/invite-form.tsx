import { useState, type FormEvent } from 'react';
import type { RoleGroup } from '../../../../../shared/constants';
import { MESSAGES } from '../../../../../shared/messages';
import { roleOfGroup } from '../../../../../shared/roles';
import type { Invitation } from '../../../../../shared/schemas';
import { Alert } from '../../../components/alert';
import { errorMessage } from '../../../lib/errors';
import { ROLE_LABELS } from '../../../lib/role-labels';
import { useCreateInvitation } from '../api/create-invitation';

const ROLE_CHOICES: readonly { group: RoleGroup; hint: string }[] = [
  { group: 'users', hint: 'A client who tracks their health with a coach.' },
  { group: 'coaches', hint: 'Works with clients and assessments.' },
  { group: 'admins', hint: 'Manages users and settings.' },
];

interface InviteFormProps {
  onCreated: (invitation: Invitation) => void;
  onCancel: () => void;
}

/** Email and one role (User by default); the submit stays disabled until there is an email. */
export function InviteForm({ onCreated, onCancel }: InviteFormProps) {
  const [email, setEmail] = useState('');
  const [group, setGroup] = useState<RoleGroup>('users');
  const create = useCreateInvitation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ email: email.trim(), roles: [group] }, { onSuccess: onCreated });
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
      <fieldset className="fieldset">
        <legend>Role</legend>
        <div className="choice-list">
          {ROLE_CHOICES.map((choice) => (
            <label key={choice.group} className="choice choice--card">
              <input
                type="radio"
                name="invite-role"
                value={choice.group}
                checked={group === choice.group}
                onChange={() => setGroup(choice.group)}
              />
              <span>
                <span className="choice__label">{ROLE_LABELS[roleOfGroup(choice.group)]}</span>
                <span className="choice__hint">{choice.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="button button--primary"
          disabled={!email.trim() || create.isPending}
          aria-busy={create.isPending}
        >
          {create.isPending ? MESSAGES.creating : 'Create Invitation'}
        </button>
      </div>
    </form>
  );
}
