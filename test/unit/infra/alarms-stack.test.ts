/**
 * The alarms of a stage (docs/decisions/064-alarms.md): what tells the team that a person met a
 * failure, an audit event was not written, someone could not sign in, or an erase was left unfinished.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALL_FUNCTIONS, SCHEDULED, TRIGGERS } from '../../../lambdas/routes';
import { ALARM_RULES, LOGGED_ERROR_PATTERN, type AlarmKey } from '../../../infra/constructs/alarms';
import { STACK_OUTPUTS } from '../../../infra/stacks/outputs';
import { logger } from '../../../lambdas/common/logger';
import {
  flatten,
  logicalIdOf,
  resourcesOf,
  synthPlatform,
  type Json,
  type Synthesized,
} from './platform-template';

let prod: Synthesized;
let notified: Synthesized;
beforeAll(() => {
  prod = synthPlatform({ stage: 'prod' });
  notified = synthPlatform({ stage: 'prod', alarmEmail: 'ops@example.com' });
});

type AlarmProperties = Record<string, Json> & {
  Metrics?: {
    Id: string;
    Expression?: string;
    MetricStat?: { Metric: Record<string, Json>; Period: number; Stat: string };
  }[];
};
const alarmOf = ({ stack, template }: Synthesized, key: AlarmKey): AlarmProperties => {
  const alarm = resourcesOf(template, 'AWS::CloudWatch::Alarm')[logicalIdOf(stack, stack.alarms.alarms[key])];
  if (!alarm) throw new Error(`No alarm ${key}`);
  return alarm.Properties;
};
const topicRef = ({ stack }: Synthesized) => ({ Ref: logicalIdOf(stack, stack.alarms.topic) });
const functionRef = ({ stack }: Synthesized, id: string) => {
  const fn = stack.functions[id];
  if (!fn) throw new Error(`No function ${id}`);
  return { Ref: logicalIdOf(stack, fn.function) };
};
/** The metrics an alarm's expression sums, as `namespace metric dimension-values`. */
const summed = (alarm: AlarmProperties): Json[] =>
  (alarm.Metrics ?? [])
    .filter((metric) => metric.MetricStat)
    .map(({ MetricStat }) => ({
      namespace: MetricStat?.Metric.Namespace ?? null,
      name: MetricStat?.Metric.MetricName ?? null,
      dimensions: MetricStat?.Metric.Dimensions ?? null,
      stat: MetricStat?.Stat ?? null,
      period: MetricStat?.Period ?? null,
    }));

describe('the error lines of every function', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('are counted from each log group into one metric of the stage', () => {
    const filters = Object.values(resourcesOf(prod.template, 'AWS::Logs::MetricFilter'));
    expect(filters).toHaveLength(ALL_FUNCTIONS.length);
    const groups = filters.map((filter) => filter.Properties.LogGroupName);
    expect(groups).toEqual(
      expect.arrayContaining(
        ALL_FUNCTIONS.map((definition) => ({
          Ref: logicalIdOf(prod.stack, prod.stack.functions[definition.id]!.logGroup),
        })),
      ),
    );
    for (const filter of filters) {
      expect(filter.Properties).toMatchObject({
        FilterPattern: '{ $.level = "error" }',
        MetricTransformations: [
          { MetricNamespace: 'MetabolicCoaching/prod', MetricName: 'LoggedErrors', MetricValue: '1' },
        ],
      });
    }
  });

  it("match what the logger writes for an error, and not for a warning: the filter's field and value are the logger's", () => {
    const [, field, value] = /^\{ \$\.(\w+) = "(\w+)" \}$/.exec(LOGGED_ERROR_PATTERN.logPatternString) ?? [];
    vi.stubEnv('LOG_LEVEL', 'debug');
    const lines: string[] = [];
    for (const stream of [process.stdout, process.stderr])
      vi.spyOn(stream, 'write').mockImplementation((line) => lines.push(String(line)) > 0);
    logger.error('audit write failed', { errorName: 'ProvisionedThroughputExceededException' });
    logger.warn('something odd', {});
    logger.info('unfinished erases', { finished: 1, failed: 0 });
    const matched = lines.map((line) => (JSON.parse(line) as Record<string, unknown>)[field ?? ''] === value);
    expect(matched).toEqual([true, false, false]);
  });
});

describe('the alarms', () => {
  it('are four, each telling the topic when it fires and when it is over, at the first occurrence', () => {
    expect(Object.keys(resourcesOf(prod.template, 'AWS::CloudWatch::Alarm'))).toHaveLength(4);
    for (const key of Object.keys(ALARM_RULES) as AlarmKey[]) {
      const alarm = alarmOf(prod, key);
      expect(alarm, key).toMatchObject({
        AlarmActions: [topicRef(prod)],
        OKActions: [topicRef(prod)],
        Threshold: 1,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
      expect(alarm.AlarmDescription, key).toEqual(expect.stringContaining('stage prod'));
    }
  });

  it('count the error lines over 5 minutes', () => {
    expect(alarmOf(prod, 'loggedErrors')).toMatchObject({
      Namespace: 'MetabolicCoaching/prod',
      MetricName: 'LoggedErrors',
      Statistic: 'Sum',
      Period: 300,
    });
  });

  it("count the API stage's 5XX answers over 5 minutes", () => {
    const alarm = alarmOf(prod, 'apiServerErrors');
    expect(alarm).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5XXError',
      Statistic: 'Sum',
      Period: 300,
    });
    expect(flatten(alarm.Dimensions ?? null)).toContain('prod');
    // The API's own name (the stack's), which no other API of the account and Region has.
    expect(alarm.Dimensions).toContainEqual({ Name: 'ApiName', Value: 'MetabolicCoaching-prod' });
    const dimensions = (alarm.Dimensions as { Name: string }[]).map((dimension) => dimension.Name).sort();
    expect(dimensions).toEqual(['ApiName', 'Stage']);
  });

  it('sum the throttles and the errors of exactly the four sign-in triggers, each minute, a trigger with no data counting 0', () => {
    const alarm = alarmOf(prod, 'signInTriggers');
    const triggers = Object.values(TRIGGERS);
    expect(triggers).toHaveLength(4);
    expect(summed(alarm)).toEqual(
      triggers.flatMap((definition) =>
        ['Throttles', 'Errors'].map((name) => ({
          namespace: 'AWS/Lambda',
          name,
          dimensions: [{ Name: 'FunctionName', Value: functionRef(prod, definition.id) }],
          stat: 'Sum',
          period: 60,
        })),
      ),
    );
    const expression = alarm.Metrics?.find((metric) => metric.Expression)?.Expression;
    expect(expression).toBe(Array.from({ length: 8 }, (_, i) => `FILL(m${i}, 0)`).join(' + '));
    // CloudWatch takes at most 10 metrics in one alarm's expression.
    expect(alarm.Metrics?.length).toBeLessThanOrEqual(10);
  });

  it('count failed or timed-out runs of the scheduled functions (FinishErases) over 5 minutes', () => {
    expect(summed(alarmOf(prod, 'scheduledFailures'))).toEqual(
      Object.values(SCHEDULED).map((definition) => ({
        namespace: 'AWS/Lambda',
        name: 'Errors',
        dimensions: [{ Name: 'FunctionName', Value: functionRef(prod, definition.id) }],
        stat: 'Sum',
        period: 300,
      })),
    );
  });
});

describe('the alarm topic', () => {
  it("takes only TLS, lets CloudWatch publish for this stage's four alarms only, and says its ARN as a stack output", () => {
    const policies = Object.values(resourcesOf(prod.template, 'AWS::SNS::TopicPolicy'));
    expect(policies).toHaveLength(1);
    const statements = (policies[0]?.Properties.PolicyDocument as { Statement: Record<string, Json>[] })
      .Statement;
    expect(JSON.stringify(statements)).toContain('"aws:SecureTransport":"false"');
    const allowed = statements.filter((statement) => statement.Effect === 'Allow');
    expect(allowed).toHaveLength(1);
    expect(allowed[0]).toMatchObject({
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: topicRef(prod),
      Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
    });
    // Exactly this stage's four alarms: not a name pattern, which another stage's names could match.
    const sources = (allowed[0]?.Condition as { ArnEquals: Record<string, Json> }).ArnEquals['aws:SourceArn'];
    expect(sources).toEqual(
      (Object.keys(ALARM_RULES) as AlarmKey[]).map((key) => ({
        'Fn::GetAtt': [logicalIdOf(prod.stack, prod.stack.alarms.alarms[key]), 'Arn'],
      })),
    );
    for (const key of Object.keys(ALARM_RULES) as AlarmKey[]) {
      expect(alarmOf(prod, key).AlarmName).toMatch(/^MetabolicCoaching-prod-[A-Z]\w+$/);
    }
    const outputs = prod.template.toJSON().Outputs as Record<string, { Value: Json }>;
    expect(outputs[STACK_OUTPUTS.alarmTopicArn]?.Value).toEqual(topicRef(prod));
  });

  it('emails the address given with -c alarmEmail, and no one without it', () => {
    expect(Object.values(resourcesOf(prod.template, 'AWS::SNS::Subscription'))).toHaveLength(0);
    const subscriptions = Object.values(resourcesOf(notified.template, 'AWS::SNS::Subscription'));
    expect(subscriptions.map((subscription) => subscription.Properties)).toEqual([
      { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: topicRef(notified) },
    ]);
  });
});
