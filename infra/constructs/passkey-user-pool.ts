import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  LambdaVersion,
  Mfa,
  UserPool,
  UserPoolClientIdentityProvider,
  UserPoolOperation,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ROLE_GROUPS } from '../../shared/constants';
import {
  ACCESS_TOKEN_VALIDITY_MINUTES,
  AUTH_SESSION_VALIDITY_MINUTES,
  ID_TOKEN_VALIDITY_MINUTES,
  REFRESH_TOKEN_GRACE_SECONDS,
  REFRESH_TOKEN_VALIDITY_DAYS,
} from '../../shared/session-policy';
import { USER_POOL_REQUESTS_PER_IP_PER_5_MIN, WAF_WINDOW_SECONDS } from './waf-limits';

export interface PasskeyUserPoolProps {
  /** The three custom-auth triggers: the only way to sign in. */
  readonly triggers: {
    readonly defineAuthChallenge: IFunction;
    readonly createAuthChallenge: IFunction;
    readonly verifyAuthChallengeResponse: IFunction;
  };
  /**
   * The pre token generation trigger, run with the V2_0 event (access tokens too; the Essentials plan):
   * it takes Cognito's self-service scope out of the access tokens (decision 063).
   */
  readonly preTokenGeneration: IFunction;
  /**
   * Keep the pool when the stack is deleted and turn on Cognito deletion protection.
   * @default true
   */
  readonly retain?: boolean;
  /**
   * Requests one IP may make to the pool's public API in 5 minutes before WAF blocks it.
   * @default USER_POOL_REQUESTS_PER_IP_PER_5_MIN (waf-limits.ts)
   */
  readonly requestsPerIpPer5Min?: number;
}

/**
 * The Cognito user pool for passkey-only sign-in. Users exist only when an admin's invitation is
 * activated (no self sign-up); they sign in by their opaque UUID username only, never by email, so
 * `InitiateAuth` cannot tell whether an email belongs to a member. The email is a required attribute
 * the user cannot change. The one app client can do nothing but the custom challenge flow and refresh,
 * with short-lived tokens and rotating refresh tokens (`shared/session-policy.ts`). A regional WAF web
 * ACL limits, per IP, the calls anyone holding the public client id can make to the pool.
 */
export class PasskeyUserPool extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;
  readonly webAcl: CfnWebACL;

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

    // `lambdaTriggers.preTokenGeneration` would send the V1_0 event, which cannot change access tokens.
    this.userPool.addTrigger(
      UserPoolOperation.PRE_TOKEN_GENERATION_CONFIG,
      props.preTokenGeneration,
      LambdaVersion.V2_0,
    );

    // Highest precedence first, as shared/constants.ts orders them.
    ROLE_GROUPS.forEach((groupName, precedence) => {
      this.userPool.addGroup(`Group-${groupName}`, { groupName, precedence });
    });

    this.client = this.userPool.addClient('WebClient', {
      // Exactly ALLOW_CUSTOM_AUTH. CDK adds ALLOW_REFRESH_TOKEN_AUTH to the flows unless refresh-token
      // rotation is on: Cognito refuses REFRESH_TOKEN_AUTH on a rotating client, whose refreshes go
      // through GetTokensFromRefreshToken (what Amplify v6 calls), which needs no auth flow.
      authFlows: { custom: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // The SPA signs in through the API calls only; there is no hosted UI and no OAuth redirect.
      disableOAuth: true,
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      authSessionValidity: Duration.minutes(AUTH_SESSION_VALIDITY_MINUTES),
      idTokenValidity: Duration.minutes(ID_TOKEN_VALIDITY_MINUTES),
      accessTokenValidity: Duration.minutes(ACCESS_TOKEN_VALIDITY_MINUTES),
      // Counted from the passkey sign-in: a rotated refresh token keeps the original's expiry.
      refreshTokenValidity: Duration.days(REFRESH_TOKEN_VALIDITY_DAYS),
      // Rotation on: each refresh returns a new refresh token, and the one it replaces still works for
      // this long, for a client that retries a refresh whose answer it lost.
      refreshTokenRotationGracePeriod: Duration.seconds(REFRESH_TOKEN_GRACE_SECONDS),
      readAttributes: new ClientAttributes().withStandardAttributes({
        email: true,
        emailVerified: true,
        locale: true,
        timezone: true,
      }),
      // The email keys the invitation: only an admin may change it.
      writeAttributes: new ClientAttributes().withStandardAttributes({ locale: true, timezone: true }),
    });

    this.webAcl = this.createWebAcl(props.requestsPerIpPer5Min ?? USER_POOL_REQUESTS_PER_IP_PER_5_MIN);
    new CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: this.userPool.userPoolArn,
      webAclArn: this.webAcl.attrArn,
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
          'The Plus plan adds threat protection aimed at passwords (compromised credentials, adaptive MFA); this pool has no password sign-in. The pool and the passkey endpoints are rate-limited per IP by WAF, and the endpoints throttled per method, instead. See docs/decisions/031-cdk-stack.md and 050-waf-and-token-policy.md.',
      },
    ]);
  }

  /**
   * A web ACL of its own (the API's rules match API paths; every Cognito call is a POST to `/`) with one
   * rate-based rule per IP. WAF sees only the pool's public operations, those made without AWS
   * credentials (InitiateAuth, RespondToAuthChallenge, GetTokensFromRefreshToken, RevokeToken, ...);
   * the Lambdas' IAM-signed admin calls are not counted. A blocked call fails with Cognito's
   * ForbiddenException: API requests get no custom response.
   */
  private createWebAcl(limit: number): CfnWebACL {
    return new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Per-IP rate limit on the public API of the user pool: sign-in, token refresh, revocation',
      defaultAction: { allow: {} },
      visibilityConfig: {
        cloudWatchMetricsEnabled: true,
        metricName: 'UserPool',
        sampledRequestsEnabled: false,
      },
      rules: [
        {
          name: 'UserPoolRateLimit',
          priority: 0,
          action: { block: {} },
          // Cognito forwards only non-confidential headers to WAF, and tokens travel in the body.
          visibilityConfig: {
            cloudWatchMetricsEnabled: true,
            metricName: 'UserPoolRateLimit',
            sampledRequestsEnabled: true,
          },
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', evaluationWindowSec: WAF_WINDOW_SECONDS, limit },
          },
        },
      ],
    });
  }
}
