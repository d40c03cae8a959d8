/**
 * POST /v1/users/me/passkeys/options: registration options for another passkey of the caller, under
 * their WebAuthn user handle, excluding every passkey they have. The challenge is stored for them.
 * A person who has `MAX_PASSKEYS` already is told so before their device makes one (409).
 */
import { ACCOUNT_MESSAGES } from '../../../shared/account';
import { MAX_PASSKEYS, REGISTRATION_CHALLENGE_TTL_SECONDS } from '../../../shared/constants';
import { Conflict, Unauthorized } from '../../common/errors';
import { httpHandler, ok } from '../../common/http';
import { requireRecentSignIn } from '../../common/session';
import { getAccount } from '../../common/repositories/accounts';
import { expiresIn, putPasskeyChallenge } from '../../common/repositories/auth-challenges';
import { registrationOptionsFor } from '../../common/webauthn';

export const handler = httpHandler({ auth: 'user' }, async ({ caller }) => {
  requireRecentSignIn(caller);
  const account = await getAccount(caller.sub);
  if (!account) throw new Unauthorized();
  if ((account.credentialIds?.size ?? 0) >= MAX_PASSKEYS)
    throw new Conflict(ACCOUNT_MESSAGES.tooManyPasskeys);
  const options = await registrationOptionsFor({
    userHandle: account.userHandle,
    email: account.email,
    exclude: [...(account.credentialIds ?? [])],
    anyAuthenticator: true,
  });
  await putPasskeyChallenge(caller.sub, options.challenge, expiresIn(REGISTRATION_CHALLENGE_TTL_SECONDS));
  return ok(options);
});
