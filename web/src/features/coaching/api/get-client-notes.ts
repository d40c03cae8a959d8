import { queryOptions, useQuery } from '@tanstack/react-query';
import { noteListSchema, type CoachNote } from '../../../../../shared/coaching';
import { apiRequest } from '../../../lib/api-client';

export const clientNotesQueryKey = (userId: string) => ['coach', 'notes', userId] as const;

export const clientNotesPath = (userId: string): string =>
  `/v1/coach/clients/${encodeURIComponent(userId)}/notes`;

/** The notes written to a client, newest first; only that client's coach may read them (else 403). */
export const getClientNotes = async (userId: string): Promise<CoachNote[]> =>
  (await apiRequest(clientNotesPath(userId), { schema: noteListSchema })).notes;

/** Dropped from the cache once no screen shows them, as the client's records are (`clientRecords`). */
export const clientNotesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: clientNotesQueryKey(userId), queryFn: () => getClientNotes(userId), gcTime: 0 });

export const useClientNotes = (userId: string) => useQuery(clientNotesQueryOptions(userId));
