/**
 * The service's configuration: every environment variable that code under shared/ and functions/ reads, typed, in
 * one place. Deployed, the CDK stack sets them on each function (lib/); locally the runtime sets them
 * (lib/local/runtime.ts, lib/local/messaging.ts, bin/local.ts) after the modules were imported, and tests change
 * them between runs, so every property reads `process.env` when it is read: nothing is cached here, and a port
 * that caches a client drops it through its own `reset*` function.
 *
 * A required variable that is unset throws {@link ConfigurationError} naming it and who sets it, at its first use
 * in a cold start (a deployment error, never a client one). An empty value counts as unset.
 *
 * Not read here (documented exceptions, test/unit/config.test.ts): Lambda's and Powertools' own variables
 * (`AWS_EXECUTION_ENV`, `POWERTOOLS_*`), which shared/observability/powertools.ts reads as Powertools does.
 */

/** A required environment variable is unset: the stack (or the local runtime) did not configure this function. */
export class ConfigurationError extends Error {
  constructor(readonly variable: string, setBy: string) {
    super(`${variable} is not set (${setBy})`);
    this.name = 'ConfigurationError';
  }
}

const read = (name: string): string | undefined => process.env[name] || undefined;

function required(name: string, setBy: string): string {
  const value = read(name);
  if (value === undefined) throw new ConfigurationError(name, setBy);
  return value;
}

/** `mail`/`sms`/`push`/`scheduler`: `local` selects the local stand-in (lib/local/messaging.ts), anything else AWS. */
const isLocal = (name: string) => read(name) === 'local';

/** Targets the scheduler invokes (`SCHEDULE_TARGET_<TARGET>_ARN`, e.g. `scheduled-send` → `SCHEDULE_TARGET_SCHEDULED_SEND_ARN`). */
export const scheduleTargetVariable = (target: string) => `SCHEDULE_TARGET_${target.toUpperCase().replace(/-/g, '_')}_ARN`;

export const config = {
  // --- Storage -------------------------------------------------------------------------------------------------

  /** `TABLE_NAME`: the single DynamoDB table. Required. Stack: `bindTable` (lib/service-function.ts); locally the runtime. */
  get tableName(): string {
    return required('TABLE_NAME', "set by the stack's bindTable; locally by the runtime");
  },
  /** `DYNAMODB_ENDPOINT`: DynamoDB Local's URL; unset in AWS. Set by the local runtime and the test table. */
  get dynamodbEndpoint(): string | undefined {
    return read('DYNAMODB_ENDPOINT');
  },
  /** `AWS_REGION`: set by Lambda itself; locally unset or `local` (each local client picks its own default). */
  get awsRegion(): string | undefined {
    return read('AWS_REGION');
  },
  /** `DOCUMENTS_BUCKET`: the documents (and inbound mail) bucket. Required. Stack: lib/extraction-pipeline.ts and others; locally the runtime (s3rver). */
  get documentsBucket(): string {
    return required('DOCUMENTS_BUCKET', 'set by the stack on functions that store documents; locally by the runtime');
  },
  /** `S3_ENDPOINT`: s3rver's URL (path-style, fixed credentials); unset in AWS. Set by the local runtime. */
  get s3Endpoint(): string | undefined {
    return read('S3_ENDPOINT');
  },
  /**
   * `AWS_ENDPOINT_URL_S3`, else `AWS_ENDPOINT_URL`: the SDK's own endpoint override, read again by the presigned S3
   * requests (shared/ports/s3-object-requests.ts) that do not go through the SDK's client. Set by the assembly
   * runtime (its AWS gateway); unset in AWS.
   */
  get awsEndpointUrlS3(): string | undefined {
    return read('AWS_ENDPOINT_URL_S3') ?? read('AWS_ENDPOINT_URL');
  },
  /** `AWS_ENDPOINT_URL_LAMBDA`, else `AWS_ENDPOINT_URL`: the same override for the Lambda invocations shared/ports/report-builder.ts signs itself. Set by the assembly runtime; unset in AWS. */
  get awsEndpointUrlLambda(): string | undefined {
    return read('AWS_ENDPOINT_URL_LAMBDA') ?? read('AWS_ENDPOINT_URL');
  },

  // --- Webhooks --------------------------------------------------------------------------------------------------

  /** `WEBHOOK_QUEUE_URL`: the webhook delivery queue. Required where deliveries are enqueued. Stack: lib/webhook-pipeline.ts; locally the runtime. */
  get webhookQueueUrl(): string {
    return required('WEBHOOK_QUEUE_URL', 'set by the stack (lib/webhook-pipeline.ts); locally by the runtime');
  },
  /** `SQS_ENDPOINT`: the local SQS server's URL; unset in AWS. Set by the local runtime. */
  get sqsEndpoint(): string | undefined {
    return read('SQS_ENDPOINT');
  },
  /** `WEBHOOK_RETRY_SCHEDULE`: comma-separated retry delays in seconds (parsed by shared/events/retry-schedule.ts); unset means the spec's schedule. Stack: lib/webhook-pipeline.ts when the `retrySchedule` prop is given. */
  get webhookRetrySchedule(): string | undefined {
    return read('WEBHOOK_RETRY_SCHEDULE');
  },
  /** `WEBHOOK_BREAKER_THRESHOLD`: consecutive failed deliveries that disable a subscription (count); default 20. Stack: lib/webhook-pipeline.ts when configured. */
  get webhookBreakerThreshold(): number {
    return Number(read('WEBHOOK_BREAKER_THRESHOLD') ?? 20);
  },
  /** `LOCAL_MODE=true`: the local runtime, where webhook URLs on 127.0.0.1 and plain HTTP are allowed. Set by lib/local/runtime.ts. */
  get localMode(): boolean {
    return read('LOCAL_MODE') === 'true';
  },

  // --- Extraction ------------------------------------------------------------------------------------------------

  /** `EXTRACTION_STATE_MACHINE_ARN`: the extraction state machine. Required in AWS mode. Stack: lib/extraction-pipeline.ts; locally a runner is registered instead. */
  get extractionStateMachineArn(): string {
    return required('EXTRACTION_STATE_MACHINE_ARN', 'set by the stack (lib/extraction-pipeline.ts); locally the runtime registers a runner instead');
  },
  /**
   * `SFN_ENDPOINT` (a stub in tests), else `AWS_ENDPOINT_URL_SFN` or `AWS_ENDPOINT_URL` (the SDK's own override, read
   * again by shared/ports/workflow.ts, which signs its own requests; set by the assembly runtime): the Step Functions
   * endpoint. Unset in AWS.
   */
  get stepFunctionsEndpoint(): string | undefined {
    return read('SFN_ENDPOINT') ?? read('AWS_ENDPOINT_URL_SFN') ?? read('AWS_ENDPOINT_URL');
  },
  /** `TEXTRACT_ENDPOINT`: a Textract endpoint override (a stub in tests); unset in AWS. */
  get textractEndpoint(): string | undefined {
    return read('TEXTRACT_ENDPOINT');
  },
  /** `TESSERACT_WORKERS`: local OCR worker count (1–16 used; anything else means "by cores"). Set by the operator, never by the stack. */
  get tesseractWorkers(): number | undefined {
    const n = Number(read('TESSERACT_WORKERS'));
    return Number.isInteger(n) && n >= 1 ? n : undefined;
  },

  // --- Reports ---------------------------------------------------------------------------------------------------

  /** `REPORT_PDF_FUNCTION`: the report-pdf worker (its `live` alias ARN) the reports API invokes. Required in AWS mode. Stack: lib/report-builder.ts `grantBuild`; locally the runtime registers in-process workers instead. */
  get reportPdfFunction(): string {
    return required('REPORT_PDF_FUNCTION', 'set by the stack (lib/report-builder.ts grantBuild); locally the runtime registers in-process workers instead');
  },
  /** `REPORT_ZIP_FUNCTION`: the report-zip worker (its `live` alias ARN) the reports API invokes. Required in AWS mode. Stack: lib/report-builder.ts `grantBuild`; locally as `REPORT_PDF_FUNCTION`. */
  get reportZipFunction(): string {
    return required('REPORT_ZIP_FUNCTION', 'set by the stack (lib/report-builder.ts grantBuild); locally the runtime registers in-process workers instead');
  },

  // --- Messaging -------------------------------------------------------------------------------------------------

  /** `MAIL_TRANSPORT=local`: send mail to the local SMTP server. Set by lib/local/messaging.ts; unset in AWS (SES). */
  get localMail(): boolean {
    return isLocal('MAIL_TRANSPORT');
  },
  /** `LOCAL_SMTP_URL`: `smtp://127.0.0.1:<port>` of the local mail server. Set by lib/local/messaging.ts. */
  get localSmtpUrl(): string {
    return required('LOCAL_SMTP_URL', 'set by the local runtime (lib/local/messaging.ts)');
  },
  /** `MAIL_FROM_ADDRESS`: the service's own sender. Required to send mail. Stack: lib/messaging/mail-sending.ts; locally lib/local/messaging.ts. */
  get mailFromAddress(): string {
    return required('MAIL_FROM_ADDRESS', 'set by the stack (lib/messaging/mail-sending.ts); locally by the runtime');
  },
  /** `INBOUND_MAIL_DOMAIN`: the domain of the deals' reply addresses. Required for mail. Stack: lib/messaging/mail-sending.ts, lib/messaging/inbound-mail.ts; locally lib/local/messaging.ts. */
  get inboundMailDomain(): string {
    return required('INBOUND_MAIL_DOMAIN', 'set by the stack (lib/messaging/mail-sending.ts); locally by the runtime');
  },
  /** `SES_CONFIGURATION_SET`: the SES configuration set (delivery events); optional. Stack: lib/messaging/mail-sending.ts. */
  get sesConfigurationSet(): string | undefined {
    return read('SES_CONFIGURATION_SET');
  },
  /** `SMS_TRANSPORT=local`: write texts to the local sink. Set by lib/local/messaging.ts; unset in AWS (End User Messaging SMS). */
  get localSms(): boolean {
    return isLocal('SMS_TRANSPORT');
  },
  /** `SMS_ORIGINATION_IDENTITY`: the phone number or pool ARN texts are sent from. Required to send SMS. Stack: lib/messaging/sms.ts when configured. */
  get smsOriginationIdentity(): string {
    return required('SMS_ORIGINATION_IDENTITY', 'set by the stack (lib/messaging/sms.ts) when an origination number is configured');
  },
  /** `SMS_CONFIGURATION_SET`: the SMS configuration set (delivery receipts); optional. Stack: lib/messaging/sms.ts. */
  get smsConfigurationSet(): string | undefined {
    return read('SMS_CONFIGURATION_SET');
  },
  /** `LOCAL_SMS_SINK`: JSON-lines file the local SMS stand-in appends to. Set by lib/local/messaging.ts (bin/sms.ts). */
  get localSmsSink(): string {
    return required('LOCAL_SMS_SINK', 'set by the local runtime (lib/local/messaging.ts)');
  },
  /** `LOCAL_SMS_FROM`: the local sender number (E.164); unset means the sink's default. Set by the operator. */
  get localSmsFrom(): string | undefined {
    return read('LOCAL_SMS_FROM');
  },
  /** `PUSH_TRANSPORT=local`: write pushes to the local sink. Set by lib/local/messaging.ts; unset in AWS (SNS). */
  get localPush(): boolean {
    return isLocal('PUSH_TRANSPORT');
  },
  /** `PUSH_PLATFORM_APPLICATION_ARN`: the SNS platform application devices register with; unset means push is off (nothing sent). Stack: lib/webhook-pipeline.ts when configured. */
  get pushPlatformApplicationArn(): string | undefined {
    return read('PUSH_PLATFORM_APPLICATION_ARN');
  },
  /** `LOCAL_PUSH_SINK`: JSON-lines file the local push stand-in appends to. Set by lib/local/messaging.ts. */
  get localPushSink(): string {
    return required('LOCAL_PUSH_SINK', 'set by the local runtime (lib/local/messaging.ts)');
  },

  // --- Scheduler -------------------------------------------------------------------------------------------------

  /** `SCHEDULER=local`: keep schedules in the local store. Set by lib/local/messaging.ts; unset in AWS (EventBridge Scheduler). */
  get localScheduler(): boolean {
    return isLocal('SCHEDULER');
  },
  /** `LOCAL_SCHEDULE_STORE`: JSON file of the local scheduler. Set by lib/local/messaging.ts. */
  get localScheduleStore(): string {
    return required('LOCAL_SCHEDULE_STORE', 'set by the local runtime (lib/local/messaging.ts)');
  },
  /** `SCHEDULE_GROUP`: the EventBridge Scheduler group. Required to manage schedules. Stack: lib/messaging/scheduler.ts. */
  get scheduleGroup(): string {
    return required('SCHEDULE_GROUP', 'set by the stack (lib/messaging/scheduler.ts grantManage)');
  },
  /** `SCHEDULER_ROLE_ARN`: the role schedules invoke their target with. Stack: lib/messaging/scheduler.ts. */
  get schedulerRoleArn(): string {
    return required('SCHEDULER_ROLE_ARN', 'set by the stack (lib/messaging/scheduler.ts grantManage)');
  },
  /** `SCHEDULER_DLQ_ARN`: the dead-letter queue of failed schedule invocations. Stack: lib/messaging/scheduler.ts. */
  get schedulerDlqArn(): string {
    return required('SCHEDULER_DLQ_ARN', 'set by the stack (lib/messaging/scheduler.ts grantManage)');
  },
  /** `SCHEDULE_TARGET_<TARGET>_ARN`: the Lambda a schedule of `target` invokes. Stack: lib/messaging/scheduler.ts `addTarget`. */
  scheduleTargetArn(target: string): string {
    return required(scheduleTargetVariable(target), 'set by the stack (lib/messaging/scheduler.ts addTarget)');
  },

  // --- Public URLs and OAuth -------------------------------------------------------------------------------------

  /** `MCP_API_URL`: the HTTP API's endpoint the deployed MCP function calls tools through. Required there. Stack: lib/mcp-endpoint.ts. */
  get mcpApiUrl(): string {
    return required('MCP_API_URL', 'set by lib/mcp-endpoint.ts to the HTTP API endpoint');
  },
  /** `PUBLIC_BASE_URL`: base URL of public links (custom domain); unset means the request's own origin. Stack: lib/messaging-pipeline.ts; locally the runtime's address. */
  get publicBaseUrl(): string | undefined {
    return read('PUBLIC_BASE_URL');
  },
  /** `OAUTH_ISSUER`: the OAuth issuer and token audience origin; unset means `PUBLIC_BASE_URL` or the request's origin. Stack: lib/stack.ts. */
  get oauthIssuer(): string | undefined {
    return read('OAUTH_ISSUER');
  },
  /** `OAUTH_SIGNING_KEY_ID`: the KMS key signing access tokens; unset selects the local signer. Stack: lib/oauth-server.ts. */
  get oauthSigningKeyId(): string | undefined {
    return read('OAUTH_SIGNING_KEY_ID');
  },
  /** `OAUTH_LOCAL_KEY_FILE`: where the local signer keeps its key; unset means an in-memory key. Set by bin/local.ts. */
  get oauthLocalKeyFile(): string | undefined {
    return read('OAUTH_LOCAL_KEY_FILE');
  },
} as const;

/** Every variable {@link config} reads (the test of this module checks the list against the sources). */
export const CONFIG_VARIABLES = [
  'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'AWS_REGION', 'DOCUMENTS_BUCKET', 'S3_ENDPOINT', 'AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_LAMBDA',
  'WEBHOOK_QUEUE_URL', 'SQS_ENDPOINT', 'WEBHOOK_RETRY_SCHEDULE', 'WEBHOOK_BREAKER_THRESHOLD', 'LOCAL_MODE',
  'EXTRACTION_STATE_MACHINE_ARN', 'SFN_ENDPOINT', 'AWS_ENDPOINT_URL_SFN', 'TEXTRACT_ENDPOINT', 'TESSERACT_WORKERS',
  'REPORT_PDF_FUNCTION', 'REPORT_ZIP_FUNCTION',
  'MAIL_TRANSPORT', 'LOCAL_SMTP_URL', 'MAIL_FROM_ADDRESS', 'INBOUND_MAIL_DOMAIN', 'SES_CONFIGURATION_SET',
  'SMS_TRANSPORT', 'SMS_ORIGINATION_IDENTITY', 'SMS_CONFIGURATION_SET', 'LOCAL_SMS_SINK', 'LOCAL_SMS_FROM',
  'PUSH_TRANSPORT', 'PUSH_PLATFORM_APPLICATION_ARN', 'LOCAL_PUSH_SINK',
  'SCHEDULER', 'LOCAL_SCHEDULE_STORE', 'SCHEDULE_GROUP', 'SCHEDULER_ROLE_ARN', 'SCHEDULER_DLQ_ARN', 'SCHEDULE_TARGET_<TARGET>_ARN',
  'MCP_API_URL', 'PUBLIC_BASE_URL', 'OAUTH_ISSUER', 'OAUTH_SIGNING_KEY_ID', 'OAUTH_LOCAL_KEY_FILE',
] as const;
