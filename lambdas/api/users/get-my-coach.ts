/** GET /v1/users/me/coach: the caller's coach (or null) and the notes written to them, newest first. */
import type { MyCoach } from '../../../shared/coaching';
import { getPerson } from '../../common/coaching';
import { httpHandler, ok } from '../../common/http';
import { getClientCoach, listNotes } from '../../common/repositories/coaching';

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  const [state, notes] = await Promise.all([getClientCoach(caller.sub), listNotes(caller.sub)]);
  const coach = state?.coachId !== undefined ? await getPerson(state.coachId) : undefined;
  const answer: MyCoach = { coach: coach ?? null, notes };
  return ok(answer);
});
