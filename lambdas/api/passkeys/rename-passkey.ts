/**
 * PATCH /v1/users/me/passkeys/{credentialId}: renames one of the caller's passkeys, only while the
 * caller's session still passes the session check when the rename commits.
 */
import { ACCOUNT_MESSAGES, renamePasskeyRequestSchema } from '../../../shared/account';
import { auditTransactItem, originOf } from '../../common/audit';
import { NotFound } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { toPasskey } from '../../common/passkey-view';
import { renamePasskey } from '../../common/repositories/passkeys';
import { whileSessionHolds } from '../../common/session';
import { couldBeCredentialId } from '../../common/webauthn';

export const handler = httpHandler(
  { auth: 'user', body: renamePasskeyRequestSchema },
  async ({ body, caller, pathParameters, event }) => {
    const credentialId = pathParameters.credentialId ?? '';
    // The rename and its event commit together: no rename goes unrecorded.
    const renamedEvent = auditTransactItem(originOf(event), {
      type: 'passkey.renamed',
      actorId: caller.sub,
      subjectId: caller.sub,
      details: { credentialId },
    });
    // Another person's credential id is simply not found, as is one no passkey can have.
    const renamed = couldBeCredentialId(credentialId)
      ? await renamePasskey(caller.sub, credentialId, body.name, [renamedEvent], whileSessionHolds(caller))
      : undefined;
    if (!renamed) throw new NotFound(ACCOUNT_MESSAGES.passkeyNotFound);
    return ok(toPasskey(renamed));
  },
);
