import { queryOptions, useQuery } from '@tanstack/react-query';
import { adminUserListSchema, type AdminUserListItem } from '../../../../../shared/schemas';
import { apiRequest } from '../../../lib/api-client';

export const usersQueryKey = ['admin', 'users'] as const;

/** Where one person's admin routes live (coach, roles, recovery, disable, enable, delete). */
export const adminUserPath = (userId: string): string =>
  `/internal/v1/admin/users/${encodeURIComponent(userId)}`;

export const getUsers = async (): Promise<AdminUserListItem[]> =>
  (await apiRequest('/internal/v1/admin/users', { schema: adminUserListSchema })).users;

export const usersQueryOptions = () => queryOptions({ queryKey: usersQueryKey, queryFn: getUsers });

export const useUsers = () => useQuery(usersQueryOptions());
