/**
 * GET /v1/users/me: the caller's own profile, keyed by the verified token's `sub`; read alongside the
 * session check and answered only once it has passed.
 */
import { API_MESSAGES } from '../../../shared/messages';
import { NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { getProfile } from '../../common/repositories/profiles';

export const handler = httpHandler({ auth: 'user', ownReadOnly: true }, async ({ caller }) => {
  const profile = await getProfile(caller.sub);
  if (!profile) throw new NotFound(API_MESSAGES.profileNotFound);
  return ok(profile);
});
