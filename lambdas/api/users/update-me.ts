/**
 * PUT /v1/users/me: updates the caller's own profile. Only the profile-update schema is accepted
 * (unknown keys are a 400); the email may be sent, as onboarding does, but not changed. The change
 * commits only while the caller's session still passes the session check, as every write a person
 * makes: a sign-out, disable or delete that committed after the request was checked refuses it (401).
 */
import { API_MESSAGES } from '../../../shared/messages';
import { profileUpdateSchema } from '../../../shared/schemas';
import { BadRequest, NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { getProfile, updateProfile } from '../../common/repositories/profiles';
import { whileSessionHolds } from '../../common/session';

export const handler = httpHandler({ auth: 'user', body: profileUpdateSchema }, async ({ body, caller }) => {
  const { email, ...changes } = body;
  if (email !== undefined) {
    const current = await getProfile(caller.sub);
    if (!current) throw new NotFound(API_MESSAGES.profileNotFound);
    if (email.toLowerCase() !== current.email.toLowerCase()) throw new BadRequest(API_MESSAGES.emailChange);
  }
  const updated = await updateProfile(
    caller.sub,
    changes,
    new Date().toISOString(),
    whileSessionHolds(caller),
  );
  if (!updated) throw new NotFound(API_MESSAGES.profileNotFound);
  return ok(updated);
});
