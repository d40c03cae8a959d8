/**
 * The query keys a change in one feature marks stale in another's cache, and the one invalidation
 * several features share. Kept apart from the features' reads, so that marking data stale loads none
 * of their code and no feature imports another for it.
 */
import type { QueryClient } from '@tanstack/react-query';

/** User Management's people (every list, search and the coach picker). */
export const usersQueryKey = ['admin', 'users'] as const;
/** The Audit Log, every filter. */
export const auditQueryKey = ['admin', 'audit'] as const;
/** 'Recent activity' on the Profile page. */
export const myActivityQueryKey = ['profile', 'activity'] as const;
/** My Coach: the signed-in client's coach and notes. */
export const myCoachQueryKey = ['coaching', 'me'] as const;
/** My Clients: the signed-in coach's clients. */
export const coachClientsQueryKey = ['coach', 'clients'] as const;

/**
 * After an action of the signed-in person that wrote an audit event: 'Recent activity' (their own
 * security events, on the Profile page) and, for an admin, the Audit Log read it when next shown,
 * not after their 60 s of freshness. Neither is cached for someone who cannot open it.
 */
export const invalidateEvents = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: myActivityQueryKey }),
    queryClient.invalidateQueries({ queryKey: auditQueryKey }),
  ]);
