import { ACCOUNT_LABELS } from '../../../../../shared/account';
import { isInvitation, type UserEntry } from '../merge-entries';
import { busyButton } from '../../../lib/busy-button';

/** What a row's action under way is, so its buttons wait and say so. */
export type PendingAction = 'delete' | 'status' | 'resend';

export interface RowActions {
  onAssignCoach: (entry: UserEntry) => void;
  onChangeRoles: (entry: UserEntry) => void;
  onResetAccess: (entry: UserEntry) => void;
  /** Disable an active person, enable a disabled one. */
  onToggleStatus: (entry: UserEntry) => void;
  onDeleteUser: (entry: UserEntry) => void;
  onResend: (entry: UserEntry) => void;
  onDeleteInvitation: (entry: UserEntry) => void;
  /** Rows (by key) with an action under way. */
  pending: ReadonlyMap<string, PendingAction>;
}

/** The coach action of a disabled client who still has a coach (decision 045, 2026-11-27). */
export const UNASSIGN_COACH = 'Unassign coach';

/** Only a person who is a member of `users` has a coach (SPEC-2 section 2). */
export const isClient = (entry: UserEntry): boolean => !isInvitation(entry) && entry.roles.includes('user');

interface ActionProps {
  label: string;
  /** The accessible name starts with the visible words (WCAG 2.5.3), then says whose row. */
  email: string;
  onClick: () => void;
  danger?: boolean;
  busy?: string | false;
  disabled: boolean;
}

function Action({ label, email, onClick, danger = false, busy = false, disabled }: ActionProps) {
  return (
    <button
      type="button"
      className={`button button--small ${danger ? 'button--danger' : 'button--secondary'}`}
      aria-label={`${busy || label} ${email}`}
      {...busyButton(disabled, onClick)}
    >
      {busy || label}
    </button>
  );
}

/** A row's actions, wrapping within the column so the table stays narrow on a phone. */
export function UserActions({ entry, actions }: { entry: UserEntry; actions: RowActions }) {
  const pending = actions.pending.get(entry.key);
  const common = { email: entry.email, disabled: pending !== undefined };
  if (isInvitation(entry)) {
    return (
      <div className="row-actions">
        <Action
          {...common}
          label={ACCOUNT_LABELS.resend}
          busy={pending === 'resend' && 'Resending...'}
          onClick={() => actions.onResend(entry)}
        />
        <Action
          {...common}
          email={`invitation for ${entry.email}`}
          label={ACCOUNT_LABELS.delete}
          busy={pending === 'delete' && 'Deleting...'}
          danger
          onClick={() => actions.onDeleteInvitation(entry)}
        />
      </div>
    );
  }
  const deleteAction = (
    <Action
      {...common}
      label={ACCOUNT_LABELS.delete}
      busy={pending === 'delete' && 'Deleting...'}
      danger
      onClick={() => actions.onDeleteUser(entry)}
    />
  );
  // A delete cut short: nothing may be changed or undone (decision 044); Delete finishes it now.
  if (entry.status === 'deleting') return <div className="row-actions">{deleteAction}</div>;
  const disabled = entry.status === 'disabled';
  return (
    <div className="row-actions">
      {/* A disabled person takes no coach (the server refuses); a coach left from before a disable ended
          coaching (decision 042) can still be unassigned. */}
      {isClient(entry) && (!disabled || entry.coachId !== undefined) && (
        <Action
          {...common}
          label={disabled ? UNASSIGN_COACH : 'Assign coach'}
          email={`for ${entry.email}`}
          onClick={() => actions.onAssignCoach(entry)}
        />
      )}
      <Action {...common} label={ACCOUNT_LABELS.changeRoles} onClick={() => actions.onChangeRoles(entry)} />
      {/* A disabled account takes no new passkey (decision 044): enabled first, then reset. */}
      {!disabled && (
        <Action {...common} label={ACCOUNT_LABELS.resetAccess} onClick={() => actions.onResetAccess(entry)} />
      )}
      <Action
        {...common}
        label={disabled ? ACCOUNT_LABELS.enable : ACCOUNT_LABELS.disable}
        busy={pending === 'status' && (disabled ? 'Enabling...' : 'Disabling...')}
        onClick={() => actions.onToggleStatus(entry)}
      />
      {deleteAction}
    </div>
  );
}
