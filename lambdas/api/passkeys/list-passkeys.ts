/**
 * GET /v1/users/me/passkeys: the caller's passkeys, oldest first, with the account's WebAuthn user
 * handle, so the SPA can tell the browser which passkeys still work after any change (Signal API).
 */
import { httpHandler, ok } from '../../common/http';
import { listedPasskeys } from '../../common/passkey-view';
import { getAccount } from '../../common/repositories/accounts';

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  const account = await getAccount(caller.sub);
  return ok({
    passkeys: await listedPasskeys(account?.credentialIds ?? []),
    ...(account && { userHandle: account.userHandle }),
  });
});
