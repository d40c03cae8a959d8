import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  UserPool,
  UserPoolClientIdentityProvider,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ROLE_GROUPS } from '../../shared/constants';

export interface PasskeyUserPoolProps {
  /** The three custom-auth triggers: the only way to sign in. */
  readonly triggers: {
    readonly defineAuthChallenge: IFunction;
    readonly createAuthChallenge: IFunction;
    readonly verifyAuthChallengeResponse: IFunction;
  };
  /**
   * Keep the pool when the stack is deleted and turn on Cognito deletion protection.
   * @default true
   */
  readonly retain?: boolean;
}

/**
 * The Cognito user pool for passkey-only sign-in. Users exist only when an admin's invitation is
 * activated (no self sign-up); they sign in by their opaque UUID username only, never by email, so
 * `InitiateAuth` cannot tell whether an email belongs to a member. The email is a required attribute
 * the user cannot change. The one app client can do nothing but the custom challenge flow and refresh.
 */
export class PasskeyUserPool extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: PasskeyUserPoolProps) {
    super(scope, id);
    const retain = props.retain ?? true;

    this.userPool = new UserPool(this, 'UserPool', {
      selfSignUpEnabled: false,
      // Username only. An email alias would let anyone holding the public client id ask
      // InitiateAuth(CUSTOM_AUTH, USERNAME=<email>) and tell members (a challenge naming their opaque
      // username) from non-members. The server finds accounts by email with ListUsers instead.
      // Sign-in aliases are fixed at creation: changing them replaces the pool.
      signInAliases: { username: true },
      signInCaseSensitive: false,
      // Mutable in the pool so an admin can correct it; the app client cannot write it (below).
      standardAttributes: { email: { required: true, mutable: true } },
      // No autoVerify: activation creates users with a verified email and no message, and nothing
      // makes Cognito send a verification code.
      // No passwords and no recovery by email or SMS: a lost passkey is replaced through a new invitation.
      accountRecovery: AccountRecovery.NONE,
      mfa: Mfa.OFF,
      // Never used for sign-in (the client cannot use password flows); strong anyway for the
      // temporary password Cognito generates when an admin creates a user.
      passwordPolicy: {
        minLength: 16,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(1),
      },
      featurePlan: FeaturePlan.ESSENTIALS,
      lambdaTriggers: props.triggers,
      deletionProtection: retain,
      removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });

    // Highest precedence first, as shared/constants.ts orders them.
    ROLE_GROUPS.forEach((groupName, precedence) => {
      this.userPool.addGroup(`Group-${groupName}`, { groupName, precedence });
    });

    this.client = this.userPool.addClient('WebClient', {
      // Exactly ALLOW_CUSTOM_AUTH; CDK adds ALLOW_REFRESH_TOKEN_AUTH whenever auth flows are set.
      authFlows: { custom: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // The SPA signs in through the API calls only; there is no hosted UI and no OAuth redirect.
      disableOAuth: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      authSessionValidity: Duration.minutes(3),
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(30),
      readAttributes: new ClientAttributes().withStandardAttributes({
        email: true,
        emailVerified: true,
        locale: true,
        timezone: true,
      }),
      // The email keys the invitation: only an admin may change it.
      writeAttributes: new ClientAttributes().withStandardAttributes({ locale: true, timezone: true }),
    });

    NagSuppressions.addResourceSuppressions(this.userPool, [
      {
        id: 'AwsSolutions-COG2',
        reason:
          'Sign-in is a passkey with user verification required: possession of the device plus its biometric or PIN is already two factors. There is no password to add a second factor to.',
      },
      {
        id: 'AwsSolutions-COG8',
        reason:
          'The Plus plan adds threat protection aimed at passwords (compromised credentials, adaptive MFA); this pool has no password sign-in. The passkey endpoints are rate-limited per IP by WAF and throttled per method instead. See docs/decisions/031-cdk-stack.md.',
      },
    ]);
  }
}
