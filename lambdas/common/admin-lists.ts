/**
 * The admin lists of User Management, one page at a time (issue 12, docs/decisions/058-admin-lists-at-scale.md):
 * each page is one Query of one directory index, then one BatchGetItem each for the page's names and
 * coaches and one for the counts, whatever the number of people. Cognito is not read: everything the
 * list shows is in DynamoDB.
 */
import type {
  AdminUserList,
  AdminUserListQuery,
  InvitationList,
  InvitationListQuery,
} from '../../shared/directory';
import type { AdminUserListItem } from '../../shared/schemas';
import { decodeCursor, encodeCursor, type PageKey } from './cursor';
import { toInvitation } from './invitation-view';
import { getCoachIds } from './repositories/coaching';
import { getDirectoryCounts, queryDirectoryPage, type DirectoryPageQuery } from './repositories/directory';
import type { AccountRecord } from './repositories/accounts';
import type { InvitationRecord } from './repositories/invitations';
import { getProfileNames, namesOf } from './repositories/profiles';

type Plan = Pick<DirectoryPageQuery, 'index' | 'partition' | 'emailPrefix' | 'filters'>;

/** The index that serves a people query; a second filter becomes a FilterExpression. */
const peoplePlan = ({ status, role, q }: Omit<AdminUserListQuery, 'limit' | 'cursor'>): Plan => {
  const statusFilter = status ? [['status', status] as const] : [];
  const roleFilter = role ? [['dirCoach', role] as const] : [];
  if (q !== undefined)
    return {
      index: 'byEmail',
      partition: ['dir', 'people'],
      emailPrefix: q,
      filters: [...statusFilter, ...roleFilter],
    };
  if (role) return { index: 'byCoachRole', partition: ['dirCoach', role], filters: statusFilter };
  if (status) return { index: 'byStatus', partition: ['status', status] };
  return { index: 'byCreated', partition: ['dir', 'people'] };
};

const invitationPlan = ({ status, q }: Omit<InvitationListQuery, 'limit' | 'cursor'>): Plan => {
  if (q !== undefined)
    return status
      ? { index: 'byStateEmail', partition: ['state', status], emailPrefix: q }
      : { index: 'byEmail', partition: ['dir', 'invitations'], emailPrefix: q };
  return status
    ? { index: 'byState', partition: ['state', status] }
    : { index: 'byCreated', partition: ['dir', 'invitations'] };
};

/** Reads one page of a list; the cursor works only for this admin and this query (else a 400). */
const readPage = async (
  viewerId: string,
  list: string,
  table: DirectoryPageQuery['table'],
  query: { limit: number; cursor?: string },
  filters: object,
  plan: Plan,
  projection: readonly string[],
) => {
  const scope = `${list} ${JSON.stringify(filters)}`;
  const start = query.cursor !== undefined ? decodeCursor(viewerId, scope, query.cursor) : undefined;
  const page = await queryDirectoryPage({ table, ...plan, limit: query.limit, start, projection });
  const next = (last: PageKey | undefined) => last && { nextCursor: encodeCursor(viewerId, scope, last) };
  return { items: page.items, ...next(page.last) };
};

const PEOPLE_PROJECTION = ['userId', 'email', 'roles', 'status', 'createdAt', 'erasing'] as const;
type ListedAccount = Pick<AccountRecord, (typeof PEOPLE_PROJECTION)[number]>;

/** `GET /internal/v1/admin/users`: one page of people, with the directory's counts. */
export const listPeople = async (viewerId: string, query: AdminUserListQuery): Promise<AdminUserList> => {
  const { limit, cursor, ...filters } = query;
  const [page, counts] = await Promise.all([
    readPage(
      viewerId,
      'people',
      'accounts',
      { limit, cursor },
      filters,
      peoplePlan(filters),
      PEOPLE_PROJECTION,
    ),
    getDirectoryCounts(),
  ]);
  const accounts = page.items as unknown as ListedAccount[];
  const ids = accounts.map((account) => account.userId);
  const [names, coaches] = await Promise.all([getProfileNames(ids), getCoachIds(ids)]);
  const users = accounts.map((account): AdminUserListItem => {
    const profile = names.get(account.userId);
    const coachId = coaches.get(account.userId);
    return {
      userId: account.userId,
      email: account.email,
      ...(profile && namesOf(profile)),
      roles: account.roles,
      createdAt: account.createdAt,
      ...(coachId !== undefined && { coachId }),
      status: account.status,
      ...(account.erasing !== undefined && { beingDeleted: true }),
    };
  });
  return { users, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }), counts };
};

const INVITATION_PROJECTION = [
  'email',
  'activationCode',
  'codeUsed',
  'roles',
  'createdAt',
  'usedBy',
  'expiresAt',
] as const;

/** `GET /internal/v1/admin/invitations`: one page of invitations. */
export const listInvitationPage = async (
  viewerId: string,
  query: InvitationListQuery,
): Promise<InvitationList> => {
  const { limit, cursor, ...filters } = query;
  const page = await readPage(
    viewerId,
    'invitations',
    'invitations',
    { limit, cursor },
    filters,
    invitationPlan(filters),
    INVITATION_PROJECTION,
  );
  return {
    invitations: (page.items as unknown as InvitationRecord[]).map(toInvitation),
    ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
  };
};
