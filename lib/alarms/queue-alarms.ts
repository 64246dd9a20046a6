/**
 * Age alarms on SQS queues (`ApproximateAgeOfOldestMessage`, seconds, 5-minute maximum).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { withRunbook } from './runbook.ts';

/** Dead-letter queues keep messages 14 days; the alarm fires when the oldest is 7 days old (7 days left to redrive). */
export const DLQ_AGE_ALARM_SECONDS = Duration.days(7).toSeconds();

/**
 * One alarm when the oldest message of any of `queues` (dead-letter queues, 14 days' retention) is
 * `DLQ_AGE_ALARM_SECONDS` old: it is half way to being deleted unread. The depth alarms already fired when it arrived.
 * @param queues at most 10 (one metric each)
 */
export function deadLetterAgeAlarm(scope: Construct, id: string, queues: readonly { label: string; queue: sqs.IQueue }[]): cloudwatch.Alarm {
  const period = Duration.minutes(5);
  const names = queues.map((q) => q.label).join(', ');
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription: withRunbook(
      scope,
      `A dead-letter message is ${DLQ_AGE_ALARM_SECONDS / 86400} days old (${names}); SQS deletes messages 14 days after they were first queued. Redrive or save it now.`,
      'dead-letter-messages-near-expiry',
    ),
    metric: new cloudwatch.MathExpression({
      expression: `MAX([${queues.map((_q, i) => `a${i}`).join(', ')}])`,
      usingMetrics: Object.fromEntries(queues.map((q, i) => [`a${i}`, q.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' })])),
      period,
      label: 'oldest dead-letter message (s)',
    }),
    threshold: DLQ_AGE_ALARM_SECONDS,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}
