/**
 * GET /v1/coach/clients: the caller's clients with what My Clients shows: last entry, readings outside
 * target in the last 7 days, and whether one came in since this coach's last note (Pending Reviews).
 * All of it from the clients' state items (found with one Query of `byCoach`, then read consistently,
 * 100 a call) and their profiles (100 a call): no entry is read.
 * The list shows health-derived counts, so it is recorded like any read of client data, and answered
 * only while the coach's session still passes the session check and every client listed is still the
 * coach's when its event commits (`recordClientListRead`); a client unassigned meanwhile is read again.
 */
import { COACHING_MESSAGES, type CoachClient } from '../../../shared/coaching';
import { personFrom, recordClientListRead } from '../../common/coaching';
import { Conflict } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import {
  findCoachClientIds,
  outOfTargetInWindow,
  readCoachClientStates,
  type ClientState,
} from '../../common/repositories/coaching';
import { getProfileNames } from '../../common/repositories/profiles';

/** Rounds of reading again the clients whose event was cancelled by an unassignment, before a 409. */
const ATTEMPTS = 3;

export const handler = httpHandler({ auth: 'coach' }, async ({ caller, event }) => {
  const clientIds = await findCoachClientIds(caller.sub);
  // The names are read beside the states; only the clients whose state names the caller are shown.
  const [states, profiles] = await Promise.all([
    readCoachClientStates(caller.sub, clientIds),
    getProfileNames(clientIds),
  ]);
  const now = new Date();
  const shown = (read: readonly ClientState[]): CoachClient[] =>
    read.flatMap((state) => {
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
  // Each client is answered only once an event naming them committed while they were still the
  // caller's; those of an event cancelled by an unassignment are read again, and the rest kept.
  const clients: CoachClient[] = [];
  let unrecorded = shown(states);
  for (let attempt = 1; unrecorded.length > 0; attempt += 1) {
    const changed = new Set(
      await recordClientListRead(
        event,
        caller,
        unrecorded.map((client) => client.userId),
      ),
    );
    clients.push(...unrecorded.filter((client) => !changed.has(client.userId)));
    if (changed.size === 0) break;
    if (attempt >= ATTEMPTS) throw new Conflict(COACHING_MESSAGES.assignmentChanged);
    unrecorded = shown(await readCoachClientStates(caller.sub, [...changed]));
  }
  // In the order byCoach found them, however many rounds it took.
  const order = new Map(clientIds.map((clientId, index) => [clientId, index]));
  clients.sort((a, b) => (order.get(a.userId) ?? 0) - (order.get(b.userId) ?? 0));
  return ok({ clients });
});
