import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import {
  contentSecurityPolicy,
  CUSTOM_HEADERS,
  FRAME_OPTION,
  HSTS,
  REFERRER_POLICY,
} from '../security-headers';

export interface CustomDomain {
  /** Host name the app is served on, e.g. `app.example.com` (DNS is managed outside this stack). */
  readonly domainName: string;
  /** ARN of an ACM certificate for `domainName`, in us-east-1 as CloudFront requires. */
  readonly certificateArn: string;
}

export interface SpaSiteProps {
  /** Origins the SPA may call besides its own: the API and the Cognito endpoint (CSP `connect-src`). */
  readonly connectSources: readonly string[];
  /** Serve on this host instead of the generated `*.cloudfront.net` one. @default - the CloudFront domain */
  readonly customDomain?: CustomDomain;
  /**
   * Keep the buckets when the stack is deleted. When false they are emptied and deleted with it.
   * @default true
   */
  readonly retain?: boolean;
  /** Days the S3 server access logs of the assets bucket are kept. @default 90 */
  readonly logRetentionDays?: number;
}

/** The CDK enum member whose value is `value`: the definition speaks header values, CloudFront enums. */
const member = <E extends Record<string, string>>(values: E, value: string): E[keyof E] => {
  const found = Object.values(values).find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`CloudFront has no setting for the header value ${value}`);
  return found as E[keyof E];
};

/**
 * Hosting of the built SPA: a private, TLS-only, owner-enforced S3 bucket that only this CloudFront
 * distribution can read (origin access control), HTTPS only, client-side routes answered with
 * `index.html`, and a response-headers policy with CSP, HSTS, nosniff, frame DENY and no referrer.
 *
 * No log may hold an activation code, and invitees open `/activate?code=...`: the distribution has no
 * access logging (CloudFront standard logging always records the query string), and the cache policy
 * forwards no query string to S3, so the bucket's server access logs never see one either.
 */
/** How long the assets bucket keeps a file's earlier versions once it is overwritten or deleted. */
export const ASSET_VERSIONS_KEPT_DAYS = 30;

export class SpaSite extends Construct {
  readonly bucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  readonly headersPolicy: ResponseHeadersPolicy;
  /** The host name the app is served on. */
  readonly host: string;
  /** `https://<host>`: the WebAuthn origin and the only origin the API allows. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: SpaSiteProps) {
    super(scope, id);
    const retain = props.retain ?? true;
    const removal = {
      removalPolicy: retain ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !retain,
    };

    // S3 server access logs of the assets bucket only. The logging service writes through the bucket
    // policy (feature flag @aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy), so ACLs stay off here too.
    this.logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(props.logRetentionDays ?? 90) }],
      ...removal,
    });

    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3-assets/',
      // A file overwritten or deleted (a deploy's prune gone wrong, a hand in the console) can be put
      // back for 30 days; then its old versions, and the delete markers left alone, go.
      versioned: true,
      lifecycleRules: [
        {
          noncurrentVersionExpiration: Duration.days(ASSET_VERSIONS_KEPT_DAYS),
          expiredObjectDeleteMarker: true,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      ...removal,
    });

    // Every value comes from infra/security-headers.ts, which the local server sends too (decision 051).
    this.headersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'CSP, HSTS, nosniff, frame DENY, no referrer, permissions policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(props.connectSources),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS.maxAgeSeconds),
          includeSubdomains: HSTS.includeSubdomains,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: member(HeadersFrameOption, FRAME_OPTION), override: true },
        referrerPolicy: { referrerPolicy: member(HeadersReferrerPolicy, REFERRER_POLICY), override: true },
      },
      customHeadersBehavior: {
        customHeaders: Object.entries(CUSTOM_HEADERS).map(([header, value]) => ({
          header,
          value,
          override: true,
        })),
      },
    });

    const custom = props.customDomain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Metabolic health coaching SPA',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        // Query strings are neither part of the cache key nor forwarded (and no origin request policy
        // adds them): S3, and so its access logs, never sees `?code=...`.
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headersPolicy,
        compress: true,
      },
      // Client-side routes (/dashboard/users, /activate?code=...) are not objects: answer them with the app.
      // Without ListBucket, S3 reports a missing object as 403.
      errorResponses: [403, 404].map((httpStatus) => ({
        httpStatus,
        responseHttpStatus: 200,
        responsePagePath: '/index.html',
        ttl: Duration.seconds(0),
      })),
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      // Standard (legacy) logging always records cs-uri-query, so it would log live activation codes.
      enableLogging: false,
      ...(custom && {
        domainNames: [custom.domainName],
        certificate: Certificate.fromCertificateArn(this, 'Certificate', custom.certificateArn),
        minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
      }),
    });

    this.host = custom?.domainName ?? this.distribution.distributionDomainName;
    this.origin = `https://${this.host}`;

    if (!custom) {
      NagSuppressions.addResourceSuppressions(this.distribution, [
        {
          id: 'AwsSolutions-CFR4',
          reason:
            'Without a custom domain the distribution uses the default *.cloudfront.net certificate, whose security policy CloudFront fixes at TLSv1. Pass -c domainName=... -c certificateArn=... to serve with TLSv1.2_2021.',
        },
      ]);
    }
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'Clients and coaches may travel; the app has no per-country obligation, so no geo restriction.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'The distribution serves static, public build output only; every call that reads or writes data goes to the API, which has its own WAF web ACL.',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'Access logging is off on purpose: CloudFront standard logging records the query string, and invitees open /activate?code=..., so the logs would hold live activation codes (DESIGN section 5). Standard logging v2, which can leave the query out, needs a delivery source in us-east-1, outside this regional stack.',
      },
    ]);
  }
}
