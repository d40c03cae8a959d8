import { useMutation, useQueryClient } from '@tanstack/react-query';
import { coachNoteSchema, createNoteRequestSchema, type CoachNote } from '../../../../../shared/coaching';
import { apiRequest, readAgainIfSent, validateRequest } from '../../../lib/api-client';
import { idempotencyKeyFor } from '../../../lib/idempotency';
import { clientNotesPath, clientNotesQueryKey } from './get-client-notes';
import { coachClientsQueryKey, invalidateEvents } from '../../../lib/query-keys';

export interface CreateNoteInput {
  userId: string;
  text: string;
}

/** Answers the stored note (201). The text is checked with the server's schema before it leaves. */
export const createClientNote = (input: CreateNoteInput): Promise<CoachNote> =>
  apiRequest(clientNotesPath(input.userId), {
    method: 'POST',
    body: validateRequest(createNoteRequestSchema, { text: input.text }),
    schema: coachNoteSchema,
    // The retry of SPEC section 9 sends the same key: a lost answer does not store the note twice.
    idempotencyKey: idempotencyKeyFor(input),
  });

/**
 * A note clears the client's Pending Review, so My Clients refreshes with the thread. Refused, both are
 * read again too: a refusal may mean the client was taken from this coach meanwhile, which the
 * thread's read then says.
 */
export const useCreateClientNote = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClientNote,
    onSettled: (_note, error, { userId }) =>
      readAgainIfSent(error, () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: clientNotesQueryKey(userId) }),
          queryClient.invalidateQueries({ queryKey: coachClientsQueryKey }),
          invalidateEvents(queryClient),
        ]),
      ),
  });
};
