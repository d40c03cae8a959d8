import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/alert';
import { EmptyState } from '../../../components/empty-state';
import { Modal } from '../../../components/overlay/modal';
import { errorMessage } from '../../../lib/errors';
import { useAssignCoach, useUnassignCoach } from '../api/assign-coach';
import type { UserEntry } from '../merge-entries';
import { UNASSIGN_COACH } from './user-actions';
import { busyButton } from '../../../lib/busy-button';

/** Not worded by SPEC-2 (docs/decisions/043-coaching-screens.md). */
const CHANGE_FAILED = 'Could not change the coach. Please try again.';
const NO_COACHES = 'No coaches yet. Invite someone with the Coach role first.';

export interface CoachChoice {
  userId: string;
  name: string;
  email: string;
  /** A disabled coach is named in the Coach column but offered to nobody. */
  disabled?: boolean;
}

interface AssignCoachModalProps {
  client: UserEntry;
  /** Members of `coaches`, the client left out. */
  coaches: readonly CoachChoice[];
  onClose: () => void;
  /** After the change and the list's refresh, with what to announce. */
  onDone: (status: string) => void;
}

/**
 * Picks the client's one coach, or takes the coach away ('Unassign'). A disabled client takes no coach
 * (the server refuses one): their dialog offers only 'Unassign', for a coach left from before.
 */
export function AssignCoachModal({ client, coaches, onClose, onDone }: AssignCoachModalProps) {
  const [coachId, setCoachId] = useState(client.coachId ?? '');
  const assign = useAssignCoach();
  const unassign = useUnassignCoach();
  const busy = assign.isPending || unassign.isPending;
  const error = assign.error ?? unassign.error;
  const who = client.name || client.email;
  const canAssign = client.status !== 'disabled';
  // Focus starts on the current coach, else on the first.
  const focusId = coaches.some((coach) => coach.userId === coachId) ? coachId : coaches[0]?.userId;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = coaches.find((coach) => coach.userId === coachId);
    if (!chosen || !canAssign) return;
    unassign.reset();
    assign.mutate(
      { userId: client.key, coachId: chosen.userId },
      { onSuccess: () => onDone(`${chosen.name || chosen.email} is now the coach of ${who}.`) },
    );
  };
  const remove = () => {
    assign.reset();
    unassign.mutate(client.key, { onSuccess: () => onDone(`${who} has no coach now.`) });
  };

  return (
    <Modal
      title={canAssign ? 'Assign coach' : UNASSIGN_COACH}
      description={
        canAssign
          ? `Choose the coach of ${who}.`
          : `${who} is disabled: enable them before assigning a coach.`
      }
      onClose={onClose}
      busy={busy}
    >
      <form className="form" onSubmit={submit}>
        {error && <Alert tone="error">{errorMessage(error, CHANGE_FAILED)}</Alert>}
        {!canAssign ? null : coaches.length ? (
          <fieldset className="fieldset">
            <legend>Coach</legend>
            <div className="choice-list">
              {coaches.map((coach) => (
                <label key={coach.userId} className="choice choice--card">
                  <input
                    type="radio"
                    name="assign-coach"
                    value={coach.userId}
                    checked={coachId === coach.userId}
                    onChange={() => setCoachId(coach.userId)}
                    data-autofocus={coach.userId === focusId || undefined}
                  />
                  <span>
                    <span className="choice__label">{coach.name || coach.email}</span>{' '}
                    <span className="choice__hint">{coach.email}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ) : (
          <EmptyState>{NO_COACHES}</EmptyState>
        )}
        <div className="form__actions">
          <button type="button" className="button button--secondary" {...busyButton(busy, onClose)}>
            Cancel
          </button>
          {client.coachId && (
            <button
              type="button"
              className="button button--danger"
              {...busyButton(busy, remove)}
              aria-busy={unassign.isPending}
            >
              {unassign.isPending ? 'Unassigning...' : 'Unassign'}
            </button>
          )}
          {canAssign && (
            <button
              type="submit"
              className="button button--primary"
              disabled={!busy && (!coachId || coachId === client.coachId)}
              {...busyButton(busy)}
              aria-busy={assign.isPending}
            >
              {assign.isPending ? 'Assigning...' : 'Assign'}
            </button>
          )}
        </div>
      </form>
    </Modal>
  );
}
