import type { QueryClient } from '@tanstack/react-query';
import { myActivityQueryKey } from '../../profile/api/get-my-activity';
import { auditQueryKey } from './get-audit-events';

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
