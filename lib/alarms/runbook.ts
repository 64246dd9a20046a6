/**
 * Links from alarms to their runbook section. Every alarm's `alarmDescription` ends with
 * ` Runbook: <runbookBaseUrl>#<anchor>`, where `runbookBaseUrl` is context (default `docs/runbook.md`, relative to
 * the repository root; a deploy may pass the file's web address, e.g.
 * `-c runbookBaseUrl=https://github.com/acme/tcs/blob/main/docs/runbook.md`) and `<anchor>` is the GitHub slug of
 * a heading of docs/runbook.md (test/infra/alarms.test.ts checks every link against the file).
 */
import type { IConstruct } from 'constructs';

/** Where the runbook is when context gives no `runbookBaseUrl` (repository-relative). */
export const DEFAULT_RUNBOOK_BASE_URL = 'docs/runbook.md';

/** CloudWatch's limit on `AlarmDescription` (characters). */
export const MAX_ALARM_DESCRIPTION = 1024;

/** One anchor per section of docs/runbook.md (a heading's GitHub slug). */
export type RunbookAnchor =
  | 'api-5xx-errors'
  | 'api-p99-latency'
  | 'api-4xx-surge'
  | 'api-429-surge'
  | 'api-lambda-throttles'
  | 'api-function-errors'
  | 'dynamodb-system-errors'
  | 'dynamodb-throttled-requests'
  | 'webhook-delivery-dlq'
  | 'webhook-fan-out-dlq'
  | 'webhook-fan-out-lag'
  | 'webhook-delivery-queue-age'
  | 'webhook-worker-errors'
  | 'dead-letter-messages-near-expiry'
  | 'extraction-system-failures'
  | 'extraction-executions-timed-out'
  | 'extraction-executions-aborted'
  | 'extraction-executions-throttled'
  | 'upload-handler-errors'
  | 'messaging-worker-failures'
  | 'scheduler-dlq'
  | 'message-send-dlq'
  | 'scheduler-dlq-unreachable'
  | 'schedule-requests-failed'
  | 'messaging-worker-errors'
  | 'ses-bounce-rate'
  | 'ses-complaint-rate'
  | 'notification-failures'
  | 'oauth-server-errors'
  | 'reference-site-errors'
  | 'mcp-endpoint-errors'
  | 'extraction-step-errors'
  | 'workspace-worker-errors'
  | 'report-worker-errors'
  | 'partner-authorizer-errors'
  | 'partner-api-5xx-errors';

/** The runbook's address for `scope`'s app: context `runbookBaseUrl`, else `DEFAULT_RUNBOOK_BASE_URL`. */
export function runbookBaseUrl(scope: IConstruct): string {
  const value = scope.node.tryGetContext('runbookBaseUrl') as unknown;
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_RUNBOOK_BASE_URL;
}

/**
 * `text` followed by the link to the runbook section `anchor`: `"<text> Runbook: <base>#<anchor>"`.
 * @param scope any construct of the app (reads context `runbookBaseUrl`)
 */
export function withRunbook(scope: IConstruct, text: string, anchor: RunbookAnchor): string {
  return `${text} Runbook: ${runbookBaseUrl(scope)}#${anchor}`;
}
