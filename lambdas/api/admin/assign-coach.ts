/**
 * PUT /internal/v1/admin/users/{userId}/coach: makes `coachId` the coach of the client `userId`.
 * Both are checked against Cognito's groups and the activated profiles, never against the request:
 * the client must be an activated member of `users`, the coach an activated member of `coaches`. The
 * assignment commits only while both accounts are active and hold those roles, so it cannot land after
 * a role change that ended the coaching or a disable that began an erase
 * (docs/decisions/042-coaching-and-audit.md), and only while the acting admin is still an active admin, as every admin change (`commitAdminChange`): an admin disabled or
 * demoted after the session check cannot give a coach a client's data (403).
 */
import { assignCoachRequestSchema, COACHING_MESSAGES } from '../../../shared/coaching';
import type { RoleGroup } from '../../../shared/constants';
import { API_MESSAGES } from '../../../shared/messages';
import { userIdSchema } from '../../../shared/schemas';
import { auditTransactItem, originOf } from '../../common/audit';
import { findPoolMember } from '../../common/cognito-users';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { accountCheckItem, getAccountGate } from '../../common/repositories/accounts';
import { assignCoach, getClientCoach } from '../../common/repositories/coaching';
import { getProfileNames } from '../../common/repositories/profiles';

/** Two admins assigning at once: each attempt re-reads the state; the last one wins. */
const ATTEMPTS = 3;

export const handler = httpHandler(
  { auth: 'admin', body: assignCoachRequestSchema },
  async ({ body, caller, pathParameters, event }) => {
    const userId = pathParameters.userId ?? '';
    if (!userIdSchema.safeParse(userId).success) throw new NotFound(COACHING_MESSAGES.userNotFound);
    if (body.coachId === userId) throw new BadRequest(COACHING_MESSAGES.selfCoaching);

    const [client, coach, profiles] = await Promise.all([
      findPoolMember(userId),
      findPoolMember(body.coachId),
      // Only people who completed activation (they have a profile) count.
      getProfileNames([userId, body.coachId]),
    ]);
    if (!client || !profiles.has(userId)) throw new NotFound(COACHING_MESSAGES.userNotFound);
    if (!client.groups.includes('users')) throw new BadRequest(COACHING_MESSAGES.notAClient);
    if (!coach?.groups.includes('coaches') || !profiles.has(body.coachId))
      throw new BadRequest(COACHING_MESSAGES.notACoach);

    // The acting admin may be the coach or the client too: one check per person.
    const needs = new Map<string, RoleGroup[]>();
    const need = (id: string, role: RoleGroup) => needs.set(id, [...(needs.get(id) ?? []), role]);
    need(caller.sub, 'admins');
    need(userId, 'users');
    need(body.coachId, 'coaches');
    // Everyone active at commit (a disabled person, or one being erased, which disables first, is no
    // client and no coach): checked when the transaction fails, below.
    const guards = [...needs].map(([id, roles]) => accountCheckItem(id, { roles, active: true }));
    const origin = originOf(event);
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const previous = await getClientCoach(userId);
      const audit = auditTransactItem(origin, {
        type: 'coach.assigned',
        actorId: caller.sub,
        subjectId: userId,
        details: {
          coachId: body.coachId,
          ...(previous?.coachId !== undefined && { previousCoachId: previous.coachId }),
        },
      });
      if (await assignCoach(userId, body.coachId, previous, new Date().toISOString(), audit, guards))
        return ok({ userId, coachId: body.coachId });
      // A role changed since the groups were read: refused as if it had changed before.
      const [actorAccount, clientAccount, coachAccount] = await Promise.all([
        getAccountGate(caller.sub),
        getAccountGate(userId),
        getAccountGate(body.coachId),
      ]);
      if (!(actorAccount?.status === 'active' && actorAccount.roles.includes('admins')))
        throw new Forbidden(API_MESSAGES.forbidden);
      if (!clientAccount?.roles.includes('users')) throw new BadRequest(COACHING_MESSAGES.notAClient);
      if (!coachAccount?.roles.includes('coaches')) throw new BadRequest(COACHING_MESSAGES.notACoach);
      if (clientAccount.status !== 'active') throw new BadRequest(COACHING_MESSAGES.clientDisabled);
      if (coachAccount.status !== 'active') throw new BadRequest(COACHING_MESSAGES.coachDisabled);
    }
    throw new Conflict(COACHING_MESSAGES.assignmentChanged);
  },
);
