/**
 * The route manifest: every Lambda of the product, its entry file, and what it may touch.
 * The CDK stack builds functions, routes and least-privilege grants from it; the local API server
 * routes to the same handler modules. Entry paths are relative to the repository root.
 */
import type { TableKey } from '../shared/tables';

export type Access = 'read' | 'readWrite';
export type AuthLevel = 'public' | 'user' | 'admin';

export interface FunctionDefinition {
  /** Stable id used for construct ids and function names. */
  readonly id: string;
  /** Handler file, relative to the repository root; the handler export is `handler`. */
  readonly entry: string;
  readonly tables: Partial<Record<TableKey, Access>>;
  /** Cognito user-pool actions the function calls (IAM action names without the prefix). */
  readonly cognitoActions: readonly string[];
  /** Whether the function signs WebAuthn ceremonies (needs RP id, name and origins). */
  readonly webauthn?: boolean;
}

export interface RouteDefinition extends FunctionDefinition {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** API Gateway resource path; `{name}` marks a path parameter. */
  readonly path: string;
  readonly auth: AuthLevel;
}

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'VerifyActivation',
    method: 'POST',
    path: '/v1/auth/verify-activation',
    auth: 'public',
    entry: 'lambdas/api/auth/verify-activation.ts',
    tables: { invitations: 'readWrite', authChallenges: 'readWrite' },
    cognitoActions: ['AdminCreateUser', 'AdminGetUser'],
    webauthn: true,
  },
  {
    id: 'RegisterPasskey',
    method: 'POST',
    path: '/v1/auth/register-passkey',
    auth: 'public',
    entry: 'lambdas/api/auth/register-passkey.ts',
    tables: {
      invitations: 'readWrite',
      authChallenges: 'readWrite',
      passkeys: 'readWrite',
      profiles: 'readWrite',
    },
    cognitoActions: ['AdminAddUserToGroup'],
    webauthn: true,
  },
  {
    id: 'InitiateSignin',
    method: 'POST',
    path: '/v1/auth/initiate-signin',
    auth: 'public',
    entry: 'lambdas/api/auth/initiate-signin.ts',
    tables: { authChallenges: 'readWrite' },
    cognitoActions: [],
    webauthn: true,
  },
  {
    id: 'VerifyWebauthn',
    method: 'POST',
    path: '/v1/auth/verify-webauthn',
    auth: 'public',
    entry: 'lambdas/api/auth/verify-webauthn.ts',
    tables: { authChallenges: 'readWrite', passkeys: 'readWrite' },
    cognitoActions: [],
    webauthn: true,
  },
  {
    id: 'GetMe',
    method: 'GET',
    path: '/v1/users/me',
    auth: 'user',
    entry: 'lambdas/api/users/get-me.ts',
    tables: { profiles: 'read' },
    cognitoActions: [],
  },
  {
    id: 'UpdateMe',
    method: 'PUT',
    path: '/v1/users/me',
    auth: 'user',
    entry: 'lambdas/api/users/update-me.ts',
    tables: { profiles: 'readWrite' },
    cognitoActions: [],
  },
  {
    id: 'ListInvitations',
    method: 'GET',
    path: '/internal/v1/admin/invitations',
    auth: 'admin',
    entry: 'lambdas/api/admin/list-invitations.ts',
    tables: { invitations: 'read' },
    cognitoActions: [],
  },
  {
    id: 'CreateInvitation',
    method: 'POST',
    path: '/internal/v1/admin/invitations',
    auth: 'admin',
    entry: 'lambdas/api/admin/create-invitation.ts',
    tables: { invitations: 'readWrite' },
    cognitoActions: ['ListUsers'],
  },
  {
    id: 'DeleteInvitation',
    method: 'DELETE',
    path: '/internal/v1/admin/invitations/{email}',
    auth: 'admin',
    entry: 'lambdas/api/admin/delete-invitation.ts',
    tables: { invitations: 'readWrite' },
    // Removes the user a never-completed activation reserved, so the email can be invited again.
    cognitoActions: ['AdminDeleteUser'],
  },
  {
    id: 'ListUsers',
    method: 'GET',
    path: '/internal/v1/admin/users',
    auth: 'admin',
    entry: 'lambdas/api/admin/list-users.ts',
    tables: { profiles: 'read' },
    cognitoActions: ['ListUsers', 'ListUsersInGroup'],
  },
];

/** The Cognito custom-auth triggers. */
export const TRIGGERS = {
  defineAuthChallenge: {
    id: 'DefineAuthChallenge',
    entry: 'lambdas/cognito/define-auth-challenge.ts',
    tables: {},
    cognitoActions: [],
  },
  createAuthChallenge: {
    id: 'CreateAuthChallenge',
    entry: 'lambdas/cognito/create-auth-challenge.ts',
    tables: {},
    cognitoActions: [],
  },
  verifyAuthChallengeResponse: {
    id: 'VerifyAuthChallengeResponse',
    entry: 'lambdas/cognito/verify-auth-challenge.ts',
    tables: { authChallenges: 'readWrite' },
    cognitoActions: [],
  },
} as const satisfies Record<string, FunctionDefinition>;
