/**
 * GET /internal/v1/admin/audit: one page of the audit log, newest first, filtered by subject, actor,
 * type and time; `nextCursor` continues the same query for the same admin only. The page names its
 * actors and subjects (one BatchGetItem of their profiles), so the Audit Log reads no user list
 * (docs/decisions/058-admin-lists-at-scale.md).
 */
import { auditListQuerySchema, type AuditEvent, type AuditPerson } from '../../../shared/audit';
import { httpHandler, ok } from '../../common/http';
import { listAuditEvents } from '../../common/repositories/audit-events';
import { getProfileNames, personOf } from '../../common/repositories/profiles';

/** The people the events name who still have a profile (an erased person stays an id on screen). */
const peopleNamedBy = async (events: readonly AuditEvent[]): Promise<AuditPerson[]> => {
  const ids = new Set(events.flatMap(({ actorId, subjectId }) => [actorId ?? [], subjectId ?? []].flat()));
  const names = await getProfileNames([...ids]);
  return [...names].map(([userId, profile]) => personOf(userId, profile));
};

export const handler = httpHandler(
  { auth: 'admin', query: auditListQuerySchema },
  async ({ query, caller }) => {
    const page = await listAuditEvents(caller.sub, query);
    return ok({ ...page, people: await peopleNamedBy(page.events) });
  },
);
