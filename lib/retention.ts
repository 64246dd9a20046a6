/**
 * Record retention: how long the service keeps what a brokerage must be able to produce years later. Texas requires
 * a broker to keep transaction records at least four years (TREC Rules, 22 TAC §535.2, broker responsibility); other
 * states ask three to seven. The default is five years; context `recordRetentionYears` changes it.
 *
 * - The documents bucket moves a replaced or deleted document's old version to S3 Glacier Deep Archive after
 *   `ARCHIVE_NONCURRENT_AFTER_DAYS` and deletes it only `recordRetentionYears` later (lib/extraction-pipeline.ts).
 * - The table keeps point-in-time recovery (35 days, lib/table.ts). With context `tableBackupPlan=true`,
 *   `TableBackupPlan` adds an AWS Backup plan: a daily backup kept 35 days and a monthly backup kept
 *   `tableBackupRetentionYears` (default `recordRetentionYears`), in a vault of its own (retained). Monthly backups stay
 *   in warm storage: AWS Backup moves DynamoDB backups to cold storage only with its advanced DynamoDB features,
 *   an account-level opt-in.
 */
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { Construct, type IConstruct } from 'constructs';

/** Years records are kept when context `recordRetentionYears` is unset. */
export const DEFAULT_RECORD_RETENTION_YEARS = 5;
/** Days a document's old version stays in S3 Standard (a mistaken overwrite or delete is restored at once) before Deep Archive. */
export const ARCHIVE_NONCURRENT_AFTER_DAYS = 30;
/** Days the daily table backups are kept. */
export const DAILY_BACKUP_DAYS = 35;

/** Years as whole days (365.25 a year, rounded up, so a leap day never shortens a retention). */
export const yearsInDays = (years: number): number => Math.ceil(years * 365.25);

/**
 * A whole number of years, 1–100, from context `key` (number or string); `fallback` when unset.
 * @throws Error naming the key on any other value
 */
function yearsOf(scope: IConstruct, key: string, fallback: number): number {
  const value = scope.node.tryGetContext(key) as unknown;
  if (value === undefined || value === '') return fallback;
  const years = Number(value);
  if (!Number.isInteger(years) || years < 1 || years > 100) throw new Error(`context ${key} must be a whole number of years from 1 to 100 (got ${JSON.stringify(value)})`);
  return years;
}

/** Context `recordRetentionYears` (default `DEFAULT_RECORD_RETENTION_YEARS`). @throws Error when not 1–100 */
export const recordRetentionYearsOf = (scope: IConstruct): number => yearsOf(scope, 'recordRetentionYears', DEFAULT_RECORD_RETENTION_YEARS);

/**
 * Context `tableBackupPlan` (`true`/`false`, default false) and `tableBackupRetentionYears` (default
 * `recordRetentionYears`): the years to keep monthly backups, or undefined when no plan is wanted.
 * @throws Error on a malformed value
 */
export function tableBackupYearsOf(scope: IConstruct): number | undefined {
  const value = scope.node.tryGetContext('tableBackupPlan') as unknown;
  if (value === undefined || value === false || value === 'false' || value === '') return undefined;
  if (value !== true && value !== 'true') throw new Error(`context tableBackupPlan must be true or false (got ${JSON.stringify(value)})`);
  return yearsOf(scope, 'tableBackupRetentionYears', recordRetentionYearsOf(scope));
}

/** Inputs of `TableBackupPlan`. */
export interface TableBackupPlanProps {
  readonly table: dynamodb.ITable;
  /** Years monthly backups are kept (`tableBackupYearsOf`). */
  readonly retentionYears: number;
  /** Encrypts the vault (the stack's data key, lib/data-key.ts). */
  readonly encryptionKey?: kms.IKey;
}

/** An AWS Backup vault (retained) and plan for the table: daily kept 35 days, monthly kept `retentionYears`. */
export class TableBackupPlan extends Construct {
  readonly vault: backup.BackupVault;
  readonly plan: backup.BackupPlan;

  constructor(scope: Construct, id: string, props: TableBackupPlanProps) {
    super(scope, id);
    this.vault = new backup.BackupVault(this, 'Vault', {
      encryptionKey: props.encryptionKey,
      // Backups are records: they outlive the stack (and a vault holding recovery points cannot be deleted anyway).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.plan = new backup.BackupPlan(this, 'Plan', {
      backupVault: this.vault,
      backupPlanRules: [
        new backup.BackupPlanRule({
          ruleName: 'daily',
          scheduleExpression: events.Schedule.cron({ hour: '5', minute: '0' }),
          deleteAfter: Duration.days(DAILY_BACKUP_DAYS),
        }),
        new backup.BackupPlanRule({
          ruleName: 'monthly-records',
          scheduleExpression: events.Schedule.cron({ day: '1', hour: '6', minute: '0' }),
          deleteAfter: Duration.days(yearsInDays(props.retentionYears)),
        }),
      ],
    });
    this.plan.addSelection('Table', { resources: [backup.BackupResource.fromDynamoDbTable(props.table)] });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      reason: "AWS Backup's own service-role policy for taking backups of the selected resources (here the one table); AWS keeps it current for the services Backup supports.",
    });
  }
}
