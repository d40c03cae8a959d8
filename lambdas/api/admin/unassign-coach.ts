/**
 * DELETE /internal/v1/admin/users/{userId}/coach: the client has no coach any more. The coach loses
 * access on their next request (every client route reads the assignment). 204 also when there was
 * no coach; 404 for an id that is nobody. The unassignment commits only while the acting admin is
 * still an active admin, as every admin change (`whileStillAdmin`): an admin disabled or demoted
 * after the session check changes nothing (403).
 */
import { COACHING_MESSAGES } from '../../../shared/coaching';
import { userIdSchema } from '../../../shared/schemas';
import { whileStillAdmin } from '../../common/account-admin';
import { auditTransactItem, originOf } from '../../common/audit';
import { findPoolMember } from '../../common/cognito-users';
import { Conflict, NotFound } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { getClientCoach, unassignCoach } from '../../common/repositories/coaching';

const ATTEMPTS = 3;

export const handler = httpHandler({ auth: 'admin' }, async ({ caller, pathParameters, event }) => {
  const userId = pathParameters.userId ?? '';
  if (!userIdSchema.safeParse(userId).success) throw new NotFound(COACHING_MESSAGES.userNotFound);
  const origin = originOf(event);
  const actor = whileStillAdmin(caller.sub);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const state = await getClientCoach(userId);
    if (state?.coachId === undefined) {
      if (!(await findPoolMember(userId))) throw new NotFound(COACHING_MESSAGES.userNotFound);
      return noContent();
    }
    const audit = auditTransactItem(origin, {
      type: 'coach.unassigned',
      actorId: caller.sub,
      subjectId: userId,
      details: { coachId: state.coachId },
    });
    if (await unassignCoach(userId, state.coachId, audit, actor)) return noContent();
  }
  throw new Conflict(COACHING_MESSAGES.assignmentChanged);
});
