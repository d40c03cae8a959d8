import { queryOptions, useQuery } from '@tanstack/react-query';
import { noteListSchema, type CoachNote } from '../../../../../shared/coaching';
import { apiRequest } from '../../../lib/api-client';
import { cacheOf, clientRecords } from '../../health/api/record-source';

export const clientNotesQueryKey = (userId: string) => ['coach', 'notes', userId] as const;

export const clientNotesPath = (userId: string): string => `${clientRecords(userId).basePath}/notes`;

/** The notes written to a client, newest first; only that client's coach may read them (else 403). */
export const getClientNotes = async (userId: string): Promise<CoachNote[]> =>
  (await apiRequest(clientNotesPath(userId), { schema: noteListSchema })).notes;

/** Dropped from the cache once no screen shows them, as the client's records are (`clientRecords`). */
export const clientNotesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: clientNotesQueryKey(userId),
    queryFn: () => getClientNotes(userId),
    ...cacheOf(clientRecords(userId)),
  });

export const useClientNotes = (userId: string) => useQuery(clientNotesQueryOptions(userId));
