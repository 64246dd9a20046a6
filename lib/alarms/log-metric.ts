/**
 * Metrics counted from log lines by a CloudWatch Logs metric filter, for what no service metric tells apart (a 501
 * from another 5xx, a user's bad PDF from a system failure).
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** Namespace of the metrics counted from logs (the EMF metrics are in `TransactionCoordination`). */
export const LOG_METRICS_NAMESPACE = 'TransactionCoordination/Logs';

/**
 * Adds a metric filter counting the lines of `logGroup` that match `pattern` (1 per line, 0 when none match) and
 * returns the metric as a 5-minute sum. Metric filters take no fixed dimensions, so the metric's name starts with
 * the stack name (`<stackName>-<name>`): two stacks in one account and region do not add up.
 */
export function countLines(scope: Construct, id: string, props: { logGroup: logs.ILogGroup; name: string; pattern: logs.IFilterPattern; label?: string }): cloudwatch.Metric {
  const filter = new logs.MetricFilter(scope, id, {
    logGroup: props.logGroup,
    filterPattern: props.pattern,
    metricNamespace: LOG_METRICS_NAMESPACE,
    metricName: `${Stack.of(scope).stackName}-${props.name}`,
    metricValue: '1',
    defaultValue: 0,
  });
  return filter.metric({ statistic: 'Sum', period: Duration.minutes(5), label: props.label });
}
