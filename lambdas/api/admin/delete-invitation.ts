/** DELETE /internal/v1/admin/invitations/{email}: deletes a pending invitation; activated ones stay. */
import { API_MESSAGES } from '../../../shared/messages';
import { normalizedEmailSchema } from '../../../shared/schemas';
import { BadRequest, Conflict, NotFound } from '../../common/errors';
import { httpHandler, noContent } from '../../common/http';
import { deletePendingInvitation } from '../../common/repositories/invitations';

const decode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

export const handler = httpHandler({ auth: 'admin' }, async ({ pathParameters }) => {
  const parsed = normalizedEmailSchema.safeParse(decode(pathParameters.email ?? ''));
  if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? API_MESSAGES.invalidRequest);
  const outcome = await deletePendingInvitation(parsed.data);
  if (outcome === 'not-found') throw new NotFound(API_MESSAGES.invitationNotFound);
  if (outcome === 'activated') throw new Conflict(API_MESSAGES.invitationActivated);
  return noContent();
});
