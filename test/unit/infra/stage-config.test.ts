import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { stackNameFor, stageConfigFromContext } from '../../../infra/stacks/stage-config';

const configFor = (context: Record<string, unknown>) => stageConfigFromContext(new App({ context }).node);

describe('stage configuration from context', () => {
  it('requires a stage and says how to pass one', () => {
    expect(() => configFor({})).toThrow(/-c stage=/);
  });

  it.each(['Prod', 'prod_1', '1prod', 'a'.repeat(21), 'prod/1'])('rejects the stage name %j', (stage) => {
    expect(() => configFor({ stage })).toThrow(/Invalid stage/);
  });

  it('defaults the region to us-west-2 and lets context override it', () => {
    expect(configFor({ stage: 'prod' }).region).toBe('us-west-2');
    expect(configFor({ stage: 'prod', region: 'eu-central-1' }).region).toBe('eu-central-1');
  });

  it('retains data in every stage except dev', () => {
    expect(configFor({ stage: 'dev' }).retain).toBe(false);
    expect(configFor({ stage: 'prod' }).retain).toBe(true);
    expect(configFor({ stage: 'staging' }).retain).toBe(true);
  });

  it('takes a custom domain only with its certificate', () => {
    expect(() => configFor({ stage: 'prod', domainName: 'app.example.com' })).toThrow(/certificateArn/);
    expect(
      configFor({
        stage: 'prod',
        domainName: 'app.example.com',
        certificateArn: 'arn:aws:acm:us-east-1:1:certificate/x',
      }).customDomain,
    ).toEqual({ domainName: 'app.example.com', certificateArn: 'arn:aws:acm:us-east-1:1:certificate/x' });
    expect(configFor({ stage: 'prod' }).customDomain).toBeUndefined();
  });

  it('takes one email address for the alarms, and refuses anything else before any deploy', () => {
    expect(configFor({ stage: 'prod', alarmEmail: 'ops@example.com' }).alarmEmail).toBe('ops@example.com');
    expect(configFor({ stage: 'prod' }).alarmEmail).toBeUndefined();
    for (const alarmEmail of ['ops', 'ops@example', 'a@example.com,b@example.com', 'ops @example.com'])
      expect(() => configFor({ stage: 'prod', alarmEmail }), alarmEmail).toThrow(/Invalid alarmEmail/);
  });

  it('refuses a certificate outside us-east-1, which CloudFront cannot use, before any deploy', () => {
    for (const certificateArn of [
      'arn:aws:acm:eu-west-1:111111111111:certificate/00000000-0000-0000-0000-000000000000',
      'arn:aws:iam::111111111111:server-certificate/app',
      'app.example.com',
    ]) {
      expect(() => configFor({ stage: 'prod', domainName: 'app.example.com', certificateArn })).toThrow(
        /must be an ACM certificate in us-east-1/,
      );
    }
  });

  it('names one stack per stage', () => {
    expect(stackNameFor('dev')).toBe('MetabolicCoaching-dev');
  });
});
