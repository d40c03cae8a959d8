/**
 * GET /v1/coach/clients: the caller's clients with what My Clients shows: last entry, readings outside
 * target in the last 7 days, and whether one came in since this coach's last note (Pending Reviews).
 * All of it from the clients' state items (found with one Query of `byCoach`, then read consistently,
 * 100 a call) and their profiles (100 a call): no entry is read.
 * The list shows health-derived counts, so it is recorded like any read of client data, and answered
 * only while the coach's session still passes the session check when the event commits.
 */
import type { CoachClient } from '../../../shared/coaching';
import { personFrom } from '../../common/coaching';
import { originOf, recordAudit } from '../../common/audit';
import { httpHandler, ok } from '../../common/http';
import { whileSessionHolds } from '../../common/session';
import {
  findCoachClientIds,
  outOfTargetInWindow,
  readCoachClientStates,
} from '../../common/repositories/coaching';
import { getProfileNames } from '../../common/repositories/profiles';

export const handler = httpHandler({ auth: 'coach' }, async ({ caller, event }) => {
  const clientIds = await findCoachClientIds(caller.sub);
  // The names are read beside the states; only the clients whose state names the caller are shown.
  const [states, profiles] = await Promise.all([
    readCoachClientStates(caller.sub, clientIds),
    getProfileNames(clientIds),
  ]);
  const now = new Date();
  const clients: CoachClient[] = states.flatMap((state) => {
    const person = personFrom(state.clientId, profiles.get(state.clientId));
    if (!person) return [];
    const pendingReview =
      state.lastOutOfTargetAt !== undefined &&
      (state.lastNoteAt === undefined || state.lastOutOfTargetAt > state.lastNoteAt);
    return [
      {
        ...person,
        ...(state.lastEntryAt !== undefined && { lastEntryAt: state.lastEntryAt }),
        outOfTarget7d: outOfTargetInWindow(state, now),
        pendingReview,
      },
    ];
  });
  if (clients.length > 0)
    await recordAudit(
      originOf(event),
      {
        type: 'client.data.read',
        actorId: caller.sub,
        details: { read: 'client-list', clientIds: clients.map((client) => client.userId) },
      },
      // A coach disabled, demoted or signed out while the list was read is shown nothing (401).
      { onlyIf: whileSessionHolds(caller) },
    );
  return ok({ clients });
});
