import type { Node } from 'constructs';
import { DEFAULT_REGION } from '../../shared/constants';
import type { CustomDomain } from '../constructs/spa-site';

/** Stages whose data may be thrown away: no retention, no deletion protection. */
export const DISPOSABLE_STAGES: readonly string[] = ['dev'];

const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,19}$/;

export interface StageConfig {
  /** Stage name from `-c stage=...`: part of the stack name, the API stage and every generated name. */
  readonly stage: string;
  /** From `-c region=...`; `DEFAULT_REGION` (shared/constants.ts) otherwise. */
  readonly region: string;
  /** Keep data and refuse deletion (every stage except the disposable ones). */
  readonly retain: boolean;
  /** From `-c domainName=... -c certificateArn=...`; otherwise the CloudFront domain is the app host. */
  readonly customDomain?: CustomDomain;
  /** From `-c alarmEmail=...`: who the alarms email (docs/decisions/064-alarms.md). */
  readonly alarmEmail?: string;
}

/** A missing or invalid context value: a usage error, reported in one line. */
export class StageConfigError extends Error {
  override readonly name = 'StageConfigError';
}

/** One stack per stage, named after it. */
export const stackNameFor = (stage: string): string => `MetabolicCoaching-${stage}`;

const contextString = (node: Node, key: string): string | undefined => {
  const value: unknown = node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new StageConfigError(`Context "${key}" must be a string.`);
  return value;
};

/** Reads the stage configuration from CDK context (`cdk synth -c stage=dev`) and rejects bad values. */
export function stageConfigFromContext(node: Node): StageConfig {
  const stage = contextString(node, 'stage');
  if (!stage) {
    throw new StageConfigError(
      'Missing stage: pass -c stage=<name>, for example `npx cdk synth -c stage=dev`.',
    );
  }
  if (!STAGE_PATTERN.test(stage)) {
    throw new StageConfigError(
      `Invalid stage "${stage}": use 1 to 20 lowercase letters, digits or dashes, starting with a letter.`,
    );
  }
  const domainName = contextString(node, 'domainName');
  const certificateArn = contextString(node, 'certificateArn');
  if (Boolean(domainName) !== Boolean(certificateArn)) {
    throw new StageConfigError(
      'A custom domain needs both -c domainName=... and -c certificateArn=... (us-east-1).',
    );
  }
  // CloudFront takes certificates from us-east-1 only; said here rather than by a failed deploy.
  if (certificateArn && !/^arn:aws[\w-]*:acm:us-east-1:\d+:certificate\/[\w-]+$/.test(certificateArn)) {
    throw new StageConfigError(
      `The certificate must be an ACM certificate in us-east-1, where CloudFront takes them from: ${certificateArn}`,
    );
  }
  const alarmEmail = contextString(node, 'alarmEmail');
  if (alarmEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail)) {
    throw new StageConfigError(`Invalid alarmEmail "${alarmEmail}": give one email address.`);
  }
  return {
    stage,
    region: contextString(node, 'region') ?? DEFAULT_REGION,
    retain: !DISPOSABLE_STAGES.includes(stage),
    ...(domainName && certificateArn && { customDomain: { domainName, certificateArn } }),
    ...(alarmEmail && { alarmEmail }),
  };
}
