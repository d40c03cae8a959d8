/*
 * One route module for the two admin pages, User Management and the Audit Log (one chunk: the entry's
 * preload map stays about as small as it was; docs/decisions/043-coaching-screens.md).
 */
import { AuditLogPage } from '../../features/audit/audit-log-page';

/** /dashboard/users. */
export { UserManagementPage } from '../../features/user-management/user-management-page';

/**
 * /dashboard/audit: the Audit Log names people from its own pages and searches the directory for its
 * Person filter, so it reads no user list (docs/decisions/058-admin-lists-at-scale.md).
 */
export function AuditRoute() {
  return <AuditLogPage />;
}
