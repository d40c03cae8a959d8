/**
 * The coaching verbs the handlers share. Whether the caller is a client's coach is read from the
 * data on every request (the client's state item and account, read consistently), never from anything
 * the request carries, so an unassigned coach is refused on the very next call.
 */
import type { AuditDetailValue } from '../../shared/audit';
import { COACHING_MESSAGES, type Person } from '../../shared/coaching';
import { canonicalRoles } from '../../shared/roles';
import { userIdSchema } from '../../shared/schemas';
import { auditTransactItem, originOf, recordAudit, type RequestOrigin } from './audit';
import { Conflict, Forbidden, Unauthorized } from './errors';
import type { Caller } from './http';
import { accountCheckItem, getAccountGate } from './repositories/accounts';
import {
  coachOfCheckItem,
  findAllCoachClientIds,
  getClientCoach,
  noCoachCheckItem,
  unassignCoach,
  unassignItems,
} from './repositories/coaching';
import { getProfileNames, personOf, type ProfileNames } from './repositories/profiles';
import { whileSessionHolds } from './session';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { TransactItem } from './aws';

/**
 * The client id of a client route, once the caller is that client's coach right now and the client
 * is still an active member of `users`; else 403. The account is read with the assignment: a role
 * change or a disable ends the coaching the moment it commits, before any unassignment written after
 * it, and a client disabled before the disable ended coaching (0.6.0) is nobody's client either
 * (docs/decisions/042-coaching-and-audit.md).
 */
export const requireCoachOf = async (caller: Caller, clientId: string | undefined): Promise<string> => {
  if (!userIdSchema.safeParse(clientId).success || clientId === undefined)
    throw new Forbidden(COACHING_MESSAGES.notYourClient);
  const [state, client] = await Promise.all([getClientCoach(clientId), getAccountGate(clientId)]);
  if (
    state?.coachId !== caller.sub ||
    client?.status !== 'active' ||
    !canonicalRoles(client.roles).includes('users')
  )
    throw new Forbidden(COACHING_MESSAGES.notYourClient);
  return clientId;
};

/** Why a coach was unassigned when no admin unassigned them as such: the event's reason code. */
export type UnassignReason = 'coach-deleted' | 'roles-changed' | 'account-disabled' | 'account-deleted';

const unassignedEvent = (
  origin: RequestOrigin,
  actorId: string,
  clientId: string,
  coachId: string,
  reason: UnassignReason,
) =>
  auditTransactItem(origin, {
    type: 'coach.unassigned',
    actorId,
    subjectId: clientId,
    details: { coachId, reason },
  });

/**
 * The transaction items that end `clientId`'s coaching together with the change they are committed
 * with (a role change taking `users` away): the coach read now removed, with its `coach.unassigned`
 * event; with no coach, a check that none was assigned meanwhile. So no moment exists, however short,
 * in which the state names a coach of someone who is no longer a client.
 */
export const endCoachingItems = async (
  clientId: string,
  origin: RequestOrigin,
  actorId: string,
  reason: UnassignReason,
): Promise<TransactItem[]> => {
  const coachId = (await getClientCoach(clientId))?.coachId;
  return coachId === undefined
    ? [noCoachCheckItem(clientId)]
    : [...unassignItems(clientId, coachId), unassignedEvent(origin, actorId, clientId, coachId, reason)];
};

const ATTEMPTS = 3;

/**
 * Unassigns the coach of `clientId` (only when it is `onlyCoachId`, if given), reading the state
 * consistently before each attempt, so it is done once the client has no such coach; a 409 when the
 * state kept changing.
 */
export const unassignCoachOf = async (
  clientId: string,
  origin: RequestOrigin,
  actorId: string,
  reason: UnassignReason,
  onlyCoachId?: string,
): Promise<void> => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const coachId = (await getClientCoach(clientId))?.coachId;
    if (coachId === undefined || (onlyCoachId !== undefined && coachId !== onlyCoachId)) return;
    const event = unassignedEvent(origin, actorId, clientId, coachId, reason);
    if (await unassignCoach(clientId, coachId, event)) return;
  }
  throw new Conflict(COACHING_MESSAGES.assignmentChanged);
};

/**
 * Unassigns every client of `coachId`, each in one transaction with its `coach.unassigned` event. The
 * clients are found through the coach's client items, read consistently (an assignment committed a
 * moment before is never missed, as it could be by `byCoach`, which lags its table in AWS), and through
 * `byCoach` too, for assignments made before those items were kept (`findAllCoachClientIds`). A
 * cancelled one (the client's coach changed meanwhile, or it collided with their health writes) is read
 * again and tried again while the state still names this coach (`unassignCoachOf`): done once no client
 * found has this coach, else a 409 (the caller's work is tried again: a retry of the role change, the
 * next run of FinishErases). The clients keep their records and notes.
 */
export const unassignClientsOf = async (
  coachId: string,
  origin: RequestOrigin,
  actorId: string,
  reason: UnassignReason,
): Promise<void> => {
  for (const clientId of await findAllCoachClientIds(coachId)) {
    const event = unassignedEvent(origin, actorId, clientId, coachId, reason);
    if (!(await unassignCoach(clientId, coachId, event)))
      await unassignCoachOf(clientId, origin, actorId, reason, coachId);
  }
};

/**
 * Records that the coach read a client's data, after the read and before it is answered: committed
 * only while the caller's session still passes the session check (else 401: a disable, delete, role
 * change or sign-out overtook the read), the caller is still the client's coach and the client still
 * an active member of `users` (else 403: an unassignment, a role change, a disable or an erase
 * overtook it). A refused read leaves no event, and every read answered happened while the coaching
 * and the coach's session held.
 * 503 when the event cannot be written otherwise. Details name what was read and how much, never a value.
 */
export const recordClientRead = (
  event: APIGatewayProxyEvent,
  coach: Caller,
  clientId: string,
  details: Record<string, AuditDetailValue>,
): Promise<void> => {
  const session = whileSessionHolds(coach);
  return recordAudit(
    originOf(event),
    { type: 'client.data.read', actorId: coach.sub, subjectId: clientId, details },
    {
      onlyIf: {
        checks: [
          ...session.checks,
          coachOfCheckItem(clientId, coach.sub),
          accountCheckItem(clientId, { roles: ['users'], active: true }),
        ],
        refused: (failed) =>
          failed(0) ? session.refused(failed) : new Forbidden(COACHING_MESSAGES.notYourClient),
      },
    },
  );
};

/**
 * Clients one event of the client list names: a DynamoDB transaction holds at most 100 items, and
 * each of the list's holds its event and the coach's session check besides one check per client.
 */
export const CLIENTS_PER_LIST_EVENT = 98;

/** A list's transaction cancelled because one of its clients is no longer the coach's. */
class ListChanged extends Error {}

/**
 * Records the coach's read of their client list, after the states were read and before it is answered:
 * one `client.data.read` event per `CLIENTS_PER_LIST_EVENT` clients (in parallel), each committed only
 * while the coach's session still passes the session check (else 401, as for any read) and every
 * client it names is still this coach's (`coachOfCheckItem`). Answers the ids of the clients whose
 * event did not commit because one of them was unassigned or reassigned meanwhile: the caller reads
 * their states again and records those still the coach's. 503 when an event cannot be written otherwise.
 */
export const recordClientListRead = async (
  event: APIGatewayProxyEvent,
  coach: Caller,
  clientIds: readonly string[],
): Promise<string[]> => {
  const session = whileSessionHolds(coach);
  const origin = originOf(event);
  const parts: string[][] = [];
  for (let start = 0; start < clientIds.length; start += CLIENTS_PER_LIST_EVENT)
    parts.push(clientIds.slice(start, start + CLIENTS_PER_LIST_EVENT));
  const recorded = await Promise.allSettled(
    parts.map((part) =>
      recordAudit(
        origin,
        { type: 'client.data.read', actorId: coach.sub, details: { read: 'client-list', clientIds: part } },
        {
          onlyIf: {
            checks: [...session.checks, ...part.map((clientId) => coachOfCheckItem(clientId, coach.sub))],
            refused: (failed) => (failed(0) ? session.refused(failed) : new ListChanged()),
          },
        },
      ),
    ),
  );
  // recordAudit rejects with an Error only (its refusals, or the 503).
  const failures = recorded.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as Error] : [],
  );
  // The session's refusal first, then any other failure (503); a list changed meanwhile is read again.
  const refusal =
    failures.find((reason) => reason instanceof Unauthorized) ??
    failures.find((reason) => !(reason instanceof ListChanged));
  if (refusal !== undefined) throw refusal;
  return parts.flatMap((part, index) => (recorded[index]?.status === 'rejected' ? part : []));
};

export const personFrom = (userId: string, profile: ProfileNames | undefined): Person | undefined =>
  profile && personOf(userId, profile);

/** One person's email and names from their profile. */
export const getPerson = async (userId: string): Promise<Person | undefined> =>
  personFrom(userId, (await getProfileNames([userId])).get(userId));

/** The client's coach as My Coach names them; null for none. */
export const coachOf = async (clientId: string): Promise<Person | null> => {
  const state = await getClientCoach(clientId);
  if (state?.coachId === undefined) return null;
  return (await getPerson(state.coachId)) ?? null;
};
