import { useState, type FormEvent } from 'react';
import { ACCOUNT_LABELS, ACCOUNT_MESSAGES, confirmRolesEndCoaching } from '../../../../../shared/account';
import { ROLE_GROUPS, type RoleGroup } from '../../../../../shared/constants';
import { MESSAGES } from '../../../../../shared/messages';
import { roleOfGroup } from '../../../../../shared/roles';
import { Alert } from '../../../components/alert';
import { FormActions } from '../../../components/form-actions';
import { Modal } from '../../../components/overlay/modal';
import { useSessionUser } from '../../../lib/auth/auth-provider';
import { useSignOutToSignIn } from '../../../lib/auth/use-sign-out';
import { errorMessage } from '../../../lib/errors';
import { useChangeRoles } from '../api/change-roles';
import type { UserEntry } from '../merge-entries';
import { inGroupOrder, RoleChoiceList } from './role-choice-list';

/** Not worded by SPEC-2 (docs/decisions/045-account-screens.md). */
const CHANGE_FAILED = 'Could not change the roles. Please try again.';
const TAKES_EFFECT = 'They are asked to sign in again before the change takes effect.';
/** On one's own row: the change ends one's own session too (decision 044), so it is said first and done on purpose. */
const OWN_TAKES_EFFECT = 'You are signed out when your roles change, and sign in again to use them.';

interface ChangeRolesModalProps {
  person: UserEntry;
  onClose: () => void;
  /** After the change, with what to announce. */
  onDone: (status: string) => void;
}

/**
 * 'Change roles': any non-empty set of the three roles; the server's refusal shows here. An admin
 * changing their own roles is told first that it signs them out, and is taken to sign-in once it is done.
 */
export function ChangeRolesModal({ person, onClose, onDone }: ChangeRolesModalProps) {
  const { userId } = useSessionUser();
  const own = userId === person.key;
  const signOutToSignIn = useSignOutToSignIn();
  const current = ROLE_GROUPS.filter((group) => person.roles.includes(roleOfGroup(group)));
  const [chosen, setChosen] = useState<RoleGroup[]>(current);
  const change = useChangeRoles(userId);
  const unchanged = chosen.length === current.length && current.every((group) => chosen.includes(group));

  const toggle = (group: RoleGroup) =>
    setChosen((groups) =>
      inGroupOrder(groups.includes(group) ? groups.filter((g) => g !== group) : [...groups, group]),
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen.length) return;
    // The server ends the coaching the new roles no longer allow (decision 042): asked first, as a
    // disable of a coached client is.
    const ends = {
      coach: person.coachId !== undefined && current.includes('users') && !chosen.includes('users'),
      clients: current.includes('coaches') && !chosen.includes('coaches'),
    };
    if ((ends.coach || ends.clients) && !window.confirm(confirmRolesEndCoaching(person.email, ends))) return;
    change.mutate(
      { userId: person.key, roles: chosen },
      {
        onSuccess: () => (own ? void signOutToSignIn() : onDone(`Roles of ${person.email} changed.`)),
      },
    );
  };

  return (
    <Modal
      title={ACCOUNT_LABELS.changeRoles}
      description={own ? `Your roles. ${OWN_TAKES_EFFECT}` : `Roles of ${person.email}. ${TAKES_EFFECT}`}
      onClose={onClose}
      busy={change.isPending}
    >
      <form className="form" onSubmit={submit}>
        {change.isError && <Alert tone="error">{errorMessage(change.error, CHANGE_FAILED)}</Alert>}
        <RoleChoiceList
          type="checkbox"
          name="change-roles"
          chosen={chosen}
          onToggle={toggle}
          hint={chosen.length ? undefined : ACCOUNT_MESSAGES.atLeastOneRole}
        />
        <FormActions
          onCancel={onClose}
          submitLabel="Save roles"
          busyLabel={MESSAGES.saving}
          busy={change.isPending}
          disabled={!chosen.length || unchanged}
        />
      </form>
    </Modal>
  );
}
