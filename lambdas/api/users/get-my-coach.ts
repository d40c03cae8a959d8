/** GET /v1/users/me/coach: the caller's coach (or null) and the notes written to them, newest first. */
import type { MyCoach } from '../../../shared/coaching';
import { coachOf } from '../../common/coaching';
import { httpHandler, ok } from '../../common/http';
import { listNotes } from '../../common/repositories/coaching';

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  const [coach, notes] = await Promise.all([coachOf(caller.sub), listNotes(caller.sub)]);
  const answer: MyCoach = { coach, notes };
  return ok(answer);
});
