/**
 * The coaching verbs the handlers share. Whether the caller is a client's coach is read from the
 * data on every request (the client's state item, read consistently), never from anything the
 * request carries, so an unassigned coach is refused on the very next call.
 */
import type { AuditDetailValue } from '../../shared/audit';
import { COACHING_MESSAGES, type Person } from '../../shared/coaching';
import { userIdSchema } from '../../shared/schemas';
import { recordAudit, originOf } from './audit';
import { Forbidden } from './errors';
import type { Caller } from './http';
import { getClientState } from './repositories/coaching';
import { getProfileNames, personOf, type ProfileNames } from './repositories/profiles';
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** The client id of a client route, once the caller is that client's coach right now; else 403. */
export const requireCoachOf = async (caller: Caller, clientId: string | undefined): Promise<string> => {
  if (!userIdSchema.safeParse(clientId).success || clientId === undefined)
    throw new Forbidden(COACHING_MESSAGES.notYourClient);
  const state = await getClientState(clientId);
  if (state?.coachId !== caller.sub) throw new Forbidden(COACHING_MESSAGES.notYourClient);
  return clientId;
};

/**
 * Records that the coach read a client's data: the read is answered only once this is written
 * (`recordAudit` answers 503 otherwise). Details name what was read and how much, never a value.
 */
export const recordClientRead = (
  event: APIGatewayProxyEvent,
  coachId: string,
  clientId: string,
  details: Record<string, AuditDetailValue>,
): Promise<void> =>
  recordAudit(originOf(event), { type: 'client.data.read', actorId: coachId, subjectId: clientId, details });

export const personFrom = (userId: string, profile: ProfileNames | undefined): Person | undefined =>
  profile && personOf(userId, profile);

/** One person's email and names from their profile. */
export const getPerson = async (userId: string): Promise<Person | undefined> =>
  personFrom(userId, (await getProfileNames([userId])).get(userId));
