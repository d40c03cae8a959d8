import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthPlatform, type Json, type Synthesized } from './platform-template';

// Keep nag findings as annotations instead of a failed synth, so a failure lists them.
const asAnnotations = { '@aws-cdk/core:annotationsInValidationReport': false };
const STAGES = {
  prod: { stage: 'prod' },
  dev: { stage: 'dev' },
  'prod with a custom domain': {
    stage: 'prod',
    domainName: 'app.example.com',
    certificateArn: 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000',
  },
};

interface Suppression {
  readonly id: string;
  readonly reason: string;
  readonly applies_to?: Json[];
}

describe.each(Object.entries(STAGES))('cdk-nag AwsSolutionsChecks on %s', (_name, context) => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthPlatform({ ...context, ...asAnnotations });
  });
  const findings = (level: 'error' | 'warning') => {
    const annotations = Annotations.fromStack(synth.stack);
    const pattern = Match.stringLikeRegexp('AwsSolutions-.*');
    const found =
      level === 'error' ? annotations.findError('*', pattern) : annotations.findWarning('*', pattern);
    return found.map((finding) => `${finding.id}: ${JSON.stringify(finding.entry.data)}`);
  };
  const suppressions = (): Suppression[] =>
    Object.values(
      synth.template.toJSON().Resources as Record<string, { Metadata?: Record<string, unknown> }>,
    ).flatMap(
      (resource) =>
        (resource.Metadata?.cdk_nag as { rules_to_suppress?: Suppression[] } | undefined)
          ?.rules_to_suppress ?? [],
    );

  it('leaves no unsuppressed error', () => {
    expect(findings('error')).toEqual([]);
  });

  it('leaves no unsuppressed warning', () => {
    expect(findings('warning')).toEqual([]);
  });

  it('gives every suppression a written reason of at least one sentence', () => {
    const all = suppressions();
    expect(all.length).toBeGreaterThan(0);
    for (const suppression of all) {
      expect(suppression.id).toMatch(/^AwsSolutions-/);
      expect(suppression.reason.length, suppression.id).toBeGreaterThanOrEqual(60);
    }
  });

  it('suppresses only the reviewed rules (a new kind of suppression must be added here on purpose)', () => {
    const reviewed = [
      'AwsSolutions-APIG2', // requests are validated by the handlers, with the product's messages
      'AwsSolutions-APIG4', // public /v1/auth/* routes and CORS preflights
      'AwsSolutions-CFR1', // no geo restriction
      'AwsSolutions-CFR2', // static site; the API has the WAF
      'AwsSolutions-CFR3', // no distribution access logs: they would record activation codes
      'AwsSolutions-CFR4', // default CloudFront certificate (no custom domain)
      'AwsSolutions-COG2', // passkey with user verification is the second factor
      'AwsSolutions-COG4', // same methods as APIG4
      'AwsSolutions-COG8', // Plus plan protects passwords, which this pool does not have
      'AwsSolutions-IAM4', // AWS-documented policy of the account-level API Gateway logging role
      'AwsSolutions-IAM5', // X-Ray "*" only
      'AwsSolutions-L1', // Node.js 22 is the chosen runtime
      'AwsSolutions-SMG4', // the page-cursor signing key is not rotated: only in-flight cursors would break
      'AwsSolutions-SNS2', // the alarm topic carries alarm names and counts only (ADR 064)
    ];
    for (const suppression of suppressions()) expect(reviewed).toContain(suppression.id);
  });

  it('suppresses wildcard IAM findings only for X-Ray (DynamoDB grants name tables and indexes exactly)', () => {
    const iam5 = suppressions().filter((suppression) => suppression.id === 'AwsSolutions-IAM5');
    expect(iam5.length).toBeGreaterThan(0);
    for (const suppression of iam5) {
      expect(suppression.applies_to).toEqual(['Resource::*']);
      expect(suppression.reason).toMatch(/X-Ray/);
    }
  });

  it('suppresses request validation (APIG2) and distribution access logs (CFR3) for the reviewed reasons', () => {
    const reasons = (id: string) =>
      suppressions()
        .filter((suppression) => suppression.id === id)
        .map((suppression) => suppression.reason);
    expect(reasons('AwsSolutions-APIG2')).toHaveLength(1);
    expect(reasons('AwsSolutions-APIG2')[0]).toMatch(/handler with the shared zod schemas/);
    expect(reasons('AwsSolutions-CFR3')).toHaveLength(1);
    expect(reasons('AwsSolutions-CFR3')[0]).toMatch(/activation codes/);
  });
});
