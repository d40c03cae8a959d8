/** PATCH /v1/users/me/passkeys/{credentialId}: renames one of the caller's passkeys. */
import { ACCOUNT_MESSAGES, renamePasskeyRequestSchema } from '../../../shared/account';
import { originOf, recordAudit } from '../../common/audit';
import { NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { toPasskey } from '../../common/passkey-view';
import { renamePasskey } from '../../common/repositories/passkeys';
import { couldBeCredentialId } from '../../common/webauthn';

export const handler = httpHandler(
  { auth: 'user', body: renamePasskeyRequestSchema },
  async ({ body, caller, pathParameters, event }) => {
    const credentialId = pathParameters.credentialId ?? '';
    // Another person's credential id is simply not found, as is one no passkey can have.
    const renamed = couldBeCredentialId(credentialId)
      ? await renamePasskey(caller.sub, credentialId, body.name)
      : undefined;
    if (!renamed) throw new NotFound(ACCOUNT_MESSAGES.passkeyNotFound);
    await recordAudit(originOf(event), {
      type: 'passkey.renamed',
      actorId: caller.sub,
      subjectId: caller.sub,
      details: { credentialId },
    });
    return ok(toPasskey(renamed));
  },
);
