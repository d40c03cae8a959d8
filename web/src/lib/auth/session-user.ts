import type { Role } from '../../../../shared/constants';
import { rolesFromClaim } from '../../../../shared/roles';

/** The signed-in person as the SPA knows them (SPEC section 3, "Session user"). */
export interface SessionUser {
  /** Cognito username (an opaque UUID), falling back to `sub`. */
  username: string;
  /** Cognito `sub`; the profile's userId. */
  userId: string;
  email: string;
  roles: Role[];
}

/** What a passkey ceremony hands over: the server's answer to verify-webauthn or register-passkey. */
export interface PasskeyProof {
  userId: string;
  cognitoUsername: string;
  passkeyProof: string;
}

/** A session user from id token claims: email from `email`, roles from `cognito:groups`. */
export const sessionUserFromClaims = (claims: Record<string, unknown>): SessionUser => {
  const text = (key: string) => (typeof claims[key] === 'string' ? claims[key] : '');
  return {
    username: text('cognito:username') || text('sub'),
    userId: text('sub'),
    email: text('email'),
    roles: rolesFromClaim(claims['cognito:groups']),
  };
};

export const hasAnyRole = (user: Pick<SessionUser, 'roles'>, roles: readonly Role[]): boolean =>
  roles.some((role) => user.roles.includes(role));
