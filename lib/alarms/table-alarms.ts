/**
 * `TableAlarms`: DynamoDB system errors (HTTP 500 from DynamoDB, retried by the SDK but visible as 5xx when they
 * persist) and throttled requests on the service table, summed over the data-plane operations the service calls.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { withRunbook } from './runbook.ts';

/** Data-plane operations the service calls (alarms and dashboard sum throttles and system errors over these; at most 10). */
export const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.DELETE_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.BATCH_WRITE_ITEM,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/** Thresholds per 5 minutes: system errors >= 5; throttled requests >= 10 (on-demand: a spike over twice the previous peak, or a hot partition). */
export const TABLE_ALARM_THRESHOLDS = { systemErrors: 5, throttledRequests: 10 } as const;

/** System errors and throttled requests of `table`. */
export class TableAlarms extends Construct {
  readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: { readonly table: dynamodb.ITable }) {
    super(scope, id);
    const period = Duration.minutes(5);
    const t = TABLE_ALARM_THRESHOLDS;
    const alarm = (alarmId: string, description: string, metric: cloudwatch.IMetric, threshold: number) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmDescription: description,
        metric,
        threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    this.alarms = [
      alarm(
        'SystemErrorsAlarm',
        withRunbook(this, `DynamoDB system errors on the service table: >= ${t.systemErrors} in 5 min.`, 'dynamodb-system-errors'),
        props.table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period }),
        t.systemErrors,
      ),
      alarm(
        'ThrottledRequestsAlarm',
        withRunbook(this, `DynamoDB throttled requests on the service table: >= ${t.throttledRequests} in 5 min.`, 'dynamodb-throttled-requests'),
        props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period }),
        t.throttledRequests,
      ),
    ];
  }
}
