import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * The line every function writes for what went wrong (`lambdas/common/logger.ts` writes JSON with a
 * `level`): a request answered 500, an audit event not written, an erase FinishErases could not finish,
 * a passkey proof that could not be checked.
 */
export const LOGGED_ERROR_PATTERN = FilterPattern.stringValue('$.level', '=', 'error');
const LOGGED_ERRORS_METRIC = 'LoggedErrors';
/** Where the stage's own metrics go: one namespace per stage, so stages in one account stay apart. */
const metricNamespaceFor = (stage: string): string => `MetabolicCoaching/${stage}`;

/** How long each alarm looks at, and how much of what it counts is already too much. */
export const ALARM_RULES = {
  /** Any error line: each is a failure a person met (or an audit event missing), never routine. */
  loggedErrors: { periodMinutes: 5, threshold: 1 },
  /** Any 5XX from the API: also what logs no error line (a handler timed out, a Lambda throttled). */
  apiServerErrors: { periodMinutes: 5, threshold: 1 },
  /**
   * Any sign-in trigger throttled (docs/decisions/054-capacity.md) or failed (a timeout, a crash, a
   * start-up that could not read its configuration; none of these logs a line of ours): a person could
   * not sign in.
   */
  signInTriggers: { periodMinutes: 1, threshold: 1 },
  /** Any failed or timed-out run of a scheduled function (an erase left unfinished for another run). */
  scheduledFailures: { periodMinutes: 5, threshold: 1 },
} as const;
export type AlarmKey = keyof typeof ALARM_RULES;

export interface OperationsAlarmsProps {
  readonly stage: string;
  /** What every alarm's name starts with (the stack's name), for people reading the console. */
  readonly namePrefix: string;
  /** Who is told by email (`-c alarmEmail=...`); without one, subscribe to the topic yourself. */
  readonly email?: string;
  /** Every function's log group: each gets the error-line filter. */
  readonly logGroups: readonly ILogGroup[];
  /** The four triggers a sign-in runs through. */
  readonly signInTriggers: readonly IFunction[];
  /** The scheduled functions (FinishErases). */
  readonly scheduled: readonly IFunction[];
  readonly apiStage: Stage;
}

/**
 * What tells the team that something went wrong (docs/decisions/064-alarms.md): four CloudWatch alarms
 * on one SNS topic, each firing at the first occurrence. They carry counts only, never a log line: the
 * logs themselves stay in their groups.
 */
export class OperationsAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Record<AlarmKey, Alarm>;

  constructor(scope: Construct, id: string, props: OperationsAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', {
      displayName: `Metabolic coaching ${props.stage} alarms`,
      enforceSSL: true,
    });
    NagSuppressions.addResourceSuppressions(this.topic, [
      {
        id: 'AwsSolutions-SNS2',
        reason:
          'The topic carries CloudWatch alarm notifications only: an alarm name, a count and a time, no personal or health data. CloudWatch cannot publish to a topic under the AWS-managed SNS key, and a key of our own for this would cost more than what it protects.',
      },
    ]);
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));

    const namespace = metricNamespaceFor(props.stage);
    props.logGroups.forEach((logGroup, index) => {
      logGroup.addMetricFilter(`LoggedErrors${index}`, {
        filterPattern: LOGGED_ERROR_PATTERN,
        metricNamespace: namespace,
        metricName: LOGGED_ERRORS_METRIC,
        metricValue: '1',
      });
    });

    const period = (key: AlarmKey) => Duration.minutes(ALARM_RULES[key].periodMinutes);
    const sumOf = (key: AlarmKey, metrics: readonly IMetric[], label: string): IMetric =>
      new MathExpression({
        // FILL: a function that was never throttled has no data points at all.
        expression: metrics.map((_, i) => `FILL(m${i}, 0)`).join(' + '),
        usingMetrics: Object.fromEntries(metrics.map((metric, i) => [`m${i}`, metric])),
        period: period(key),
        label,
      });
    const metrics: Record<AlarmKey, IMetric> = {
      loggedErrors: new Metric({
        namespace,
        metricName: LOGGED_ERRORS_METRIC,
        statistic: 'Sum',
        period: period('loggedErrors'),
      }),
      apiServerErrors: props.apiStage.metricServerError({
        statistic: 'Sum',
        period: period('apiServerErrors'),
      }),
      signInTriggers: sumOf(
        'signInTriggers',
        props.signInTriggers.flatMap((fn) => [
          fn.metricThrottles({ statistic: 'Sum', period: period('signInTriggers') }),
          fn.metricErrors({ statistic: 'Sum', period: period('signInTriggers') }),
        ]),
        'Throttled or failed invocations of the sign-in triggers',
      ),
      scheduledFailures: sumOf(
        'scheduledFailures',
        props.scheduled.map((fn) =>
          fn.metricErrors({ statistic: 'Sum', period: period('scheduledFailures') }),
        ),
        'Failed runs of the scheduled functions',
      ),
    };
    const descriptions: Record<AlarmKey, string> = {
      loggedErrors: `A function of stage ${props.stage} logged an error. CloudWatch Logs Insights over the function log groups: filter level = "error".`,
      apiServerErrors: `The API of stage ${props.stage} answered 5XX. Its access log group holds each request's status and route; a 5XX without an error line is a timeout or a throttle.`,
      signInTriggers: `A sign-in trigger of stage ${props.stage} was throttled or failed: someone could not sign in. Throttles: check the account's Lambda concurrency (docs/decisions/054-capacity.md); errors: the trigger's log group (a timeout or a crash).`,
      scheduledFailures: `A scheduled function of stage ${props.stage} failed or timed out. FinishErases tries again every 5 minutes; its log group says which accounts.`,
    };
    const action = new SnsAction(this.topic);
    this.alarms = Object.fromEntries(
      (Object.keys(ALARM_RULES) as AlarmKey[]).map((key) => {
        const name = key.charAt(0).toUpperCase() + key.slice(1);
        const alarm = new Alarm(this, name, {
          alarmName: `${props.namePrefix}-${name}`,
          metric: metrics[key],
          threshold: ALARM_RULES[key].threshold,
          evaluationPeriods: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: descriptions[key],
        });
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
        return [key, alarm];
      }),
    ) as Record<AlarmKey, Alarm>;
    // The topic's own policy (TLS only) replaces SNS's default one, so CloudWatch is let in by name:
    // these four alarms of this account, and no other alarm, service or account (a name pattern would
    // also match another stage whose name starts with this one's and a dash).
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
          ArnEquals: { 'aws:SourceArn': Object.values(this.alarms).map((alarm) => alarm.alarmArn) },
        },
      }),
    );
  }
}
