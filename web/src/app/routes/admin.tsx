/*
 * One route module for the two admin pages that read the admin user list, User Management and the
 * Audit Log (one chunk: the entry's preload map stays about as small as it was;
 * docs/decisions/043-coaching-screens.md).
 */
import { AuditLogPage } from '../../features/audit/audit-log-page';
import type { KnownPerson } from '../../features/audit/people';
import { useUsers } from '../../features/user-management/api/get-users';

/** /dashboard/users. */
export { UserManagementPage } from '../../features/user-management/user-management-page';

const NOBODY: readonly KnownPerson[] = [];

/**
 * /dashboard/audit: joins the admin user list (user management's query, shared in the cache) to the
 * Audit Log, which names people with it and offers them as a filter.
 */
export function AuditRoute() {
  const users = useUsers();
  return <AuditLogPage people={users.data ?? NOBODY} />;
}
